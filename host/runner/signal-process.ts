/**
 * Runs one declared signal on the main thread: its argv without a shell, in
 * its folder, stdin closed, in a process group of its own so that the
 * timeout kills whatever it started too (a linter's workers). Each stream is
 * kept up to the cap and read to the end past it, so a chatty program never
 * blocks on a full pipe. Never throws: a program that cannot start is a
 * result with `error`.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { SignalSpec } from './signal-spec.ts';

/** What one run produced. Output is raw bytes: the hook decodes it, and nothing here shows it anywhere. */
export interface SignalResult {
  readonly exitCode: number | null;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  readonly truncated: boolean;
  readonly timedOut: boolean;
  /** Why the program did not run (spawn failed); then the rest is empty. */
  readonly error?: string;
  readonly durationUs: number;
}

/** Keeps the first `cap` bytes of a stream, counts the rest. */
class Capped {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  truncated = false;
  constructor(readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.#kept;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    if (part !== chunk) this.truncated = true;
    this.#chunks.push(part);
    this.#kept += part.byteLength;
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.#chunks));
  }
}

/** Runs `spec` once. The environment is the host process's (the operator's program, the operator's rights). */
export function runSignal(spec: SignalSpec): Promise<SignalResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 1000);
  return new Promise((resolve) => {
    const stdout = new Capped(spec.maxOutputBytes);
    const stderr = new Capped(spec.maxOutputBytes);
    let timedOut = false;
    let settled = false;
    const finish = (result: Omit<SignalResult, 'durationUs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationUs: elapsed() });
    };
    const [program, ...args] = spec.argv as [string, ...string[]];
    const child = spawn(program, args, { cwd: spec.cwd, shell: false, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, spec.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ exitCode: null, stdout: new Uint8Array(0), stderr: new Uint8Array(0), truncated: false, timedOut: false, error: `cannot start ${program} in ${spec.cwd}: ${error.code ?? error.message}` });
    });
    // `close`, not `exit`: the streams are read to their end (or to the group's kill).
    child.on('close', (code) => {
      finish({ exitCode: timedOut ? null : code, stdout: stdout.bytes(), stderr: stderr.bytes(), truncated: stdout.truncated || stderr.truncated, timedOut });
    });
  });
}
