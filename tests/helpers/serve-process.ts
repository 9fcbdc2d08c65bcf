import { spawn } from 'node:child_process';
import { HOOKBOX_BIN } from './real-agents.ts';

/** A `hookbox serve` started with exactly the arguments a user types, in a folder. */
export interface ServeProcess {
  /** Its stderr so far: the listening line, then one line per request. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `hookbox <args>` (a `serve` line as written) in `cwd` and waits for
 * its "listening on" line; a server that exits first rejects with its stderr.
 */
export function startServe(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, [HOOKBOX_BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const stop = (): Promise<void> =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('close', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    // Sized for a loaded machine: loading the hooks compiles their wasm.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hookbox ${args.join(' ')} did not listen in 120 s: ${stderr}`));
    }, 120_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('listening on')) {
        clearTimeout(timer);
        resolve({ log: () => stderr, stop });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`hookbox ${args.join(' ')} exited ${String(code)}: ${stderr}`));
    });
  });
}
