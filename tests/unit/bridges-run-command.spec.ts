/**
 * `runCommand` (host/bridges/run-command.ts) on its own, with real `sh`
 * children: what a run returns for each way it can end (an exit, a signal, the
 * deadline, an output flood, a start that fails, a cancel), that the cap is per
 * stream and inclusive, that the environment is exactly the one given, and that
 * whatever the command left in its process group is killed however the run ended.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunCommandOptions, runCommand } from '../../host/bridges/run-command.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { waitFor } from '../helpers/wait-for.ts';

let workspace: TestWorkspace;
let options: RunCommandOptions;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-run-command-');
  // Generous: only the timeout test is about the deadline.
  options = { cwd: workspace.dir, input: '', timeoutMs: 60_000, maxOutputBytes: 1000, env: { PATH: process.env.PATH } };
});
afterEach(() => workspace.dispose());

/** Whether a process is gone: ESRCH, or (where /proc exists) a zombie waiting for its reaper. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits (up to 10 s, far below the children's own 30 s) for the background child to be gone. */
async function killed(pid: number): Promise<boolean> {
  expect(pid).toBeGreaterThan(0);
  const deadline = Date.now() + 10_000;
  while (!gone(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return gone(pid);
}

const bgPid = (): number => Number(readFileSync(join(workspace.dir, 'bg.pid'), 'utf8'));

describe('runCommand', () => {
  it('runs `sh -c` in the cwd with exactly the env given and the input on stdin, and returns the exit code and both streams', async () => {
    const run = await runCommand('cat; pwd; echo "$GREETING ${HOME-no home}"; echo warn >&2; exit 3', {
      ...options,
      input: 'line one\nline two\n',
      env: { PATH: process.env.PATH, GREETING: 'hi' },
    });
    expect(run).toStrictEqual({ type: 'exited', exitCode: 3, stdout: `line one\nline two\n${realpathSync(workspace.dir)}\nhi no home\n`, stderr: 'warn\n' });
  });

  it('a command that never reads a large input exits normally (the closed stdin is not a failure)', async () => {
    const run = await runCommand('exit 0', { ...options, input: 'x'.repeat(2_000_000) });
    expect(run).toStrictEqual({ type: 'exited', exitCode: 0, stdout: '', stderr: '' });
  });

  it('the output cap is per stream and inclusive: exactly the cap passes, one byte more is too large', async () => {
    const atCap = await runCommand('printf 12345; printf abcde >&2', { ...options, maxOutputBytes: 5 });
    expect(atCap).toStrictEqual({ type: 'exited', exitCode: 0, stdout: '12345', stderr: 'abcde' });
    expect(await runCommand('printf 12345', { ...options, maxOutputBytes: 4 })).toStrictEqual({ type: 'too-large', stream: 'stdout' });
    expect(await runCommand('printf abcde >&2', { ...options, maxOutputBytes: 4 })).toStrictEqual({ type: 'too-large', stream: 'stderr' });
  });

  it('an endless flood is stopped at the cap: the group is killed and the run is too-large', async () => {
    const run = await runCommand('sleep 30 >/dev/null 2>&1 & echo $! > bg.pid; yes flood', options);
    expect(run).toStrictEqual({ type: 'too-large', stream: 'stdout' });
    expect(await killed(bgPid())).toBe(true);
  });

  it('at the deadline the whole group is killed and the run is a timeout', async () => {
    const run = await runCommand('sleep 30 >/dev/null 2>&1 & echo $! > bg.pid; sleep 30', { ...options, timeoutMs: 300 });
    expect(run).toStrictEqual({ type: 'timeout' });
    expect(await killed(bgPid())).toBe(true);
  });

  it('a shell killed by a signal is signalled, with its stderr (stdout is not kept)', async () => {
    const run = await runCommand('echo out; echo bye >&2; kill -TERM $$', options);
    expect(run).toStrictEqual({ type: 'signalled', signal: 'SIGTERM', stderr: 'bye\n' });
  });

  it('after an answer, a background child is killed with the group', async () => {
    const run = await runCommand('sleep 30 >/dev/null 2>&1 & echo $!', options);
    expect(run).toStrictEqual({ type: 'exited', exitCode: 0, stdout: expect.stringMatching(/^\d+\n$/), stderr: '' });
    const pid = Number((run as { stdout: string }).stdout);
    expect(await killed(pid)).toBe(true);
  });

  it('a background child that keeps stdout open does not hold the answer: the exit is taken after a short grace, and the child is killed before it finishes', async () => {
    // Without the grace the run would wait for `close`, i.e. for the child to end on its own and write late.txt.
    const run = await runCommand('(sleep 10; echo late > late.txt) & echo $!; echo note >&2', options);
    expect(run).toStrictEqual({ type: 'exited', exitCode: 0, stdout: expect.stringMatching(/^\d+\n$/), stderr: 'note\n' });
    const pid = Number((run as { stdout: string }).stdout);
    expect(await killed(pid)).toBe(true);
    expect(existsSync(join(workspace.dir, 'late.txt'))).toBe(false);
  });

  it('the group is killed with SIGKILL: a background child that ignores SIGTERM dies too', async () => {
    const run = await runCommand("(trap '' TERM; exec sleep 30) >/dev/null 2>&1 & echo $!", options);
    expect(run).toStrictEqual({ type: 'exited', exitCode: 0, stdout: expect.stringMatching(/^\d+\n$/), stderr: '' });
    expect(await killed(Number((run as { stdout: string }).stdout))).toBe(true);
  });

  it('a shell that cannot start is a spawn-error with the reason, whether the start fails at once or later', async () => {
    expect(await runCommand('true', { ...options, cwd: join(workspace.dir, 'no-such-dir') })).toStrictEqual({ type: 'spawn-error', message: 'spawn sh ENOENT' });
    // Node refuses a NUL byte in an argument before it starts anything (a throw, not an `error` event).
    expect(await runCommand('echo a\0b', options)).toStrictEqual({ type: 'spawn-error', message: expect.stringMatching(/without null bytes/) });
  });

  it('a signal aborted before the start cancels the run', async () => {
    const run = await runCommand('exit 0', { ...options, signal: AbortSignal.abort() });
    expect(run).toStrictEqual({ type: 'cancelled' });
  });

  it('aborting during the run cancels it at once and kills the group', async () => {
    const controller = new AbortController();
    const run = runCommand('sleep 30 >/dev/null 2>&1 & echo $! > bg.pid; sleep 30', { ...options, signal: controller.signal });
    await waitFor(() => existsSync(join(workspace.dir, 'bg.pid')) && bgPid() > 0, 'the background pid in bg.pid', { everyMs: 20 });
    controller.abort();
    expect(await run).toStrictEqual({ type: 'cancelled' });
    expect(await killed(bgPid())).toBe(true);
  });
});
