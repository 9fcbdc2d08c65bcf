/**
 * `hookbox serve` and `hookbox hook claude-code` with real wasm hooks, a
 * real loopback HTTP listener and a real unix socket.
 */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readSessionLog } from '../../host/log/index.ts';
import { DecisionServer, EXIT_HEADER, loadServedHooks } from '../../host/serve/index.ts';
import { claudeEvent, preBash } from '../helpers/claude-events.ts';
import { runCommandHook as runClient } from '../helpers/command-hook.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';
import { waitFor } from '../helpers/wait-for.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyz';

interface Reply {
  readonly status: number;
  readonly exit: string | undefined;
  readonly body: string;
}

function post(target: { port?: number; socket?: string }, body: string | Buffer, headers: Record<string, string> = {}, path = '/hooks/claude-code'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...(target.socket !== undefined ? { socketPath: target.socket } : { host: '127.0.0.1', port: target.port }),
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, exit: res.headers[EXIT_HEADER] as string | undefined, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('hookbox serve', () => {
  let dir: string;
  let project: string;
  let server: DecisionServer;
  let socket: string;
  const lines: string[] = [];

  // Opened by the first test's beforeEach, not a beforeAll: Stryker credits what a beforeAll
  // runs to no test, so every mutant in the server's start would run against every suite
  // (docs/testing.md, "Open shared fixtures in a beforeEach").
  let opening: Promise<void> | undefined;
  beforeEach(() => (opening ??= open()), 60_000);
  async function open(): Promise<void> {
    dir = mkdtempSync(join(tmpdir(), 'hookbox-serve-'));
    project = join(dir, 'proj');
    const trap = await writeCorpusWasm('trap', join(dir, 'wasm'));
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        hooks: [
          { name: 'guard-bash', manifest: exampleManifest('guard-bash') },
          { name: 'trap', wasm: trap, seams: ['tools/pre-execute'], tools: ['^read_file$'], quarantineAfter: 2 },
          {
            name: 'always-continue',
            command: `printf '{"decision":"block","reason":"again"}'`,
            protocol: 'claude-code',
            unsandboxed: true,
            seams: ['agent/turn-continuation'],
          },
        ],
      }),
    );
    socket = join(dir, 'run', 'serve.sock');
    server = new DecisionServer({
      hooks: await loadServedHooks(config),
      port: 0,
      socket,
      token: TOKEN,
      maxContinuations: 2,
      maxSessions: 3,
      maxBodyBytes: 64 * 1024,
      log: (line) => lines.push(line),
    });
    await server.listen();
  }

  afterAll(async () => {
    await server?.close();
  });

  const auth = { authorization: `Bearer ${TOKEN}` };

  it('over HTTP: answers with a bearer token; without one, with a wrong one or a prefix of it, 401 before the body is read', async () => {
    const body = preBash(project, 's-http', 'rm -rf /');
    const ok = await post({ port: server.port! }, body, auth);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash: recursive-delete') });
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${TOKEN.slice(0, 8)}` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `bearer ${TOKEN}` },
    ];
    for (const headers of attempts) {
      const refused = await post({ port: server.port! }, preBash(project, 's-http', 'echo hi'), headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(refused.body).toContain('unauthenticated');
    }
  });

  it('over HTTP: only the whole token passes — a prefix of it, the token with a byte more, or a lone character is 401', async () => {
    const near = [TOKEN.slice(0, 1), TOKEN.slice(0, TOKEN.length / 2), TOKEN.slice(0, -1), `${TOKEN}x`, `x${TOKEN}`];
    for (const given of near) {
      const refused = await post({ port: server.port! }, preBash(project, 's-prefix', 'echo hi'), { authorization: `Bearer ${given}` });
      expect(refused.status, `Bearer ${given}`).toBe(401);
      expect(refused.body).toContain('unauthenticated');
    }
  });

  it('over the socket: no token needed; the socket is 0600 in a 0700 folder', async () => {
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
    const reply = await post({ socket }, preBash(project, 's-sock', 'git push origin main'));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).hookSpecificOutput.permissionDecision).toBe('ask');
    // allow is "no objection": Claude Code's own permission rules still apply.
    const allowed = await post({ socket }, preBash(project, 's-sock', 'ls', 'toolu_2'));
    expect(allowed).toMatchObject({ status: 200, exit: '0', body: '' });
  });

  it('oversized, malformed or invalid requests: 4xx with the fail-closed answer for the event', async () => {
    const big = preBash(project, 's-bad', `echo ${'x'.repeat(70 * 1024)}`);
    const oversized = await post({ socket }, big);
    expect(oversized.status).toBe(413);
    expect(JSON.parse(oversized.body).hookSpecificOutput.permissionDecision).toBe('deny');
    const truncated = await post({ socket }, '{"hook_event_name":"UserPromptSubmit","prompt":"hi');
    expect(truncated.status).toBe(400);
    expect(JSON.parse(truncated.body)).toMatchObject({ decision: 'block', reason: expect.stringContaining('not JSON') });
    const badId = await post({ socket }, claudeEvent(project, '../../etc/x', { hook_event_name: 'UserPromptSubmit', prompt: 'hi' }));
    expect(badId.status).toBe(400);
    expect(JSON.parse(badId.body).reason).toContain('input.session_id');
    const relative = await post({ socket }, claudeEvent('proj', 's-bad', { hook_event_name: 'Stop' }));
    expect(relative).toMatchObject({ status: 400, body: '' }); // a Stop is never forced on by a failure
    const unknownShape = await post({ socket }, '[1,2]');
    expect(unknownShape).toMatchObject({ status: 400, exit: '2' });
    const unknownAgent = await post({ socket }, preBash(project, 's-bad', 'ls'), {}, '/hooks/nobody');
    expect(unknownAgent.status).toBe(404);
  });

  it('an event hookbox has no seam for passes with no opinion', async () => {
    const reply = await post({ socket }, claudeEvent(project, 's-pass', { hook_event_name: 'Notification', message: 'hi' }));
    expect(reply).toMatchObject({ status: 200, exit: '0', body: '' });
  });

  it('quarantine is per agent session: one session switching a hook off leaves other sessions alone', async () => {
    const read = (session: string, id: string) =>
      post({ socket }, claudeEvent(project, session, { hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: join(project, 'a') }, tool_use_id: id }));
    const reasons: string[] = [];
    for (const id of ['r1', 'r2', 'r3']) reasons.push(JSON.parse((await read('s-bad-repo', id)).body).hookSpecificOutput.permissionDecisionReason);
    expect(reasons[0]).toContain('failed (trap)');
    expect(reasons[2]).toContain('quarantined in this session after 2 consecutive faults');
    const other = JSON.parse((await read('s-other', 'r4')).body).hookSpecificOutput.permissionDecisionReason;
    expect(other).toContain('failed (trap)');
    expect(other).not.toContain('quarantined');
  });

  it('Stop: continue becomes decision "block" until the continuation cap; stop_hook_active false starts the count again', async () => {
    const stop = (active: boolean) => post({ socket }, claudeEvent(project, 's-stop', { hook_event_name: 'Stop', stop_hook_active: active }));
    await post({ socket }, claudeEvent(project, 's-stop', { hook_event_name: 'UserPromptSubmit', prompt: 'go' }));
    expect(JSON.parse((await stop(false)).body)).toEqual({ decision: 'block', reason: 'again' });
    expect(JSON.parse((await stop(true)).body)).toEqual({ decision: 'block', reason: 'again' });
    expect((await stop(true)).body).toBe(''); // cap 2 reached: the agent stops
    expect(JSON.parse((await stop(false)).body)).toEqual({ decision: 'block', reason: 'again' });
    const { events } = readSessionLog(join(project, '.hookbox', 'sessions', 'claude-code-s-stop.jsonl'));
    expect(events.filter((e) => e.type === 'steering/message')).toHaveLength(3);
    expect(events.some((e) => e.type === 'turn/end' && e.message === 'continuation cap reached (2)')).toBe(true);
  });

  it('holds at most maxSessions sessions; one stderr line per request, with session, event, decision and µs', async () => {
    expect(server.sessions).toBeLessThanOrEqual(3);
    expect(lines.some((line) => /^hookbox serve: claude-code s-sock PreToolUse ask 200 \d+µs$/.test(line))).toBe(true);
  });

  it('hookbox hook claude-code asks the server over the socket and prints its answer', async () => {
    const run = await runClient(['--socket', socket], preBash(project, 's-client', 'rm -rf ~'));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const garbage = await runClient(['--socket', socket], 'not json');
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/^hookbox: request body is not JSON/);
  });

  it('hookbox hook claude-code with no server decides in-process, with the same answer', async () => {
    const config = join(dir, 'guard-only.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }] }));
    const run = await runClient(['--socket', join(dir, 'nobody.sock'), '--config', config], preBash(project, 's-inproc', 'rm -rf .'));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash: recursive-delete') });
    const { events } = readSessionLog(join(project, '.hookbox', 'sessions', 'claude-code-s-inproc.jsonl'));
    expect(events.some((e) => e.type === 'tool/result' && e.hookEffect === 'denied')).toBe(true);
  }, 60_000);

  it('hookbox hook claude-code fails closed (the deny, one line of reason) with no server and no config', async () => {
    const run = await runClient(['--socket', join(dir, 'none.sock')], preBash(project, 's-none', 'ls'));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no hookbox server at') });
  });
});

describe('hookbox serve shutdown', () => {
  it('finishes a call in flight, then closes the sessions and removes the socket', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookbox-serve-stop-'));
    const spin = await writeCorpusWasm('infinite-loop', join(dir, 'wasm'));
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'spin', wasm: spin, seams: ['tools/pre-execute'], timeoutMs: 2000 }] }));
    const socket = join(dir, 'run', 's.sock');
    const server = new DecisionServer({ hooks: await loadServedHooks(config), socket, log: () => {} });
    await server.listen();
    const inFlight = post({ socket }, preBash(join(dir, 'p'), 's1', 'ls'));
    // In flight once the call is in the session log (written before the hook runs), however slow the machine.
    const log = join(dir, 'p', '.hookbox', 'sessions', 'claude-code-s1.jsonl');
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('"tool/call"'), `the tool call in ${log}`);
    const closed = server.close();
    const reply = await inFlight;
    await closed;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).hookSpecificOutput).toMatchObject({ permissionDecision: 'ask', permissionDecisionReason: expect.stringContaining('failed (timeout)') });
    expect(existsSync(socket)).toBe(false);
    const { events } = readSessionLog(join(dir, 'p', '.hookbox', 'sessions', 'claude-code-s1.jsonl'));
    expect(events.map((e) => e.type)).toEqual(['session/start', 'turn/start', 'tool/call', 'hook/invoke']);
  }, 30_000);
});
