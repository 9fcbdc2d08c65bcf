/**
 * The small things a team meets in its second hour, through the real bin: output piped into
 * `head` (EPIPE), `serve` on a taken port, `npx hookbox serve` killed (the server must not run on
 * orphaned), a config naming a manifest that is not there (`config explain`), and `verify` run
 * from a subfolder of the project.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'host', 'cli', 'hookbox.mjs');
let dir: string;
let home: string;

const env = (): NodeJS.ProcessEnv => ({ ...process.env, HOME: home, NO_COLOR: '1' });
function hookbox(args: readonly string[], cwd: string) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: env(), timeout: 120_000 });
}

/** Whether a process still runs (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-papercuts-'));
  home = path.join(dir, 'home');
  mkdirSync(home);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stdout closed early (… | head -3)', () => {
  it('setup finishes its work and exits 0 without a stack when its reader has gone', async () => {
    const project = path.join(dir, 'epipe');
    mkdirSync(project);
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [] }));
    const child = spawn(process.execPath, [BIN, 'setup', 'claude-code', '--config', 'hookbox.config.json'], { cwd: project, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader leaves before the first line: every write to stdout meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(status).toBe(0);
    expect(existsSync(path.join(project, '.claude', 'settings.json'))).toBe(true);
  }, 120_000);
});

describe('serve', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => taken.close(() => done())));

  it('--port on a taken port: one line naming the port, no stack, a non-zero exit', async () => {
    writeFileSync(path.join(dir, 'empty.json'), JSON.stringify({ hooks: [] }));
    // Async: this process holds the port, and must stay free to accept while the server tries it.
    const child = spawn(process.execPath, [BIN, 'serve', '--config', 'empty.json', '--port', String(port)], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(`hookbox: --port ${port}: 127.0.0.1:${port} is already in use (another hookbox serve?); stop it or choose another port`);
  }, 120_000);

  it('killing `npx hookbox serve` (SIGTERM to npm) stops the server too', async () => {
    // A project that has hookbox installed, as npx finds it: node_modules/.bin/hookbox.
    const project = path.join(dir, 'npx-serve');
    mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'npx-serve', version: '1.0.0', private: true }));
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [] }));
    symlinkSync(ROOT, path.join(project, 'node_modules', 'hookbox'));
    symlinkSync(path.join('..', 'hookbox', 'host', 'cli', 'hookbox.mjs'), path.join(project, 'node_modules', '.bin', 'hookbox'));
    const pidFile = path.join(project, 'serve.pid');
    // The server reports its own pid through a tiny preload, so the test knows which process to watch.
    writeFileSync(path.join(project, 'pid.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\n`);
    const npx = spawn('npx', ['--offline', '--no-install', 'hookbox', 'serve', '--config', 'hookbox.config.json', '--port', '0'], {
      cwd: project,
      env: { ...env(), NODE_OPTIONS: `--require ${path.join(project, 'pid.cjs')}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    npx.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let server: number | undefined;
    try {
      await waitFor(() => stderr.includes('hookbox serve: listening'), 'serve to listen', { timeoutMs: 120_000 });
      server = Number(readFileSync(pidFile, 'utf8'));
      expect(server).not.toBe(npx.pid);
      expect(alive(server)).toBe(true);
      npx.kill('SIGTERM');
      await waitFor(() => !alive(server as number), 'the server to exit after npx was killed', { timeoutMs: 60_000 });
      expect(stderr).toContain('hookbox serve: the process that started it exited');
    } finally {
      if (server !== undefined && alive(server)) process.kill(server, 'SIGKILL');
      if (npx.exitCode === null) npx.kill('SIGKILL');
    }
  }, 300_000);
});

describe('a config naming a manifest that is not there', () => {
  it('config explain names the config file and hooks[N].manifest and exits non-zero', () => {
    const project = path.join(dir, 'missing-manifest');
    mkdirSync(project);
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'gone', manifest: 'hooks/gone/dist/hook.json' }] }));
    const explained = hookbox(['config', 'explain', '--config', 'hookbox.config.json'], project);
    expect(explained.status).toBe(1);
    expect(explained.stderr).toContain('hookbox.config.json: hooks[0].manifest: hooks/gone/dist/hook.json does not exist');
    // From elsewhere, the paths are absolute.
    const away = hookbox(['config', 'explain', '--config', path.join(project, 'hookbox.config.json')], home);
    expect(away.status).toBe(1);
    expect(away.stderr).toContain(`${path.join(project, 'hookbox.config.json')}: hooks[0].manifest: ${path.join(project, 'hooks', 'gone', 'dist', 'hook.json')} does not exist`);
  });
});

describe('verify from a subfolder', () => {
  it("checks the project's config found upward; with none above, it fails", () => {
    const project = path.join(dir, 'verify-up');
    mkdirSync(path.join(project, 'src', 'deep'), { recursive: true });
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'gone', manifest: 'hooks/gone/dist/hook.json' }] }));
    const verified = hookbox(['verify'], path.join(project, 'src', 'deep'));
    expect(verified.stdout).toContain(`gone (hooks[0] of ${path.join(project, 'hookbox.config.json')})`);
    expect(verified.stdout).toContain('1 of 1 hook(s) changed');
    expect(verified.status).toBe(1);
    const nowhere = hookbox(['verify'], home);
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toContain('no hookbox.config.json in');
  });
});

describe('Claude Code with no server: one process per event', () => {
  it('an allowed call is recorded once in the session log (its PostToolUse found it pending)', () => {
    const project = path.join(dir, 'no-server-log');
    mkdirSync(project);
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [] }));
    expect(hookbox(['setup', 'claude-code', '--config', 'hookbox.config.json'], project).status).toBe(0);
    const settings = JSON.parse(readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command?: string }[] }[]> };
    const send = (event: string, extra: Record<string, unknown>) => {
      const command = settings.hooks[event]?.[0]?.hooks[0]?.command as string;
      const input = JSON.stringify({ session_id: 'once', transcript_path: path.join(project, 't.jsonl'), cwd: project, permission_mode: 'default', hook_event_name: event, ...extra });
      const ran = spawnSync('sh', ['-c', command], { cwd: project, input, encoding: 'utf8', env: { ...env(), CLAUDE_PROJECT_DIR: project }, timeout: 120_000 });
      expect(ran.status, ran.stderr).toBe(0);
    };
    const call = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'u1' };
    send('UserPromptSubmit', { prompt: 'list the files' });
    send('PreToolUse', call);
    send('PostToolUse', { ...call, tool_response: { stdout: 'a\nb', stderr: '', interrupted: false } });
    const log = readFileSync(path.join(project, '.hookbox', 'sessions', 'claude-code-once.jsonl'), 'utf8');
    const events = log.trim().split('\n').map((line) => JSON.parse(line) as { type: string; toolCallId?: string });
    expect(events.filter((event) => event.type === 'tool/call').map((event) => event.toolCallId)).toEqual(['u1']);
    expect(events.filter((event) => event.type === 'tool/result').map((event) => event.toolCallId)).toEqual(['u1']);
  }, 300_000);
});
