import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOOKBOX = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

/** What a child run with {@link runWithStdin} did. */
export interface StdinRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <args…>` with `stdin` (as an agent runs a command hook), collecting its exit code and output. */
export function runWithStdin(args: readonly string[], stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<StdinRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/**
 * Runs `hookbox hook claude-code <args>` (the command hook Claude Code runs
 * per event) with `stdin`, and collects its exit code and output.
 */
export function runCommandHook(args: readonly string[], stdin: string): Promise<StdinRun> {
  return runWithStdin([HOOKBOX, 'hook', 'claude-code', ...args], stdin);
}
