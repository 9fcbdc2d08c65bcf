/**
 * `decideInProcess` (`hookbox hook <agent>` with no server): a body that is
 * not JSON is answered closed for the event it names (read from the body,
 * or from the command line for an agent whose events carry no name); a
 * real event is decided by the config's hooks with the session's state read
 * back from its log, the continuation cap as given. Real config files and
 * real shell hooks (Claude Code's protocol) in a temp folder.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeBridge, copilotBridge } from '../../host/agents/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { decideInProcess } from '../../host/serve/index.ts';
import { claudeEvent, preBash } from '../helpers/claude-events.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-in-process-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What JSON.parse says of `body`, as the answer quotes it. */
function parseError(body: string): string {
  try {
    JSON.parse(body);
  } catch (error) {
    return `stdin is not JSON (${(error as Error).message})`;
  }
  throw new Error('the body parsed');
}
/** A config of one shell hook speaking Claude Code's protocol on `seams`, which exits 2 with `reason` on stderr. */
function blockingConfig(seams: readonly string[], reason: string): string {
  const file = path.join(dir, 'hookbox.config.json');
  writeFileSync(file, JSON.stringify({ hooks: [{ name: 'blocker', command: `echo '${reason}' >&2; exit 2`, protocol: 'claude-code', unsandboxed: true, seams }] }));
  return file;
}
const missingConfig = () => path.join(dir, 'no-such-config.json');

describe('a body that is not JSON', () => {
  it('is answered closed for the event its text names, when the name can be read', async () => {
    const bodies = ['{"hook_event_name" : "PreToolUse", "tool_name":', '{"hook_event_name":"UserPromptSubmit",', `{"hook_event_name":"${'A'.repeat(41)}",`, '{"hook_event_name":"Pre2ToolUse",', 'not json'];
    const answers = await Promise.all(bodies.map((body) => decideInProcess('claude-code', missingConfig(), body)));
    expect(answers).toStrictEqual([
      claudeCodeBridge.failClosed('PreToolUse', parseError(bodies[0]!)),
      claudeCodeBridge.failClosed('UserPromptSubmit', parseError(bodies[1]!)),
      claudeCodeBridge.failClosed(undefined, parseError(bodies[2]!)),
      claudeCodeBridge.failClosed(undefined, parseError(bodies[3]!)),
      claudeCodeBridge.failClosed(undefined, parseError(bodies[4]!)),
    ]);
    // The three kinds of answer differ: the event name matters.
    expect(new Set(answers.slice(0, 3).map((answer) => JSON.stringify(answer))).size).toBe(3);
  });

  it('an agent whose events carry no name is answered for the event its command line names', async () => {
    const body = '{"hook_event_name":"UserPromptSubmit", "toolName":';
    expect(await decideInProcess('copilot', missingConfig(), body, 3, 'preToolUse')).toStrictEqual(copilotBridge.failClosed('preToolUse', parseError(body)));
    expect(await decideInProcess('copilot', missingConfig(), body)).toStrictEqual(copilotBridge.failClosed(undefined, parseError(body)));
  });
});

describe('a real event', () => {
  it("is decided by the config's hooks, in the session log under its cwd, read back on the next call", async () => {
    const config = blockingConfig(['tools/pre-execute'], 'not that command');
    const first = await decideInProcess('claude-code', config, preBash(dir, 's1', 'rm -rf build', 'toolu_1'));
    expect({ ...first, stdout: JSON.parse(first.stdout) as unknown }).toStrictEqual({
      exitCode: 0,
      stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not that command' } },
      stderr: '',
    });
    await decideInProcess('claude-code', config, preBash(dir, 's1', 'rm -rf dist', 'toolu_2'));
    const events = readSessionLog(path.join(dir, '.hookbox', 'sessions', 'claude-code-s1.jsonl')).events;
    expect(events.filter((event) => event.type === 'tool/call').map((event) => [event.turn, event.step, event.toolCallId])).toStrictEqual([
      [1, 1, 'toolu_1'],
      [1, 2, 'toolu_2'],
    ]);
    expect(events.filter((event) => event.type === 'session/start')).toHaveLength(1);
  });

  it('closes what it opened: the session log and the hooks leave no file open', async () => {
    const config = blockingConfig(['tools/pre-execute'], 'no');
    const open = () => readdirSync('/proc/self/fd').length;
    await decideInProcess('claude-code', config, preBash(dir, 's3', 'ls', 'toolu_1'));
    const before = open();
    await decideInProcess('claude-code', config, preBash(dir, 's3', 'ls', 'toolu_2'));
    await decideInProcess('claude-code', config, preBash(dir, 's4', 'ls', 'toolu_3'));
    expect(open()).toBe(before);
  });

  it('an agent whose events carry no name is decided as the event its command line names', async () => {
    const config = blockingConfig(['tools/pre-execute'], 'no bash here');
    const body = JSON.stringify(copilotBridge.probe.event(dir));
    const named = await decideInProcess('copilot', config, body, 3, 'preToolUse');
    expect(named.stdout).toContain('no bash here');
    expect(await decideInProcess('copilot', config, body)).toStrictEqual({ exitCode: 2, stdout: '', stderr: expect.stringMatching(/^hookbox: /) as unknown });
  });

  it('a hook that keeps the turn going is capped at the continuations given, by default 3', async () => {
    const config = blockingConfig(['agent/turn-continuation'], 'keep going');
    const stop = (active: boolean) => claudeEvent(dir, 's2', { hook_event_name: 'Stop', stop_hook_active: active, last_assistant_message: 'done' });
    const continued = { exitCode: 0, stdout: `${JSON.stringify({ decision: 'block', reason: 'keep going' })}\n`, stderr: '' };
    const stopped = claudeCodeBridge.failClosed('Stop', 'let through');
    expect(await decideInProcess('claude-code', config, stop(false), 0)).toStrictEqual(stopped);
    const answers = [];
    answers.push(await decideInProcess('claude-code', config, stop(false)));
    for (let i = 0; i < 3; i += 1) answers.push(await decideInProcess('claude-code', config, stop(true)));
    expect(answers).toStrictEqual([continued, continued, continued, stopped]);
  });
});
