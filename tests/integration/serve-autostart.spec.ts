/**
 * The server starts itself (issue #55): a per-event client that finds no
 * server on its project's socket decides the event in-process as before and
 * starts `hookbox serve` for the project, detached; the next events go to
 * it. Real clients (node and sh, spawned as the agents run them), real
 * servers, real wasm hooks. Every server a test starts is stopped after it.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_CLIENTS, runWithStdin } from '../helpers/command-hook.ts';
import { exampleManifest } from '../helpers/examples.ts';

const HOOKBOX = join(import.meta.dirname, '..', '..', 'host', 'cli', 'hookbox.mjs');
const [NODE, SH] = HOOK_CLIENTS as readonly [(typeof HOOK_CLIENTS)[number], (typeof HOOK_CLIENTS)[number]];
/** The test run turns the start off (vitest.config.ts); these turn it back on. */
const { HOOKBOX_NO_AUTOSTART: _off, ...AUTOSTART_ENV } = process.env;

let root: string;
const projects: string[] = [];
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'hookbox-autostart-'));
});
afterAll(async () => {
  for (const project of projects) {
    await runWithStdin([HOOKBOX, 'serve', '--stop', '--config', join(project, 'hookbox.config.json')], '');
    // Whatever else a failed test left running for this project.
    for (const pid of serversOn(join(project, '.hookbox', 'run', 'serve.sock'))) process.kill(pid, 'SIGKILL');
  }
  rmSync(root, { recursive: true, force: true });
}, 120_000);

function freshProject(hooks: readonly string[] = ['guard-bash']): { project: string; config: string; socket: string; log: string } {
  const project = mkdtempSync(join(root, 'p-'));
  projects.push(project);
  const config = join(project, 'hookbox.config.json');
  writeFileSync(config, JSON.stringify({ hooks: hooks.map((name) => ({ name, manifest: exampleManifest(name as 'guard-bash') })) }));
  const run = join(project, '.hookbox', 'run');
  return { project, config, socket: join(run, 'serve.sock'), log: join(run, 'serve.log') };
}

function rmHome(project: string, session: string): string {
  return JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, tool_use_id: 't1' });
}

const args = (p: { socket: string; config: string }) => ['--socket', p.socket, '--config', p.config];
const livePid = (socket: string): number | undefined => {
  try {
    const pid = Number(readFileSync(`${socket}.pid`, 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
};
const logLines = (log: string, pattern: RegExp): number => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => pattern.test(line)).length : 0);

/** The `hookbox serve` processes started for this socket (Linux: their command lines in /proc). */
function serversOn(socket: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const words = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (words.includes('serve') && words.includes(socket)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Polls until `condition` holds (bounded generously for a loaded machine). */
async function until(what: string, condition: () => boolean, limitMs = 90_000): Promise<void> {
  for (let waited = 0; !condition(); waited += 200) {
    if (waited > limitMs) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function expectDenied(run: { code: number | null; stdout: string; stderr: string }): void {
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash: recursive-delete') });
}

describe('a client with no server on its project socket starts one', () => {
  it('the first event is decided in-process, the server starts once, and the next events (node and sh) are its', { timeout: 240_000 }, async () => {
    const p = freshProject();
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 's1'), AUTOSTART_ENV));
    await until('the server to listen', () => existsSync(p.socket) && livePid(p.socket) !== undefined && logLines(p.log, /listening on/) === 1);
    const pid = livePid(p.socket);
    expectDenied(await SH.run('claude-code', args(p), rmHome(p.project, 's2'), AUTOSTART_ENV));
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 's3'), AUTOSTART_ENV));
    // The server decided both (its request lines, written once each answer is sent), and it is still the one that started.
    await until('the server’s lines for s2 and s3', () => logLines(p.log, /claude-code s2 PreToolUse deny 200/) === 1 && logLines(p.log, /claude-code s3 PreToolUse deny 200/) === 1, 30_000);
    expect(livePid(p.socket)).toBe(pid);
    expect(logLines(p.log, /listening on/)).toBe(1);
  });

  it('several first events at once start one server', { timeout: 240_000 }, async () => {
    const p = freshProject();
    const runs = await Promise.all([0, 1, 2, 3].map((i) => (i % 2 === 0 ? NODE : SH).run('claude-code', args(p), rmHome(p.project, `c${i}`), AUTOSTART_ENV)));
    for (const run of runs) expectDenied(run);
    await until('one server to listen', () => livePid(p.socket) !== undefined && logLines(p.log, /listening on/) >= 1);
    // Every other start (if any was spawned) has left once the one server is the only process serving this socket.
    await until('the other starts to leave', () => serversOn(p.socket).length === 1, 60_000);
    expect(serversOn(p.socket)).toEqual([livePid(p.socket)]);
    expect(logLines(p.log, /listening on/)).toBe(1);
  });

  it('a server that dies (its socket stale, its pid file left) → the next event is decided in-process and starts a new one', { timeout: 240_000 }, async () => {
    const p = freshProject();
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 'd1'), AUTOSTART_ENV));
    await until('the server to listen', () => existsSync(p.socket) && livePid(p.socket) !== undefined && logLines(p.log, /listening on/) === 1);
    const first = livePid(p.socket)!;
    process.kill(first, 'SIGKILL');
    await until('the server to die', () => livePid(p.socket) === undefined);
    expect(existsSync(p.socket)).toBe(true); // stale: nobody listens on it
    expectDenied(await SH.run('claude-code', args(p), rmHome(p.project, 'd2'), AUTOSTART_ENV));
    await until('a new server to listen', () => logLines(p.log, /listening on/) === 2 && livePid(p.socket) !== undefined);
    expect(livePid(p.socket)).not.toBe(first);
    expectDenied(await SH.run('claude-code', args(p), rmHome(p.project, 'd3'), AUTOSTART_ENV));
    await until('the new server’s line for d3', () => logLines(p.log, /claude-code d3 PreToolUse deny 200/) === 1, 30_000);
  });

  it('a config changed on disk is never decided by the old one: the server refuses, leaves, and a fresh one serves the new config', { timeout: 240_000 }, async () => {
    const p = freshProject();
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 'k1'), AUTOSTART_ENV));
    await until('the server to listen', () => existsSync(p.socket) && livePid(p.socket) !== undefined);
    const old = livePid(p.socket);
    writeFileSync(p.config, JSON.stringify({ hooks: [] }));
    // No hook left: the new config lets the call through (the old one would deny it).
    const run = await SH.run('claude-code', args(p), rmHome(p.project, 'k2'), AUTOSTART_ENV);
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(logLines(p.log, /k2 PreToolUse deny/)).toBe(0);
    await until('the new server', () => livePid(p.socket) !== undefined && livePid(p.socket) !== old && logLines(p.log, /listening on/) === 2);
  });

  it('hookbox serve --stop stops it; HOOKBOX_NO_AUTOSTART=1 and --no-autostart start none', { timeout: 240_000 }, async () => {
    const p = freshProject();
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 'x1'), AUTOSTART_ENV));
    await until('the server to listen', () => existsSync(p.socket) && livePid(p.socket) !== undefined);
    const stop = await runWithStdin([HOOKBOX, 'serve', '--stop', '--config', p.config], '');
    expect(stop.stderr).toMatch(/stopped pid/);
    expect(livePid(p.socket)).toBeUndefined();
    expect(existsSync(p.socket)).toBe(false);
    rmSync(p.log);
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 'x2'), { ...AUTOSTART_ENV, HOOKBOX_NO_AUTOSTART: '1' }));
    expectDenied(await SH.run('claude-code', [...args(p), '--no-autostart'], rmHome(p.project, 'x3'), AUTOSTART_ENV));
    // The log is opened before a server is spawned: none means no start was tried.
    expect(existsSync(p.log)).toBe(false);
  });

  it('a config it would refuse: the event is answered closed and no server listens', { timeout: 240_000 }, async () => {
    const p = freshProject();
    writeFileSync(p.config, '{"hooks": [{"name": "x", "manifest": "/nonexistent/hook.json"}]}');
    const run = await NODE.run('claude-code', args(p), rmHome(p.project, 'b1'), AUTOSTART_ENV);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    await until('the refused start to leave', () => existsSync(p.log) && livePid(p.socket) === undefined && readFileSync(p.log, 'utf8').length > 0);
    expect(existsSync(p.socket)).toBe(false);
    expect(readFileSync(p.log, 'utf8')).toMatch(/nonexistent/);
  });

  it('a server whose config is gone (a removed project or temp folder) leaves', { timeout: 240_000 }, async () => {
    const p = freshProject();
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 'g1'), AUTOSTART_ENV));
    await until('the server to listen', () => logLines(p.log, /listening on/) === 1 && livePid(p.socket) !== undefined);
    rmSync(p.config);
    await until('the server to leave', () => logLines(p.log, /its config is gone/) === 1 && livePid(p.socket) === undefined);
  });

  it('an idle server leaves after --exit-idle (HOOKBOX_SERVE_EXIT_IDLE)', { timeout: 240_000 }, async () => {
    const p = freshProject();
    expectDenied(await NODE.run('claude-code', args(p), rmHome(p.project, 'i1'), { ...AUTOSTART_ENV, HOOKBOX_SERVE_EXIT_IDLE: '2' }));
    await until('the server to listen', () => logLines(p.log, /listening on/) === 1);
    await until('the server to leave', () => logLines(p.log, /no event for 2 s/) === 1 && livePid(p.socket) === undefined);
    expect(existsSync(p.socket)).toBe(false);
  });
});

