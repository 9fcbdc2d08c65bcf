/**
 * The sh command client (host/cli/hookbox-hook.sh) against a real server,
 * real wasm hooks and the real Node client: hostile event bytes reach the
 * server untouched and are never run by the shell; every case it cannot
 * handle itself goes to the Node client, which decides in-process or
 * answers closed — a server that died (a stale socket), no curl on PATH, a
 * config path it will not put in a header — and its answers are the Node
 * client's, byte for byte.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSessionLog } from '../../host/log/index.ts';
import { DecisionServer, loadServedHooks } from '../../host/serve/index.ts';
import { HOOK_CLIENTS, SH_CLIENT, runProgram } from '../helpers/command-hook.ts';
import { exampleManifest } from '../helpers/examples.ts';

const [NODE, SH] = HOOK_CLIENTS as readonly [(typeof HOOK_CLIENTS)[number], (typeof HOOK_CLIENTS)[number]];

function preBash(cwd: string, session: string, command: string): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: '/dev/null',
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'x' },
    tool_use_id: 'toolu_1',
  });
}

/** The `arguments` of the session's logged tool call: what the server read of the event. */
function loggedCommand(project: string, session: string): unknown {
  const { events } = readSessionLog(join(project, '.hookbox', 'sessions', `claude-code-${session}.jsonl`));
  const call = events.find((e) => e.type === 'tool/call') as { arguments?: { command?: unknown } } | undefined;
  return call?.arguments?.command;
}

/** A PATH of links to `sh`, `node`, `rm`, `cat`, `mktemp` only (no curl): what a machine without curl offers. */
function pathWithoutCurl(root: string): string {
  const bin = join(root, 'bin-no-curl');
  mkdirSync(bin, { recursive: true });
  for (const tool of ['sh', 'rm', 'cat', 'mktemp']) {
    const found = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, tool)).find((file) => existsSync(file));
    if (found !== undefined) symlinkSync(found, join(bin, tool));
  }
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

describe('the sh command client', () => {
  let dir: string;
  let project: string;
  let config: string;
  let socket: string;
  let server: DecisionServer;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hookbox-sh-client-'));
    project = join(dir, 'p');
    mkdirSync(project, { recursive: true });
    config = join(project, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }] }));
    socket = join(project, '.hookbox', 'run', 'serve.sock');
    server = new DecisionServer({ hooks: await loadServedHooks(config), socket, log: (line) => lines.push(line) });
    await server.listen();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  const asked = (session: string) => lines.some((line) => line.startsWith(`hookbox serve: claude-code ${session} `));

  it('hostile event bytes reach the server untouched and the shell runs none of them; the answer is the Node client’s', async () => {
    const marker = join(dir, 'PWNED');
    const hostile = [
      `'"; touch ${marker}; echo "'`,
      `$(touch ${marker})`,
      `\`touch ${marker}\``,
      'line one\nline two\r\n\\n${HOME}',
      'nul \u0000 inside',
      `${'A'.repeat(1024 * 1024)} rm -rf ~`,
    ];
    // The sh client's copies of the events go to a folder of this test's own.
    const copies = join(dir, 'tmp');
    mkdirSync(copies, { recursive: true });
    const env = { ...process.env, TMPDIR: copies };
    for (const [i, command] of hostile.entries()) {
      const args = ['--socket', socket, '--config', config];
      const sh = await SH.run('claude-code', args, preBash(project, `s-hostile-sh-${i}`, command), env);
      const node = await NODE.run('claude-code', args, preBash(project, `s-hostile-node-${i}`, command));
      expect(sh, `case ${i}`).toEqual(node);
      expect(loggedCommand(project, `s-hostile-sh-${i}`), `case ${i}: the server read another command`).toBe(command);
    }
    expect(existsSync(marker), 'the shell ran a command from the event').toBe(false);
    // The 1 MiB one was denied by the hook, not answered closed.
    const big = await SH.run('claude-code', ['--socket', socket, '--config', config], preBash(project, 's-big', `${'A'.repeat(1024 * 1024)} ; rm -rf ~`), env);
    expect(JSON.parse(big.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash') });
    // No copy of any event is left behind in the temporary folder.
    expect(readdirSync(copies)).toEqual([]);
  }, 120_000);

  it('raw NUL and invalid JSON bytes: the same closed answer as the Node client (exit 2, the reason on stderr)', async () => {
    const args = ['--socket', socket, '--config', config];
    for (const body of [Buffer.from('{"hook_event_name":"PreToolUse","x":"\0"}'), Buffer.from([0x7b, 0x00, 0xff, 0x0a]), Buffer.from('not json')]) {
      const sh = await SH.run('claude-code', args, body);
      const node = await NODE.run('claude-code', args, body);
      expect(sh).toEqual(node);
      expect(sh.code === 2 || /"deny"|"block"/.test(sh.stdout), JSON.stringify(sh)).toBe(true);
    }
  }, 60_000);

  it('with the server up it decides without the Node client: no node on PATH, same answer', async () => {
    const bin = join(dir, 'bin-curl-only');
    mkdirSync(bin, { recursive: true });
    // What the sh client needs besides curl: its temporary copy, and the listener checks (ls, od, sha256sum).
    for (const tool of ['sh', 'rm', 'cat', 'mktemp', 'curl', 'ls', 'od', 'sha256sum']) {
      const found = (process.env.PATH ?? '').split(delimiter).map((d) => join(d, tool)).find((file) => existsSync(file));
      if (found !== undefined) symlinkSync(found, join(bin, tool));
    }
    const run = await runProgram(join(bin, 'sh'), [SH_CLIENT, 'claude-code', '--socket', socket, '--config', config], preBash(project, 's-no-node', 'rm -rf ~'), { PATH: bin });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash') });
    expect(asked('s-no-node')).toBe(true);
  }, 60_000);

  it('no curl on PATH → the Node client decides (through the server), with the same answer', async () => {
    const bin = pathWithoutCurl(dir);
    const run = await runProgram(join(bin, 'sh'), [SH_CLIENT, 'claude-code', '--socket', socket, '--config', config], preBash(project, 's-no-curl', 'rm -rf ~'), { PATH: bin });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash') });
    expect(asked('s-no-curl')).toBe(true);
  }, 60_000);

  it('a config path it will not put in a header → the Node client, which the server still serves', async () => {
    const odd = join(project, 'odd dir ü');
    mkdirSync(odd, { recursive: true });
    const linked = join(odd, 'hookbox.config.json');
    symlinkSync(config, linked);
    const run = await SH.run('claude-code', ['--socket', socket, '--config', linked], preBash(project, 's-odd', 'rm -rf ~'));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash') });
    expect(lines.some((line) => /claude-code s-odd PreToolUse deny 200 /.test(line)), lines.join('\n')).toBe(true);
  }, 60_000);

  it('a stale socket (its server died) → the Node client decides in-process from the copy of the event', async () => {
    const stale = join(dir, 'stale', 'serve.sock');
    mkdirSync(dirname(stale), { recursive: true, mode: 0o700 });
    // A server killed while listening leaves its socket file behind, with nobody on it.
    spawnSync(process.execPath, ['-e', "require('node:net').createServer().listen(process.argv[1], () => process.kill(process.pid, 'SIGKILL'))", stale]);
    expect(existsSync(stale)).toBe(true);
    const run = await SH.run('claude-code', ['--socket', stale, '--config', config], preBash(project, 's-stale', 'rm -rf ~'));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash: recursive-delete') });
    expect(loggedCommand(project, 's-stale')).toBe('rm -rf ~');
  }, 60_000);

  it('server down and no config → the closed answer in the agent format, as the Node client gives it', async () => {
    const args = ['--socket', join(dir, 'nobody.sock')];
    const sh = await SH.run('claude-code', args, preBash(project, 's-down', 'ls'));
    expect(sh).toEqual(await NODE.run('claude-code', args, preBash(project, 's-down', 'ls')));
    expect(JSON.parse(sh.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no hookbox server at') });
  }, 60_000);
});
