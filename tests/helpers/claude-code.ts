import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockAnthropic } from './mock-anthropic.ts';

/** The real Claude Code binary of the exact devDependency. */
export const CLAUDE_BIN = fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url));

/** Whether the binary starts here: its version, or why not (the suite then reports itself skipped with it). */
export function probeClaude(): { ok: true; version: string } | { ok: false; reason: string } {
  const run = spawnSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, DISABLE_AUTOUPDATER: '1' } });
  if (run.error !== undefined) return { ok: false, reason: `${CLAUDE_BIN} does not start (${run.error.message})` };
  const version = /\d+\.\d+\.\d+/.exec(run.stdout)?.[0];
  if (run.status !== 0 || version === undefined) return { ok: false, reason: `claude --version exited ${run.status}: ${run.stderr.trim().slice(0, 200)}` };
  return { ok: true, version };
}

/** A fresh project folder and an isolated HOME (so `~/.claude` is the test's own). */
export function claudeWorkspace(prefix = 'hookbox-cc-'): { root: string; project: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const project = join(root, 'proj');
  const home = join(root, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { root, project, home };
}

/** What `claude -p --output-format json` reported. */
export interface ClaudeRun {
  readonly exitCode: number | null;
  readonly result: Record<string, unknown> | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs Claude Code headless in `project` against the mock model, with the
 * environment that keeps every byte on loopback (no telemetry, no update
 * check, no non-essential traffic) and HOME isolated.
 */
export function runClaude(options: {
  readonly project: string;
  readonly home: string;
  readonly mock: MockAnthropic;
  readonly prompt: string;
  readonly allowedTools?: string;
  readonly timeoutMs?: number;
  /** `--permission-mode bypassPermissions` (as root it needs IS_SANDBOX=1): Claude Code's own permission checks off, hooks still asked. */
  readonly bypassPermissions?: boolean;
  /** A command line the binary runs under (`nsenter --mount=… --`: a private /etc). */
  readonly prefix?: readonly string[];
  /** Let the hook clients start the project's `hookbox serve` (#55); off otherwise, as for the whole test run (vitest.config.ts). */
  readonly autostart?: boolean;
}): Promise<ClaudeRun> {
  const [bin, ...before] = options.prefix === undefined ? [CLAUDE_BIN] : [...options.prefix, CLAUDE_BIN];
  return new Promise((resolve, reject) => {
    const child = spawn(
      bin!,
      [
        ...before,
        '-p',
        options.prompt,
        '--output-format',
        'json',
        '--allowedTools',
        options.allowedTools ?? 'Bash',
        '--model',
        'claude-sonnet-4-5',
        ...(options.bypassPermissions === true ? ['--permission-mode', 'bypassPermissions'] : []),
      ],
      {
        cwd: options.project,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          HOME: options.home,
          ANTHROPIC_BASE_URL: options.mock.url,
          ANTHROPIC_API_KEY: 'sk-hookbox-test',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          ...(options.bypassPermissions === true && { IS_SANDBOX: '1' }),
          ...(options.autostart !== true && { HOOKBOX_NO_AUTOSTART: '1' }),
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      let result: Record<string, unknown> | undefined;
      try {
        result = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Record<string, unknown>;
      } catch {
        result = undefined;
      }
      resolve({ exitCode, result, stdout, stderr });
    });
  });
}

/** The demo's small project: a failing add(), its test, a .env with (fake) secrets, and a file a wipe would delete. */
export function writeProject(dir: string): void {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'demo', private: true, scripts: { test: 'node test.js' } }, null, 2)}\n`);
  writeFileSync(join(dir, 'add.js'), 'module.exports = (a, b) => a - b;\n');
  writeFileSync(join(dir, 'test.js'), "const add = require('./add.js');\nif (add(2, 3) !== 5) {\n  console.error('FAIL add');\n  process.exit(1);\n}\nconsole.log('PASS add');\n");
  writeFileSync(join(dir, 'keep-me.txt'), 'a file `rm -rf .` would delete\n');
}
