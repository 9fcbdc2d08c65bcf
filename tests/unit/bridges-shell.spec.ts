import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { protocolInput, shellHook } from '../../host/bridges/index.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import type { PayloadOf, SessionInfo } from '../../host/seams/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
let session: SessionInfo;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-shell-hook-');
  session = { id: 'sess-1', turn: 1, step: 1, cwd: workspace.dir };
});
afterEach(() => workspace.dispose());

const preTool: PayloadOf<'tools/pre-execute'> = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf /' } };

function pre(command: string, options: { timeoutMs?: number; maxOutputBytes?: number } = {}) {
  const hook = shellHook({ name: 'sh', command, protocol: 'claude-code', seams: ['tools/pre-execute'], ...options });
  return invokeListener(hook, 'tools/pre-execute', preTool, { action: 'allow' }, session);
}

/**
 * Whether a process still exists: `kill(pid, 0)` works everywhere (no /proc
 * needed) and fails with ESRCH once it is gone. A zombie waiting for its
 * reaper still answers signal 0, so where /proc exists a zombie counts as gone.
 */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('shellHook', () => {
  it('hands the command the protocol JSON on stdin, in the session cwd, with CLAUDE_PROJECT_DIR set; exit 2 denies with stderr', async () => {
    const { invocation, decision } = await pre('cat > input.json; echo "$PWD|$CLAUDE_PROJECT_DIR" > where.txt; echo "no rm -rf here" >&2; exit 2');
    expect(decision).toEqual({ action: 'deny', reason: 'no rm -rf here' });
    expect(invocation).toMatchObject({ sandbox: 'shell', outcome: 'decision', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const input = JSON.parse(readFileSync(join(workspace.dir, 'input.json'), 'utf8'));
    expect(input).toEqual(protocolInput('claude-code', { seam: 'tools/pre-execute', payload: preTool, next: { action: 'allow' }, session }));
    expect(input).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    expect(readFileSync(join(workspace.dir, 'where.txt'), 'utf8').trim()).toBe(`${workspace.dir}|${workspace.dir}`);
  });

  it('JSON on stdout with exit 0 is the decision', async () => {
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'sure?' } });
    const { decision } = await pre(`cat > /dev/null; printf '%s' '${json}'`);
    expect(decision).toEqual({ action: 'ask', reason: 'sure?' });
  });

  it('a timeout kills the whole process group and is a timeout fault (pre-tool: ask)', async () => {
    const started = performance.now();
    const { invocation, decision } = await pre('sleep 30 & echo $! > bg.pid; sleep 30', { timeoutMs: 300 });
    // Killed, not waited for: well under the 30 s sleep, with room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(invocation.fault).toEqual({ kind: 'timeout', message: expect.stringContaining('no answer within 300 ms') });
    expect(decision).toMatchObject({ action: 'ask' });
    const pid = Number(readFileSync(join(workspace.dir, 'bg.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    const deadline = Date.now() + 3000;
    while (running(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running(pid)).toBe(false);
  });

  it('output past the cap kills the command: output-too-large, deny', async () => {
    const { invocation, decision } = await pre('yes allow | head -c 200000', { maxOutputBytes: 1000 });
    expect(invocation.fault).toMatchObject({ kind: 'output-too-large', message: expect.stringContaining('stdout passed 1000 bytes') });
    expect(decision).toMatchObject({ action: 'deny' });
  });

  it('a command killed by a signal is a plugin-error; one that cannot start is a load fault', async () => {
    const killed = await pre('kill -9 $$');
    expect(killed.invocation.fault).toMatchObject({ kind: 'plugin-error', message: expect.stringContaining('killed by SIGKILL') });
    session = { ...session, cwd: join(workspace.dir, 'no-such-dir') };
    const missing = await pre('true');
    expect(missing.invocation.fault?.kind).toBe('load');
    expect(missing.decision).toMatchObject({ action: 'deny' });
  });

  it('a command that never reads a large stdin is fine (no EPIPE fault)', async () => {
    const hook = shellHook({ name: 'sh', command: 'exit 0', protocol: 'claude-code', seams: ['agent/prompt-submit'] });
    const { invocation } = await invokeListener(hook, 'agent/prompt-submit', { content: 'x'.repeat(2_000_000), source: 'cli' }, { action: 'allow' }, session);
    expect(invocation.outcome).toBe('no-opinion');
  });

  it('sources narrow a session-start hook (a SessionStart matcher): other sources do not run it', async () => {
    const hook = shellHook({ name: 'sh', command: 'touch ran; echo hello', protocol: 'claude-code', seams: ['agent/session-start'], sources: ['resume'] });
    const startup = await invokeListener(hook, 'agent/session-start', { source: 'startup' }, null, session);
    expect(startup.invocation.outcome).toBe('no-opinion');
    expect(existsSync(join(workspace.dir, 'ran'))).toBe(false);
    const resume = await invokeListener(hook, 'agent/session-start', { source: 'resume' }, null, session);
    expect(resume.decision).toEqual({ additionalContext: 'hello' });
    expect(existsSync(join(workspace.dir, 'ran'))).toBe(true);
  });

  it('a codex hook reads Codex input (model, turn_id) and needs a reason on exit 2', async () => {
    const hook = shellHook({ name: 'sh', command: 'cat > input.json; exit 2', protocol: 'codex', seams: ['tools/pre-execute'] });
    const { invocation, decision } = await invokeListener(hook, 'tools/pre-execute', preTool, { action: 'allow' }, session);
    expect(invocation.fault).toMatchObject({ kind: 'plugin-error', message: expect.stringContaining('no reason to stderr') });
    expect(decision).toMatchObject({ action: 'deny' });
    expect(JSON.parse(readFileSync(join(workspace.dir, 'input.json'), 'utf8'))).toMatchObject({ model: 'hookbox', turn_id: 'turn-1', tool_name: 'Bash' });
  });
});
