/**
 * `hookbox report` as a child process (the real bin) over the logs the three
 * writers produce: `hookbox run`, the ACP agent, and `hookbox serve`'s
 * sessions (through `hookbox hook claude-code`, which with no server decides
 * in-process with the same session code), with real wasm hooks; and its
 * answers to bad input.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION, client } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AcpAgent } from '../../host/acp/index.ts';
import { openHookSet } from '../../host/cli/hook-set.ts';
import { ScriptedProvider } from '../../host/providers/scripted.ts';
import { ReportDataSchema } from '../../host/report/index.ts';
import { builtinTools } from '../../host/tools/index.ts';
import { runCommandHook } from '../helpers/command-hook.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

function hookbox(args: string[], input = '') {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input, env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });
}

/** `hookbox hook claude-code` with one event on stdin; no server at the socket, so it decides in-process. */
const agentHook = (args: string[], event: unknown) => runCommandHook(args, JSON.stringify(event));

let workspace: TestWorkspace;
let runLog: string;
let acpLog: string;
let serveLog: string;

beforeAll(async () => {
  workspace = makeWorkspace('hookbox-report-cli-');
  const dir = workspace.dir;
  const trap = await writeCorpusWasm('trap', join(dir, 'wasm'));
  const config = join(dir, 'hookbox.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      hooks: [
        { name: 'guard-bash', manifest: exampleManifest('guard-bash') },
        { name: 'trap', wasm: trap, seams: ['tools/pre-execute'], tools: ['^read_file$'] },
      ],
      // generous: a loaded machine must not turn a slow instantiation into a load error
      defaults: { timeoutMs: 20_000 },
    }),
  );

  // hookbox run
  runLog = join(dir, 'run.jsonl');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ steps: [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf /' } }] }, { text: 'ok' }] }));
  const run = hookbox(['run', '--script', script, '--config', config, '--log', runLog, '--cwd', dir, 'clean up']);
  expect(run.status, run.stderr).toBe(0);

  // the ACP agent (in-process, as an editor drives it)
  const hooks = await openHookSet(config);
  const agent = new AcpAgent({
    createProvider: () => new ScriptedProvider({ steps: [{ toolCalls: [{ id: 'a1', name: 'bash', arguments: { command: 'sudo rm -rf --no-preserve-root /' } }] }, { text: 'fine' }] }),
    hooks: hooks.listeners,
    createTools: builtinTools,
  });
  try {
    await client({ name: 'report-spec' }).connectWith(agent.app, async (acp) => {
      await acp.request('initialize', { protocolVersion: PROTOCOL_VERSION });
      const { sessionId } = await acp.request('session/new', { cwd: dir, mcpServers: [] });
      await acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wipe it' }] });
      acpLog = join(dir, '.hookbox', 'sessions', `${sessionId}.jsonl`);
    });
  } finally {
    await agent.close();
    await hooks.close();
  }

  // hookbox serve's session log, through the command hook deciding in-process
  const project = join(dir, 'project');
  const base = { session_id: 's-report', transcript_path: '/dev/null', cwd: project, permission_mode: 'default' };
  const socket = ['--socket', join(dir, 'nobody.sock'), '--config', config];
  const read = await agentHook(socket, { ...base, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: join(project, 'a.txt') }, tool_use_id: 't1' });
  expect(read.code, read.stderr).toBe(0);
  const bash = await agentHook(socket, { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push origin main' }, tool_use_id: 't2' });
  expect(bash.code, bash.stderr).toBe(0);
  serveLog = join(project, '.hookbox', 'sessions', 'claude-code-s-report.jsonl');
}, 240_000);
afterAll(() => workspace.dispose());

describe('hookbox report over the logs of run, acp and serve', () => {
  it('--json: one session per log, every denial, the ask and the fault', () => {
    const out = hookbox(['report', runLog, acpLog, serveLog, '--json']);
    expect(out.status, out.stderr).toBe(0);
    const data = ReportDataSchema.parse(JSON.parse(out.stdout));
    expect(data.sessions.map((s) => s.file)).toEqual([runLog, acpLog, serveLog]);
    expect(data.sessions[2]?.sessionId).toBe('s-report');
    expect(data.findings.map((f) => [f.session, f.hook, f.action, f.fault ?? null, f.subject])).toEqual([
      [0, 'guard-bash', 'deny', null, 'bash {"command":"rm -rf /"}'],
      [1, 'guard-bash', 'deny', null, 'bash {"command":"sudo rm -rf --no-preserve-root /"}'],
      [2, 'trap', 'deny', 'trap', 'read_file {"path":"a.txt"}'],
      [2, 'guard-bash', 'ask', null, 'bash {"command":"git push origin main"}'],
    ]);
    expect(data.totals.faultsByKind).toEqual({ trap: 1 });
    expect(data.hooks.find((h) => h.hook === 'trap')).toMatchObject({ calls: 1, faults: { trap: 1 } });
  });

  it('-o writes one HTML page with a timeline section per log and says where it went', () => {
    const output = join(workspace.dir, 'out', '..', 'report.html');
    const out = hookbox(['report', runLog, acpLog, serveLog, '-o', output]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`report: ${output} (3 session(s), 4 denial(s)/ask(s)/block(s))\n`);
    const page = readFileSync(output, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page.match(/<section class="session" id="session-\d">/g)).toHaveLength(3);
    expect(page).toContain('⚠ fault: trap');
    expect(readdirSync(workspace.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('hookbox report on bad input', () => {
  it('--help names the arguments and options', () => {
    const out = hookbox(['report', '--help']);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('Usage: hookbox report [options] <session.jsonl...>');
    for (const option of ['-o, --output <file>', '--json', '--show-blocked-prompts']) expect(out.stdout).toContain(option);
  });

  it('exits 2 with one line naming the file (and the line) for a missing file, a folder, an empty file, text and JSON that is not an event', () => {
    const dir = workspace.dir;
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello\n');
    const json = join(dir, 'other.json');
    writeFileSync(json, `${readFileSync(runLog, 'utf8').split('\n')[0]}\n{"type":"session/start"}\n`);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.jsonl'), /^hookbox: session log .*missing\.jsonl does not exist\n$/],
      [dir, /^hookbox: .*: not a file\n$/],
      [empty, /^hookbox: .*empty\.jsonl: not a session log \(no events\)\n$/],
      [text, /^hookbox: .*notes\.txt:1: not a JSON object \(.*\)\n$/],
      [json, /^hookbox: .*other\.json:2: not a session event \(sessionId: .*\)\n$/],
    ];
    for (const [file, message] of cases) {
      const out = hookbox(['report', runLog, file, '-o', join(dir, 'never.html')]);
      expect(out.status, file).toBe(2);
      expect(out.stderr, file).toMatch(message);
      expect(out.stdout).toBe('');
    }
    expect(readdirSync(dir)).not.toContain('never.html');
  });

  it('refuses to write the report over one of its logs, and the log is untouched', () => {
    const before = readFileSync(runLog);
    const out = hookbox(['report', runLog, '-o', join(workspace.dir, '.', 'run.jsonl')]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/^hookbox: -o .*run\.jsonl: is the session log .*run\.jsonl; the report must go to another file\n$/);
    expect(readFileSync(runLog).equals(before)).toBe(true);
  });
});
