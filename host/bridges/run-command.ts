import { spawn } from 'node:child_process';

export interface RunCommandOptions {
  /** Working directory of the command (the session's cwd). */
  readonly cwd: string;
  /** Written to the command's stdin, then stdin is closed. */
  readonly input: string;
  /** Wall-clock limit; at the deadline the whole process group is killed. */
  readonly timeoutMs: number;
  /** Cap per stream (stdout, stderr); past it the process group is killed. */
  readonly maxOutputBytes: number;
  readonly env: NodeJS.ProcessEnv;
  /** Aborting it ends the call at once (the hook was closed): the process group is killed. */
  readonly signal?: AbortSignal;
}

/** How a command run ended. Never a thrown error: the command is untrusted. */
export type CommandRun =
  | { readonly type: 'exited'; readonly exitCode: number; readonly stdout: string; readonly stderr: string }
  | { readonly type: 'signalled'; readonly signal: string; readonly stderr: string }
  | { readonly type: 'timeout' }
  | { readonly type: 'too-large'; readonly stream: 'stdout' | 'stderr' }
  | { readonly type: 'spawn-error'; readonly message: string }
  | { readonly type: 'cancelled' };

/** After the shell exits, how long its streams may stay open (a backgrounded child holding them). */
const CLOSE_GRACE_MS = 200;

/**
 * Runs `sh -c command` in its own process group, with `input` on stdin. However
 * the call ends — an answer, a timeout, an output flood, a cancel — the whole
 * group is killed before the result is returned, so nothing the command put in
 * the background outlives the call. A child that leaves the group and the
 * session (`setsid`) escapes: once its parent exits nothing links it back to the
 * call without a cgroup or a PID namespace (docs/guides/migrating.md, "Shell hooks are not sandboxed").
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandRun> {
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('sh', ['-c', command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ type: 'spawn-error', message: (error as Error).message });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const size = { stdout: 0, stderr: 0 };
    let settled = false;
    let grace: NodeJS.Timeout | undefined;

    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const settle = (run: CommandRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      options.signal?.removeEventListener('abort', cancel);
      // Whatever the command left running in its group (`cmd &`, a daemonising child that kept the group).
      killGroup();
      resolve(run);
    };
    const cancel = (): void => settle({ type: 'cancelled' });
    const collect = (stream: 'stdout' | 'stderr', chunks: Buffer[]) => (chunk: Buffer) => {
      size[stream] += chunk.length;
      if (size[stream] > options.maxOutputBytes) {
        killGroup();
        settle({ type: 'too-large', stream });
        return;
      }
      chunks.push(chunk);
    };

    const timer = setTimeout(() => {
      killGroup();
      settle({ type: 'timeout' });
    }, options.timeoutMs);

    if (options.signal?.aborted === true) cancel();
    options.signal?.addEventListener('abort', cancel, { once: true });
    child.stdout?.on('data', collect('stdout', out));
    child.stderr?.on('data', collect('stderr', err));
    // A command that never reads stdin closes it early: EPIPE is not a failure of the hook.
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => {
      killGroup();
      settle({ type: 'spawn-error', message: error.message });
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === null) settle({ type: 'signalled', signal: signal ?? 'unknown', stderr });
      else settle({ type: 'exited', exitCode: code, stdout: Buffer.concat(out).toString('utf8'), stderr });
    };
    child.on('exit', (code, signal) => {
      grace = setTimeout(() => finish(code, signal), CLOSE_GRACE_MS);
    });
    child.on('close', finish);
    child.stdin?.end(options.input);
  });
}
