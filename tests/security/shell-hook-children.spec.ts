// Finding 7b: a shell hook's background children outlived the call. However a
// call ends — an answer, a timeout, the hook closed under it — its process group
// is killed. A child that starts its own session (`setsid`) still escapes; that
// limit is pinned here too, so the README cannot drift from what the code does.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellHook } from '../../host/bridges/index.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import type { PayloadOf, SessionInfo } from '../../host/seams/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { skipUnless } from '../helpers/skips.ts';
import { waitFor } from '../helpers/wait-for.ts';

let workspace: TestWorkspace;
let session: SessionInfo;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-shell-children-');
  session = { id: 'sess-1', turn: 1, step: 1, cwd: workspace.dir };
});
afterEach(() => workspace.dispose());

const preTool: PayloadOf<'tools/pre-execute'> = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } };
const ALLOW = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });

/** Whether `pid` exists (a zombie not yet reaped by init counts as existing: only ESRCH means gone). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Waits until `pid` is gone. A killed orphan is a zombie until init reaps it (here init reaps
 * every second or two), so this polls; the ceiling (10 s) is far below the child's own 30 s.
 */
async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (exists(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return !exists(pid);
}

function pidFile(): number {
  return Number(readFileSync(join(workspace.dir, 'bg.pid'), 'utf8'));
}

describe('shell hook children', () => {
  it('a background child (same process group) is killed when the call answers', async () => {
    const hook = shellHook({
      name: 'bg',
      command: `sleep 30 >/dev/null 2>&1 & echo $! > bg.pid; cat >/dev/null; printf '%s' '${ALLOW}'`,
      protocol: 'claude-code',
      seams: ['tools/pre-execute'],
    });
    const { decision, invocation } = await invokeListener(hook, 'tools/pre-execute', preTool, { action: 'ask' }, session);
    expect(invocation.outcome).toBe('decision');
    expect(decision).toEqual({ action: 'allow' });
    const pid = pidFile();
    expect(await gone(pid)).toBe(true);
  });

  it('closing the hook cancels a call in flight and kills its process group', async () => {
    const hook = shellHook({
      name: 'slow',
      command: 'sleep 30 >/dev/null 2>&1 & echo $! > bg.pid; sleep 30',
      protocol: 'claude-code',
      seams: ['tools/pre-execute'],
    });
    const call = invokeListener(hook, 'tools/pre-execute', preTool, { action: 'allow' }, session);
    // The pid file exists once `echo` opened it; wait until the pid is in it.
    await waitFor(() => existsSync(join(workspace.dir, 'bg.pid')) && !Number.isNaN(pidFile()) && pidFile() !== 0, 'the background pid in bg.pid', { everyMs: 20 });
    await hook.close();
    const { invocation, decision } = await call;
    expect(invocation.fault).toEqual({ kind: 'load', message: expect.stringContaining('the hook was closed during the call') });
    expect(decision).toMatchObject({ action: 'deny' });
    expect(await gone(pidFile())).toBe(true);
  });

  const hasSetsid = (() => {
    try {
      execFileSync('sh', ['-c', 'command -v setsid'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(skipUnless('shell hooks: a child that starts its own session', hasSetsid ? undefined : 'setsid(1) is missing'))('known limit (skipped when setsid(1) is missing): a child that starts its own session escapes', async () => {
    const hook = shellHook({
      name: 'daemon',
      command: `setsid sh -c 'echo $$ > bg.pid; exec sleep 30' >/dev/null 2>&1 & cat >/dev/null; while [ ! -s bg.pid ]; do sleep 0.01; done; printf '%s' '${ALLOW}'`,
      protocol: 'claude-code',
      seams: ['tools/pre-execute'],
    });
    const { decision } = await invokeListener(hook, 'tools/pre-execute', preTool, { action: 'ask' }, session);
    expect(decision).toEqual({ action: 'allow' });
    const pid = pidFile();
    try {
      // Give a (hypothetical) reaper the same chance as above; the escaped child is still there.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(exists(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});
