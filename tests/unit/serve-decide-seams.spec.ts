/**
 * `decideAgentEvent` seam by seam: what the agent is answered, the word for
 * the request log and what the session log records, for each seam's step
 * and the server's adjustments (a rewrite the agent cannot take, the
 * continuation cap, a synthesized session-start). A scripted bridge (the
 * `DecidingBridge` an in-process SDK adapter implements) hands the test's
 * seam calls through and writes each decision back whole, so every answer
 * is compared whole; a real SeamBus, native hook, session table and log.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentSeamEvent, ParsedAgentEvent } from '../../host/agents/index.ts';
import { NO_OPINION, type NativeHandlers, SeamBus } from '../../host/events/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { CONTINUE_REASON, continuationCapReason, deniedCallText, withheldResultText } from '../../host/loop/reactions.ts';
import type { PayloadOf, SeamId } from '../../host/seams/index.ts';
import { type DeciderOptions, type DecidingBridge, SessionTable, decideAgentEvent } from '../../host/serve/index.ts';
import { type ScriptedCall, scriptedHook } from '../helpers/scripted-hook.ts';

const SESSION = 's1';
const CWD = '/work/project';
const EVENT_NAMES: { readonly [S in SeamId]: string } = {
  'agent/session-start': 'SessionStart',
  'agent/prompt-submit': 'UserPromptSubmit',
  'tools/pre-execute': 'PreToolUse',
  'tools/post-execute': 'PostToolUse',
  'agent/turn-continuation': 'Stop',
  'tools/permission-request': 'PermissionRequest',
  'agent/subagent-start': 'SubagentStart',
  'agent/subagent-stop': 'SubagentStop',
  'agent/notification': 'Notification',
  'agent/pre-compact': 'PreCompact',
  'agent/session-end': 'SessionEnd',
};

/** A bridge that takes the test's parsed event as its input and writes the decision back as JSON. */
function scripted(canReplace: DecidingBridge['canReplace'] = { prompt: true, toolResult: true }): DecidingBridge {
  return {
    name: 'scripted',
    label: 'Scripted Agent',
    canReplace,
    toSeam: (input) => input as ParsedAgentEvent,
    answer: (event, decision) => answered(event.event, decision),
    failClosed: (event, reason) => refused(event, reason),
  };
}
/** The decision written back whole: a field set to `undefined` is shown, not dropped (a bridge may test for the key). */
const answered = (event: string, decision: unknown) => ({ exitCode: 0 as const, stdout: JSON.stringify({ event, decision }, (_key, value: unknown) => (value === undefined ? '(undefined)' : value)), stderr: '' });
const refused = (event: string | undefined, reason: string) => ({ exitCode: 2 as const, stdout: '', stderr: JSON.stringify({ event: event ?? null, reason }) });

function call<S extends SeamId>(seam: S, payload: PayloadOf<S>, extra: { readonly alreadyContinued?: boolean; readonly sessionId?: string } = {}): AgentSeamEvent<S> {
  return { event: EVENT_NAMES[seam], sessionId: SESSION, cwd: CWD, seam, payload, ...extra };
}
const seamEvent = (event: AgentSeamEvent, more?: readonly AgentSeamEvent[]): ParsedAgentEvent => ({ kind: 'seam', event, ...(more !== undefined && { more }) });
const prompt = (content: string) => seamEvent(call('agent/prompt-submit', { content, source: 'cli' }));
const pre = (toolCallId: string, toolName = 'bash', args: Record<string, unknown> = { command: 'ls' }) => call('tools/pre-execute', { toolCallId, toolName, arguments: args });
const post = (toolCallId: string, content: string, toolName = 'bash') =>
  call('tools/post-execute', { toolCallId, toolName, arguments: { command: 'ls' }, result: { content, isError: false } });
const stop = (alreadyContinued?: boolean) => seamEvent(call('agent/turn-continuation', { continuations: 0 }, alreadyContinued === undefined ? {} : { alreadyContinued }));

let logDir: string;
let sessions: SessionTable;
/** What the test's hook answers, per seam; a seam not set has no opinion. */
let handlers: NativeHandlers;
/** Each hook call: its seam, payload and the session info it was given. */
let seen: ScriptedCall[];
let options: DeciderOptions;

beforeEach(() => {
  logDir = mkdtempSync(path.join(tmpdir(), 'hookbox-decide-seams-'));
  sessions = new SessionTable({ maxSessions: 4, idleMs: 60_000, logDir });
  handlers = {};
  seen = [];
  const bus = new SeamBus();
  bus.use(scriptedHook(() => handlers, seen));
  options = { bus, sessions, maxContinuations: 2 };
});
afterEach(() => {
  sessions.closeAll();
  rmSync(logDir, { recursive: true, force: true });
});

const decide = (input: ParsedAgentEvent, bridge = scripted(), extra: Partial<DeciderOptions> = {}) => decideAgentEvent(bridge, input, { ...options, ...extra });

/** The session log, without its clock fields (`at`, `durationUs`). */
function logged(sessionId = SESSION): Record<string, unknown>[] {
  return readSessionLog(path.join(logDir, `scripted-${sessionId}.jsonl`)).events.map((event) =>
    Object.fromEntries(Object.entries(event).filter(([key]) => key !== 'at' && key !== 'durationUs')),
  );
}
/** The hook/invoke line the script hook leaves for one decision. */
function invoked(seam: SeamId, decision: unknown, where?: { turn: number; step: number }): Record<string, unknown> {
  const outcome = decision === undefined ? { outcome: 'no-opinion', applied: null } : { outcome: 'decision', decision, applied: decision };
  return { type: 'hook/invoke', ...where, hook: 'script', seam, ...outcome };
}
const started = (source = 'startup') => ({ type: 'session/start', sessionId: SESSION, cwd: CWD, source });
/** The log lines other than hook invocations. */
const story = () => logged().filter((event) => event.type !== 'hook/invoke');
const session = () => sessions.acquire('scripted', SESSION, CWD, 'startup').session;

describe('events that reach no seam', () => {
  it('an invalid event is answered closed, with its event name when it has one', async () => {
    expect(await decide({ kind: 'invalid', event: 'PreToolUse', message: 'tool_input: expected an object' })).toStrictEqual({
      answer: refused('PreToolUse', 'tool_input: expected an object'),
      event: 'PreToolUse',
      decision: 'invalid',
    });
    expect(await decide({ kind: 'invalid', message: 'expected an object' })).toStrictEqual({ answer: refused(undefined, 'expected an object'), decision: 'invalid' });
    expect(sessions.size).toBe(0);
  });

  it('a passed event is answered with its own answer, with its session id when it has one', async () => {
    const answer = { exitCode: 0 as const, stdout: '{}', stderr: '' };
    expect(await decide({ kind: 'pass', event: 'Notification', sessionId: 's9', answer })).toStrictEqual({ answer, event: 'Notification', sessionId: 's9', decision: 'pass' });
    expect(await decide({ kind: 'pass', event: 'Notification', answer })).toStrictEqual({ answer, event: 'Notification', decision: 'pass' });
    expect(seen).toStrictEqual([]);
  });
});

describe('agent/session-start', () => {
  it('a new session logs the source the agent gave; context waits for the first turn', async () => {
    handlers['agent/session-start'] = () => ({ additionalContext: 'house rules' });
    const decided = await decide(seamEvent(call('agent/session-start', { source: 'resume' })));
    expect(decided).toStrictEqual({ answer: answered('SessionStart', { additionalContext: 'house rules' }), event: 'SessionStart', sessionId: SESSION, decision: 'context' });
    expect(seen.map((hook) => hook.seam)).toStrictEqual(['agent/session-start']);
    await decide(prompt('hello'));
    expect(logged()).toStrictEqual([
      started('resume'),
      invoked('agent/session-start', { additionalContext: 'house rules' }),
      { type: 'turn/start', turn: 1 },
      { type: 'context/message', turn: 1, content: 'house rules', source: 'session-start' },
      invoked('agent/prompt-submit', undefined, { turn: 1, step: 0 }),
      { type: 'user/message', turn: 1, content: 'hello' },
    ]);
  });

  it('no context: the word is none, and the first turn gets none', async () => {
    expect((await decide(seamEvent(call('agent/session-start', { source: 'startup' })))).decision).toBe('none');
    expect(story()).toStrictEqual([started()]);
    await decide(prompt('hello'));
    expect(story()).toStrictEqual([started(), { type: 'turn/start', turn: 1 }, { type: 'user/message', turn: 1, content: 'hello' }]);
  });

  it('a session-start inside an open turn, or after one, is logged again with its source', async () => {
    await decide(prompt('one'));
    await decide(seamEvent(call('agent/session-start', { source: 'clear' })));
    await decide(stop());
    await decide(seamEvent(call('agent/session-start', { source: 'compact' })));
    expect(story()).toStrictEqual([
      started(),
      { type: 'turn/start', turn: 1 },
      { type: 'user/message', turn: 1, content: 'one' },
      started('clear'),
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 0 },
      started('compact'),
    ]);
  });
});

describe('a session whose first event is not session-start', () => {
  it('session-start is fired first; its context joins the first prompt, once', async () => {
    handlers['agent/session-start'] = () => ({ additionalContext: 'from start' });
    handlers['agent/prompt-submit'] = () => ({ action: 'allow', additionalContext: 'from prompt' });
    const first = await decide(prompt('hi'));
    expect(first).toStrictEqual({
      answer: answered('UserPromptSubmit', { action: 'allow', additionalContext: 'from start\n\nfrom prompt' }),
      event: 'UserPromptSubmit',
      sessionId: SESSION,
      decision: 'context',
    });
    expect(seen.map((hook) => [hook.seam, hook.payload])).toStrictEqual([
      ['agent/session-start', { source: 'startup' }],
      ['agent/prompt-submit', { content: 'hi', source: 'cli' }],
    ]);
    const second = await decide(prompt('again'));
    expect(second.answer).toStrictEqual(answered('UserPromptSubmit', { action: 'allow', additionalContext: 'from prompt' }));
    expect(seen.map((hook) => hook.seam)).toStrictEqual(['agent/session-start', 'agent/prompt-submit', 'agent/prompt-submit']);
    expect(logged()).toStrictEqual([
      started(),
      invoked('agent/session-start', { additionalContext: 'from start' }),
      { type: 'turn/start', turn: 1 },
      invoked('agent/prompt-submit', { action: 'allow', additionalContext: 'from prompt' }, { turn: 1, step: 0 }),
      { type: 'user/message', turn: 1, content: 'hi' },
      { type: 'context/message', turn: 1, content: 'from start\n\nfrom prompt', source: 'prompt-submit' },
      { type: 'turn/end', turn: 1, reason: 'cancelled', steps: 0, message: 'the agent started another turn without a Stop event' },
      { type: 'turn/start', turn: 2 },
      invoked('agent/prompt-submit', { action: 'allow', additionalContext: 'from prompt' }, { turn: 2, step: 0 }),
      { type: 'user/message', turn: 2, content: 'again' },
      { type: 'context/message', turn: 2, content: 'from prompt', source: 'prompt-submit' },
    ]);
  });

  it('a synthesized session-start with no context leaves the prompt as it was', async () => {
    expect(await decide(prompt('hi'))).toStrictEqual({ answer: answered('UserPromptSubmit', { action: 'allow' }), event: 'UserPromptSubmit', sessionId: SESSION, decision: 'allow' });
    expect(seen.map((hook) => hook.seam)).toStrictEqual(['agent/session-start', 'agent/prompt-submit']);
  });

  it('a session reopened from its log is not fresh: session-start is not fired again', async () => {
    await decide(prompt('one'));
    sessions.closeAll();
    seen.length = 0;
    await decide(prompt('two'));
    expect(seen.map((hook) => hook.seam)).toStrictEqual(['agent/prompt-submit']);
  });
});

describe('agent/prompt-submit', () => {
  it('a block ends the turn as rejected and records the prompt', async () => {
    handlers['agent/prompt-submit'] = () => ({ action: 'block', reason: 'no secrets' });
    expect(await decide(prompt('the key is x'))).toStrictEqual({
      answer: answered('UserPromptSubmit', { action: 'block', reason: 'no secrets' }),
      event: 'UserPromptSubmit',
      sessionId: SESSION,
      decision: 'block',
    });
    expect(story()).toStrictEqual([
      started(),
      { type: 'turn/start', turn: 1 },
      { type: 'prompt/blocked', turn: 1, reason: 'no secrets', content: 'the key is x' },
      { type: 'turn/end', turn: 1, reason: 'rejected', steps: 0, message: 'no secrets' },
    ]);
  });

  it('a rewrite an agent cannot take becomes a block naming the agent and the rewrite', async () => {
    handlers['agent/prompt-submit'] = () => ({ action: 'allow', content: 'safer prompt' });
    const reason = 'a hookbox hook rewrote this prompt and Scripted Agent cannot take a rewritten prompt, so it was not sent. The rewritten prompt: safer prompt';
    expect((await decide(prompt('raw prompt'), scripted({ prompt: false, toolResult: true }))).answer).toStrictEqual(answered('UserPromptSubmit', { action: 'block', reason }));
    expect(story().slice(2)).toStrictEqual([
      { type: 'prompt/blocked', turn: 1, reason, content: 'raw prompt' },
      { type: 'turn/end', turn: 1, reason: 'rejected', steps: 0, message: reason },
    ]);
  });

  it('a rewrite an agent can take goes through; a "rewrite" to the same text is no rewrite', async () => {
    handlers['agent/prompt-submit'] = () => ({ action: 'allow', content: 'safer prompt' });
    expect(await decide(prompt('raw prompt'))).toStrictEqual({
      answer: answered('UserPromptSubmit', { action: 'allow', content: 'safer prompt' }),
      event: 'UserPromptSubmit',
      sessionId: SESSION,
      decision: 'allow',
    });
    handlers['agent/prompt-submit'] = (payload) => ({ action: 'allow', content: payload.content });
    expect((await decide(prompt('same text'), scripted({ prompt: false, toolResult: true }))).answer).toStrictEqual(
      answered('UserPromptSubmit', { action: 'allow', content: 'same text' }),
    );
    handlers['agent/prompt-submit'] = () => ({ action: 'allow' });
    expect((await decide(prompt('plain'), scripted({ prompt: false, toolResult: true }))).answer).toStrictEqual(answered('UserPromptSubmit', { action: 'allow' }));
  });
});

describe('tools/pre-execute and tools/post-execute', () => {
  it('a call and its result share a step; a second call in the turn takes the next step, in the same turn', async () => {
    await decide(prompt('go'));
    expect(await decide(seamEvent(pre('c1')))).toStrictEqual({ answer: answered('PreToolUse', { action: 'allow' }), event: 'PreToolUse', sessionId: SESSION, decision: 'allow' });
    expect(await decide(seamEvent(pre('c2', 'read_file', { path: 'a.md' })))).toMatchObject({ decision: 'allow' });
    expect(await decide(seamEvent(post('c1', 'out 1')))).toStrictEqual({ answer: answered('PostToolUse', { action: 'accept' }), event: 'PostToolUse', sessionId: SESSION, decision: 'accept' });
    expect(seen.filter((hook) => hook.seam !== 'agent/session-start').map((hook) => hook.session)).toStrictEqual([
      { id: SESSION, turn: 1, step: 0, cwd: CWD },
      { id: SESSION, turn: 1, step: 1, cwd: CWD },
      { id: SESSION, turn: 1, step: 2, cwd: CWD },
      { id: SESSION, turn: 1, step: 2, cwd: CWD },
    ]);
    expect(story().slice(3)).toStrictEqual([
      { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
      { type: 'tool/call', turn: 1, step: 2, toolCallId: 'c2', toolName: 'read_file', arguments: { path: 'a.md' } },
      { type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', content: 'out 1', isError: false },
    ]);
    // c1's result was taken: a second result for it is a call hookbox did not see.
    await decide(seamEvent(post('c1', 'out again')));
    expect(story().slice(6)).toStrictEqual([
      { type: 'tool/call', turn: 1, step: 3, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
      { type: 'tool/result', turn: 1, step: 3, toolCallId: 'c1', toolName: 'bash', content: 'out again', isError: false },
    ]);
  });

  it('a tool call with no prompt first opens a turn; the hook invocation is logged in it', async () => {
    handlers['tools/pre-execute'] = () => ({ action: 'ask', reason: 'sure?' });
    expect(await decide(seamEvent(pre('c1')))).toStrictEqual({ answer: answered('PreToolUse', { action: 'ask', reason: 'sure?' }), event: 'PreToolUse', sessionId: SESSION, decision: 'ask' });
    expect(logged()).toStrictEqual([
      started(),
      invoked('agent/session-start', undefined),
      { type: 'turn/start', turn: 1 },
      { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
      invoked('tools/pre-execute', { action: 'ask', reason: 'sure?' }, { turn: 1, step: 1 }),
    ]);
  });

  it('a denied call is logged with its denial as its result, and is not waited for', async () => {
    handlers['tools/pre-execute'] = () => ({ action: 'deny', reason: 'not here' });
    expect(await decide(seamEvent(pre('c1')))).toStrictEqual({ answer: answered('PreToolUse', { action: 'deny', reason: 'not here' }), event: 'PreToolUse', sessionId: SESSION, decision: 'deny' });
    await decide(seamEvent(post('c1', 'ran anyway')));
    expect(story().slice(2)).toStrictEqual([
      { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
      { type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', content: deniedCallText('not here'), isError: true, hookEffect: 'denied' },
      { type: 'tool/call', turn: 1, step: 2, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
      { type: 'tool/result', turn: 1, step: 2, toolCallId: 'c1', toolName: 'bash', content: 'ran anyway', isError: false },
    ]);
  });

  it('a result with no call first opens a turn and records the call', async () => {
    expect((await decide(seamEvent(post('c9', 'out')))).decision).toBe('accept');
    expect(story()).toStrictEqual([
      started(),
      { type: 'turn/start', turn: 1 },
      { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c9', toolName: 'bash', arguments: { command: 'ls' } },
      { type: 'tool/result', turn: 1, step: 1, toolCallId: 'c9', toolName: 'bash', content: 'out', isError: false },
    ]);
  });

  it('a block withholds the result', async () => {
    handlers['tools/post-execute'] = () => ({ action: 'block', reason: 'leaks a key' });
    expect(await decide(seamEvent(post('c1', 'KEY=1')))).toStrictEqual({
      answer: answered('PostToolUse', { action: 'block', reason: 'leaks a key' }),
      event: 'PostToolUse',
      sessionId: SESSION,
      decision: 'block',
    });
    expect(story().at(-1)).toStrictEqual({ type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', content: withheldResultText('leaks a key'), isError: true, hookEffect: 'blocked' });
  });

  it('a replaced result is logged as the model got it, with the original length and digest; its text only when kept', async () => {
    handlers['tools/post-execute'] = () => ({ action: 'accept', content: 'KEY=***' });
    const sha256 = createHash('sha256').update('KEY=123').digest('hex');
    expect((await decide(seamEvent(post('c1', 'KEY=123')))).answer).toStrictEqual(answered('PostToolUse', { action: 'accept', content: 'KEY=***' }));
    await decide(seamEvent(post('c2', 'KEY=123')), scripted(), { keepReplacedOriginals: true });
    await decide(seamEvent(post('c3', 'KEY=123')), scripted(), { keepReplacedOriginals: false });
    const result = (toolCallId: string, step: number) => ({ type: 'tool/result', turn: 1, step, toolCallId, toolName: 'bash', content: 'KEY=***', isError: false, hookEffect: 'replaced' });
    expect(story().filter((event) => event.type === 'tool/result')).toStrictEqual([
      { ...result('c1', 1), original: { length: 7, sha256 } },
      { ...result('c2', 2), original: { length: 7, sha256, content: 'KEY=123' } },
      { ...result('c3', 3), original: { length: 7, sha256 } },
    ]);
  });

  it('a "replacement" with the same text is logged as the plain result', async () => {
    handlers['tools/post-execute'] = (payload) => ({ action: 'accept', content: payload.result.content });
    await decide(seamEvent(post('c1', 'same')));
    expect(story().at(-1)).toStrictEqual({ type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', content: 'same', isError: false });
  });

  it('a replacement an agent cannot take, for every tool or for this tool, becomes a block', async () => {
    handlers['tools/post-execute'] = () => ({ action: 'accept', content: 'redacted' });
    const reason = "a hookbox hook replaced this tool output and Scripted Agent cannot replace a tool's output, so it is blocked instead";
    const onlyBash = scripted({ prompt: true, toolResult: (toolName) => toolName === 'bash' });
    expect(await decide(seamEvent(post('c1', 'secret', 'read_file')), onlyBash)).toStrictEqual({
      answer: answered('PostToolUse', { action: 'block', reason }),
      event: 'PostToolUse',
      sessionId: SESSION,
      decision: 'block',
    });
    expect((await decide(seamEvent(post('c2', 'secret', 'bash')), onlyBash)).answer).toStrictEqual(answered('PostToolUse', { action: 'accept', content: 'redacted' }));
    expect((await decide(seamEvent(post('c3', 'secret', 'bash')), scripted({ prompt: true, toolResult: false }))).answer).toStrictEqual(
      answered('PostToolUse', { action: 'block', reason }),
    );
    handlers['tools/post-execute'] = () => ({ action: 'accept' });
    expect((await decide(seamEvent(post('c4', 'fine', 'bash')), scripted({ prompt: true, toolResult: false }))).answer).toStrictEqual(answered('PostToolUse', { action: 'accept' }));
    expect(story().filter((event) => event.type === 'tool/result').map((event) => event.hookEffect ?? 'none')).toStrictEqual(['blocked', 'replaced', 'blocked', 'none']);
  });

  it('context after a result is logged after it, and names the word', async () => {
    handlers['tools/post-execute'] = () => ({ action: 'accept', additionalContext: 'mind the tests' });
    expect((await decide(seamEvent(post('c1', 'out')))).decision).toBe('context');
    expect(story().slice(-2)).toStrictEqual([
      { type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', content: 'out', isError: false },
      { type: 'context/message', turn: 1, content: 'mind the tests', source: 'post-tool' },
    ]);
  });
});

describe('agent/turn-continuation', () => {
  it('no hook: stop ends the turn as completed', async () => {
    await decide(prompt('go'));
    expect(await decide(stop())).toStrictEqual({ answer: answered('Stop', { action: 'stop' }), event: 'Stop', sessionId: SESSION, decision: 'stop' });
    expect(story().at(-1)).toStrictEqual({ type: 'turn/end', turn: 1, reason: 'completed', steps: 0 });
  });

  it('continue is steered with the hook reason, counted, and capped at maxContinuations', async () => {
    handlers['agent/turn-continuation'] = (payload) => ({ action: 'continue', ...(payload.continuations === 0 && { reason: 'finish the tests' }) });
    await decide(prompt('go'));
    expect(await decide(stop())).toStrictEqual({ answer: answered('Stop', { action: 'continue', reason: 'finish the tests' }), event: 'Stop', sessionId: SESSION, decision: 'continue' });
    expect(await decide(stop(true))).toStrictEqual({ answer: answered('Stop', { action: 'continue', reason: CONTINUE_REASON }), event: 'Stop', sessionId: SESSION, decision: 'continue' });
    expect(await decide(stop(true))).toStrictEqual({ answer: answered('Stop', { action: 'stop' }), event: 'Stop', sessionId: SESSION, decision: 'stop (cap)' });
    expect(seen.filter((hook) => hook.seam === 'agent/turn-continuation').map((hook) => hook.payload)).toStrictEqual([{ continuations: 0 }, { continuations: 1 }, { continuations: 2 }]);
    expect(story().slice(3)).toStrictEqual([
      { type: 'steering/message', turn: 1, content: 'finish the tests' },
      { type: 'steering/message', turn: 1, content: CONTINUE_REASON },
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 0, message: continuationCapReason(2) },
    ]);
  });

  it('a stop the agent does not mark as continued starts the count again', async () => {
    handlers['agent/turn-continuation'] = () => ({ action: 'continue', reason: 'more' });
    await decide(prompt('go'));
    await decide(stop());
    await decide(stop(true));
    await decide(stop(false));
    expect(seen.filter((hook) => hook.seam === 'agent/turn-continuation').map((hook) => hook.payload)).toStrictEqual([{ continuations: 0 }, { continuations: 1 }, { continuations: 0 }]);
  });

  it('a subagent-stop continue is answered with its reason, counted per subagent from the agent\'s flag, and capped at maxContinuations; no turn is opened', async () => {
    handlers['agent/subagent-stop'] = (payload) => ({ action: 'continue', ...(payload.continuations === 0 && { reason: 'check the tests too' }) });
    const sub = (alreadyContinued: boolean, agentId = 'a1') => seamEvent(call('agent/subagent-stop', { agentId, agentType: 'Explore', continuations: 0 }, { alreadyContinued }));
    expect(await decide(sub(false))).toMatchObject({ answer: answered('SubagentStop', { action: 'continue', reason: 'check the tests too' }), decision: 'continue' });
    expect(await decide(sub(true))).toMatchObject({ answer: answered('SubagentStop', { action: 'continue', reason: CONTINUE_REASON }), decision: 'continue' });
    expect(await decide(sub(false, 'a2'))).toMatchObject({ decision: 'continue' });
    expect(await decide(sub(true))).toMatchObject({ answer: answered('SubagentStop', { action: 'stop' }), decision: 'stop (cap)' });
    expect(seen.filter((hook) => hook.seam === 'agent/subagent-stop').map((hook) => { const payload = hook.payload as PayloadOf<'agent/subagent-stop'>; return [payload.agentId, payload.continuations]; })).toStrictEqual([
      ['a1', 0],
      ['a1', 1],
      ['a2', 0],
      ['a1', 2],
    ]);
    // Each forced continuation is logged under the subagent (so the count survives a process per event); no turn is opened.
    expect(story().filter((event) => event.type !== 'session/start')).toStrictEqual([
      { type: 'steering/message', turn: 1, content: 'check the tests too', subagent: 'a1' },
      { type: 'steering/message', turn: 1, content: CONTINUE_REASON, subagent: 'a1' },
      { type: 'steering/message', turn: 1, content: 'check the tests too', subagent: 'a2' },
    ]);
  });

  it('the other lifecycle seams are decided in the session, recorded, and answered; none opens a turn', async () => {
    handlers['tools/permission-request'] = (payload) => (payload.toolName === 'bash' ? { action: 'deny', reason: 'ask me later' } : NO_OPINION);
    handlers['agent/subagent-start'] = () => ({ additionalContext: 'stay in src/' });
    handlers['agent/pre-compact'] = (payload) => (payload.trigger === 'auto' ? { action: 'block', reason: 'not now' } : { action: 'allow', additionalContext: 'keep the plan' });
    handlers['agent/session-end'] = () => ({});
    const run = <S extends SeamId>(seam: S, payload: PayloadOf<S>) => decide(seamEvent(call(seam, payload)));
    expect(await run('tools/permission-request', { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } })).toMatchObject({ answer: answered('PermissionRequest', { action: 'deny', reason: 'ask me later' }), decision: 'deny' });
    expect(await run('tools/permission-request', { toolCallId: 'c2', toolName: 'read_file', arguments: { path: 'a' } })).toMatchObject({ answer: answered('PermissionRequest', { action: 'ask' }), decision: 'ask' });
    expect(await run('agent/subagent-start', { agentType: 'Explore' })).toMatchObject({ answer: answered('SubagentStart', { additionalContext: 'stay in src/' }), decision: 'context' });
    expect(await run('agent/notification', { kind: 'idle', message: 'waiting' })).toMatchObject({ answer: answered('Notification', {}), decision: 'none' });
    expect(await run('agent/pre-compact', { trigger: 'auto' })).toMatchObject({ answer: answered('PreCompact', { action: 'block', reason: 'not now' }), decision: 'block' });
    expect(await run('agent/pre-compact', { trigger: 'manual' })).toMatchObject({ answer: answered('PreCompact', { action: 'allow', additionalContext: 'keep the plan' }), decision: 'context' });
    expect(await run('agent/session-end', { reason: 'exit' })).toMatchObject({ answer: answered('SessionEnd', {}), decision: 'none' });
    expect(logged().filter((event) => event.type === 'hook/invoke').map((event) => event.seam)).toStrictEqual([
      'agent/session-start',
      'tools/permission-request',
      'tools/permission-request',
      'agent/subagent-start',
      'agent/notification',
      'agent/pre-compact',
      'agent/pre-compact',
      'agent/session-end',
    ]);
    expect(story().filter((event) => event.type !== 'session/start')).toStrictEqual([]);
  });

  it('a stop with no turn open opens one first', async () => {
    expect((await decide(stop())).decision).toBe('stop');
    expect(story()).toStrictEqual([started(), { type: 'turn/start', turn: 1 }, { type: 'turn/end', turn: 1, reason: 'completed', steps: 0 }]);
  });
});

describe('one event that stands for several calls', () => {
  it('the stricter extra call wins, with its word; a looser one does not', async () => {
    handlers['tools/pre-execute'] = (payload) => (payload.toolCallId === 'c1' ? { action: 'ask', reason: 'check' } : NO_OPINION);
    expect(await decide(seamEvent(pre('c0'), [pre('c1'), pre('c2')]))).toStrictEqual({
      answer: answered('PreToolUse', { action: 'ask', reason: 'check' }),
      event: 'PreToolUse',
      sessionId: SESSION,
      decision: 'ask',
    });
    handlers['tools/pre-execute'] = (payload) => (payload.toolCallId === 'c3' ? { action: 'deny', reason: 'no' } : { action: 'ask' });
    expect((await decide(seamEvent(pre('c3'), [pre('c4')]))).decision).toBe('deny');
  });

  it('an extra call on another seam is a host error: answered closed, the session not left in flight', async () => {
    const decided = await decide(seamEvent(pre('c1'), [post('c1', 'out')]));
    expect(decided).toStrictEqual({
      answer: refused('PreToolUse', 'host error: scripted: an event\'s extra calls must be on its seam (tools/pre-execute), got tools/post-execute'),
      event: 'PreToolUse',
      sessionId: SESSION,
      decision: 'error',
    });
    expect(session().inFlight).toBe(0);
  });

  it('an unmapped tool, in the event or its extra calls, is named in the word', async () => {
    const flagged = { command: 'x', _hookbox: { unmappedTool: true } };
    expect((await decide(seamEvent(pre('c1', 'Teleport', flagged)))).decision).toBe('allow (unmapped tool Teleport)');
    expect((await decide(seamEvent(pre('c2'), [pre('c3', 'Warp', flagged)]))).decision).toBe('allow (unmapped tool Warp)');
    const postFlagged = call('tools/post-execute', { toolCallId: 'c4', toolName: 'Blink', arguments: flagged, result: { content: 'o', isError: false } });
    expect((await decide(seamEvent(postFlagged))).decision).toBe('accept (unmapped tool Blink)');
    expect((await decide(seamEvent(pre('c5', 'bash', { _hookbox: { unmappedTool: false } })))).decision).toBe('allow');
  });
});

describe('the session around a decision', () => {
  it('is in flight while its hooks run, and used when it ends', async () => {
    const during: number[] = [];
    handlers['tools/pre-execute'] = () => {
      const served = session();
      during.push(served.inFlight);
      served.lastUsed = 0; // a decision that took long: the session must not look idle after it
      return { action: 'allow' };
    };
    const before = Date.now();
    await decide(seamEvent(pre('c1')));
    const served = session();
    expect({ during, after: served.inFlight, used: served.lastUsed >= before }).toStrictEqual({ during: [1], after: 0, used: true });
  });

  it('a session that cannot be opened is a host error, answered closed', async () => {
    const file = path.join(logDir, 'not-a-folder');
    writeFileSync(file, '');
    const table = new SessionTable({ maxSessions: 1, idleMs: 60_000, logDir: file });
    const decided = await decideAgentEvent(scripted(), seamEvent(pre('c1')), { ...options, sessions: table });
    expect({ ...decided, answer: { ...decided.answer, stderr: undefined } }).toStrictEqual({
      answer: { exitCode: 2, stdout: '', stderr: undefined },
      event: 'PreToolUse',
      sessionId: SESSION,
      decision: 'error',
    });
    expect(JSON.parse(decided.answer.stderr)).toMatchObject({ event: 'PreToolUse', reason: expect.stringMatching(/^host error: .*not-a-folder/) });
  });
});
