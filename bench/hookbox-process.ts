/**
 * hookbox as the agents run it, for the bench sections that measure it out of
 * process (`serve`, `agents`): the CLI and the hook client's paths, a spawn
 * timed from start to exit, and `hookbox serve` started in its own process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** The hookbox CLI. */
export const HOOKBOX = fileURLToPath(new URL('../host/cli/hookbox.mjs', import.meta.url));
/** What `hookbox setup <agent>` writes into a command hook: node runs the CommonJS client directly. */
export const HOOK_CLIENT = fileURLToPath(new URL('../host/cli/hookbox-hook.cjs', import.meta.url));
/** What `hookbox setup <agent>` writes by default: sh runs the client that posts to the server with curl, no Node start. */
export const SH_HOOK_CLIENT = fileURLToPath(new URL('../host/cli/hookbox-hook.sh', import.meta.url));
/** A small fixed environment, so the parent's does not change what a child costs. */
export const CHILD_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C' };

/** One spawn fed `input` on stdin: its wall time to exit, its stdout and exit code. */
export function spawnTimed(command: string, args: readonly string[], input: string): Promise<{ ms: number; stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: CHILD_ENV });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, stdout, code }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/**
 * `hookbox serve --config <config> <serveArgs…>` in its own process; resolves
 * once it listens (60 s at most) with a function that stops it.
 */
export async function startServe(config: string, serveArgs: readonly string[]): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [HOOKBOX, 'serve', '--config', config, ...serveArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: CHILD_ENV,
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hookbox serve did not start: ${log}`)), 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`hookbox serve exited ${code}: ${log}`)));
  });
  // Drained from here on: a full pipe would stall the server mid-measurement.
  child.stderr.removeAllListeners('data');
  child.stderr.resume();
  return () =>
    new Promise<void>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** The stopwatch child (bench/spawn-timer.mjs): why spawns are timed from a small process, see there. */
const SPAWN_TIMER = fileURLToPath(new URL('./spawn-timer.mjs', import.meta.url));

/** A command the stopwatch spawns, or an event it sends the server itself (see bench/spawn-timer.mjs). */
export type TimedRun =
  | {
      readonly command: string;
      readonly args: readonly string[];
      readonly input: string;
      /** Its environment (default CHILD_ENV). */
      readonly env?: NodeJS.ProcessEnv;
    }
  | { readonly ask: { readonly socket: string; readonly config: string; readonly body: string } };

/** Each run in turn from the small stopwatch process (spawned with CHILD_ENV unless it has its own): its wall time, stdout and exit code. */
export function timeSpawns(runs: readonly TimedRun[]): Array<{ ms: number; stdout: string; code: number | null }> {
  const timer = spawnSync(process.execPath, [SPAWN_TIMER], { input: JSON.stringify({ env: CHILD_ENV, runs }), env: CHILD_ENV, maxBuffer: 64 << 20 });
  if (timer.status !== 0) throw new Error(`bench/spawn-timer.mjs exited ${String(timer.status)}: ${timer.stderr.toString('utf8').slice(0, 2000)}`);
  const results = JSON.parse(timer.stdout.toString('utf8')) as Array<{ ms: number; stdout: string; code: number | null; error?: string }>;
  for (const [i, result] of results.entries()) {
    const run = runs[i]!;
    if (result.error !== undefined) throw new Error(`${'ask' in run ? `asking ${run.ask.socket}` : run.command}: ${result.error}`);
  }
  return results;
}
