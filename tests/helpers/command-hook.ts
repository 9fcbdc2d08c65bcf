import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOOKBOX = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

/**
 * Runs `hookbox hook claude-code <args>` (the command hook Claude Code runs
 * per event) with `stdin`, and collects its exit code and output.
 */
export function runCommandHook(args: readonly string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOOKBOX, 'hook', 'claude-code', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
