import { spawn } from 'node:child_process';
import * as z from 'zod';
import type { Tool } from '../loop/tool.ts';
import type { ToolResult } from '../seams/index.ts';

export const BashArgumentsSchema = z.strictObject({
  command: z.string().min(1).describe('The shell command to run (bash -c) in the session working directory.'),
  timeoutMs: z.number().int().positive().max(600_000).optional().describe('Kill the command after this long.'),
});
export type BashArguments = z.infer<typeof BashArgumentsSchema>;

export interface BashToolOptions {
  readonly defaultTimeoutMs?: number;
  /** Output kept per call (stdout and stderr interleaved); the rest is dropped with a marker. */
  readonly maxOutputBytes?: number;
  /**
   * Variables added to hookbox's environment for each command, read at each
   * call (what the session's `CLAUDE_ENV_FILE` hooks exported so far).
   */
  readonly env?: () => Readonly<Record<string, string>>;
}

/**
 * Runs a command with bash in the session's working directory, in its own
 * process group so a timeout kills everything it started. The result ends
 * with `exit code: N`; a non-zero exit or a timeout is an error result.
 */
export function bashTool(options: BashToolOptions = {}): Tool<BashArguments> {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
  const maxOutputBytes = options.maxOutputBytes ?? 64 * 1024;
  return {
    name: 'bash',
    description: 'Run a shell command in the working directory. Output is stdout and stderr, then the exit code.',
    arguments: BashArgumentsSchema,
    run: (args, context) =>
      new Promise<ToolResult>((resolve, reject) => {
        const child = spawn('bash', ['-c', args.command], {
          cwd: context.cwd,
          ...(options.env !== undefined && { env: { ...process.env, ...options.env() } }),
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const chunks: Buffer[] = [];
        let kept = 0;
        let dropped = 0;
        const collect = (chunk: Buffer): void => {
          const room = maxOutputBytes - kept;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
          dropped += Math.max(0, chunk.length - Math.max(room, 0));
        };
        child.stdout.on('data', collect);
        child.stderr.on('data', collect);

        let timedOut = false;
        const killGroup = (): void => {
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        };
        const timeoutMs = args.timeoutMs ?? defaultTimeoutMs;
        const timer = setTimeout(() => {
          timedOut = true;
          killGroup();
        }, timeoutMs);
        const onAbort = (): void => killGroup();
        context.signal.addEventListener('abort', onAbort, { once: true });

        child.on('error', (error) => {
          clearTimeout(timer);
          context.signal.removeEventListener('abort', onAbort);
          reject(error);
        });
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          context.signal.removeEventListener('abort', onAbort);
          let output = Buffer.concat(chunks).toString('utf8');
          if (dropped > 0) output += `\n[${dropped} bytes of output dropped]`;
          if (output !== '' && !output.endsWith('\n')) output += '\n';
          if (timedOut) {
            resolve({ content: `${output}timed out after ${timeoutMs} ms\nexit code: 124`, isError: true });
            return;
          }
          const exitCode = code ?? (signal === null ? 1 : 128);
          resolve({ content: `${output}exit code: ${exitCode}`, isError: exitCode !== 0 });
        });
      }),
  };
}
