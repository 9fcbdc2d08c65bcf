/**
 * replaySession (host/loop/replay.ts) over session logs written out by hand:
 * which recorded hook calls fold into "before", what each re-decision is
 * given, what is skipped or not replayed and why — each report compared whole.
 * The integration suite (tests/integration/replay.spec.ts) replays logs the
 * real loop wrote.
 */
import { describe, expect, it } from 'vitest';
import { NO_OPINION, SeamBus, nativeHook } from '../../host/events/index.ts';
import type { SessionEvent } from '../../host/log/index.ts';
import { replaySession } from '../../host/loop/replay.ts';
import type { SeamId, SessionInfo } from '../../host/seams/index.ts';

type HookInvoke = Extract<SessionEvent, { type: 'hook/invoke' }>;

const start: SessionEvent = { type: 'session/start', sessionId: 'sess-1', cwd: '/work/project', source: 'startup', at: '2026-12-04T00:00:00Z' };
const invoke = (seam: SeamId, hook: string, applied: unknown, extra: Partial<HookInvoke> = {}): HookInvoke => ({
  type: 'hook/invoke',
  turn: 1,
  hook,
  seam,
  durationUs: 10,
  outcome: applied === null ? 'no-opinion' : 'decision',
  applied,
  ...extra,
});
const toolCall = (id: string, command: string, turn = 1, step = 1): SessionEvent => ({
  type: 'tool/call',
  turn,
  step,
  toolCallId: id,
  toolName: 'bash',
  arguments: { command },
});
const toolResult = (id: string, extra: Partial<Extract<SessionEvent, { type: 'tool/result' }>> = {}): SessionEvent => ({
  type: 'tool/result',
  turn: 1,
  step: 1,
  toolCallId: id,
  toolName: 'bash',
  content: 'out',
  isError: false,
  ...extra,
});

describe('replaySession', () => {
  it('folds the recorded hooks by the seam’s composition into "before" and dispatches "after" on the new bus', async () => {
    const seen: { seam: SeamId; payload: unknown; session: SessionInfo }[] = [];
    const bus = new SeamBus();
    bus.use(
      nativeHook({
        name: 'new',
        handlers: {
          'agent/prompt-submit': (payload, { session }) => (seen.push({ seam: 'agent/prompt-submit', payload, session }), NO_OPINION),
          'tools/pre-execute': (payload, { session }) => (seen.push({ seam: 'tools/pre-execute', payload, session }), { action: 'deny', reason: 'now no' }),
          'tools/post-execute': (payload, { session }) => (seen.push({ seam: 'tools/post-execute', payload, session }), NO_OPINION),
        },
      }),
    );
    const log: SessionEvent[] = [
      start,
      invoke('agent/prompt-submit', 'old', null),
      { type: 'user/message', turn: 1, content: 'rewritten', originalContent: 'as typed' },
      toolCall('c1', 'ls', 1, 2),
      invoke('tools/pre-execute', 'old', { action: 'allow', reason: 'fine' }),
      invoke('tools/post-execute', 'old', { action: 'accept' }),
      toolResult('c1', { step: 2, content: 'a b', isError: true }),
    ];
    const report = await replaySession(log, bus);
    expect(report).toStrictEqual({
      decisions: [
        {
          seam: 'agent/prompt-submit',
          turn: 1,
          subject: 'as typed',
          before: { decision: { action: 'allow' }, hooks: [{ hook: 'old', applied: null }] },
          after: { decision: { action: 'allow' }, hooks: [{ hook: 'new', applied: null }] },
          changed: false,
        },
        {
          seam: 'tools/pre-execute',
          turn: 1,
          subject: 'bash {"command":"ls"}',
          toolCallId: 'c1',
          before: { decision: { action: 'allow', reason: 'fine' }, hooks: [{ hook: 'old', applied: { action: 'allow', reason: 'fine' } }] },
          after: { decision: { action: 'deny', reason: 'now no' }, hooks: [{ hook: 'new', applied: { action: 'deny', reason: 'now no' } }] },
          changed: true,
        },
        {
          seam: 'tools/post-execute',
          turn: 1,
          subject: 'bash {"command":"ls"}',
          toolCallId: 'c1',
          before: { decision: { action: 'accept' }, hooks: [{ hook: 'old', applied: { action: 'accept' } }] },
          after: { decision: { action: 'accept' }, hooks: [{ hook: 'new', applied: null }] },
          changed: false,
        },
      ],
      skipped: [],
      notReplayed: [],
    });
    // The prompt as submitted (not the rewrite); the session's id and cwd; the call's turn and step.
    expect(seen).toStrictEqual([
      { seam: 'agent/prompt-submit', payload: { content: 'as typed', source: 'api' }, session: { id: 'sess-1', turn: 1, step: 0, cwd: '/work/project' } },
      {
        seam: 'tools/pre-execute',
        payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
        session: { id: 'sess-1', turn: 1, step: 2, cwd: '/work/project' },
      },
      {
        seam: 'tools/post-execute',
        payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' }, result: { content: 'a b', isError: true } },
        session: { id: 'sess-1', turn: 1, step: 2, cwd: '/work/project' },
      },
    ]);
  });

  it('without a session/start it replays as session "replay" in the current directory', async () => {
    const sessions: SessionInfo[] = [];
    const bus = new SeamBus();
    bus.use(nativeHook({ name: 'n', handlers: { 'agent/prompt-submit': (_, { session }) => (sessions.push(session), NO_OPINION) } }));
    await replaySession([{ type: 'user/message', turn: 2, content: 'hi' }], bus);
    expect(sessions).toStrictEqual([{ id: 'replay', turn: 2, step: 0, cwd: process.cwd() }]);
  });

  it('a recorded deny short-circuits the fold; a later hook’s decision and a no-opinion do not count', async () => {
    const log: SessionEvent[] = [
      start,
      toolCall('c1', 'rm -rf /'),
      invoke('tools/pre-execute', 'quiet', null),
      invoke('tools/pre-execute', 'guard', { action: 'deny', reason: 'destructive' }),
      invoke('tools/pre-execute', 'late', { action: 'ask', reason: 'after the deny' }),
      toolResult('c1', { hookEffect: 'denied', content: 'Tool call denied by a hook: destructive', isError: true }),
    ];
    const report = await replaySession(log, new SeamBus());
    expect(report.decisions).toStrictEqual([
      {
        seam: 'tools/pre-execute',
        turn: 1,
        subject: 'bash {"command":"rm -rf /"}',
        toolCallId: 'c1',
        before: {
          decision: { action: 'deny', reason: 'destructive' },
          hooks: [
            { hook: 'quiet', applied: null },
            { hook: 'guard', applied: { action: 'deny', reason: 'destructive' } },
            { hook: 'late', applied: { action: 'ask', reason: 'after the deny' } },
          ],
        },
        after: { decision: { action: 'allow' }, hooks: [] },
        changed: true,
      },
    ]);
    // A denied call never reached post-execute: nothing to re-decide there, nothing skipped.
    expect(report.skipped).toStrictEqual([]);
  });

  it('composes every recorded hook before a deny: an ask outranks an allow', async () => {
    const log: SessionEvent[] = [
      toolCall('c1', 'git push'),
      invoke('tools/pre-execute', 'a', { action: 'allow' }),
      invoke('tools/pre-execute', 'b', { action: 'ask', reason: 'push?' }),
      toolResult('c1'),
    ];
    const [pre] = (await replaySession(log, new SeamBus())).decisions;
    expect(pre?.before.decision).toStrictEqual({ action: 'ask', reason: 'push?' });
  });

  it('a blocked or replaced result is skipped for post-execute with its reason; its recorded post calls do not leak into the next call', async () => {
    const bus = new SeamBus();
    const log: SessionEvent[] = [
      start,
      toolCall('c1', 'cat secrets'),
      invoke('tools/post-execute', 'redactor', { action: 'block', reason: 'secret' }),
      toolResult('c1', { hookEffect: 'blocked', content: 'Tool result withheld by a hook: secret', isError: true }),
      toolCall('c2', 'cat env'),
      invoke('tools/post-execute', 'rewriter', { action: 'accept', content: 'xxx' }),
      toolResult('c2', { hookEffect: 'replaced', content: 'xxx' }),
      toolCall('c3', 'echo'),
      toolResult('c3'),
    ];
    const report = await replaySession(log, bus);
    expect(report.skipped).toStrictEqual([
      { seam: 'tools/post-execute', turn: 1, subject: 'bash {"command":"cat secrets"}', why: 'the result was blocked by a hook and the original is not kept in the log' },
      { seam: 'tools/post-execute', turn: 1, subject: 'bash {"command":"cat env"}', why: 'the result was replaced by a hook and the original is not kept in the log' },
    ]);
    expect(report.decisions.map((d) => [d.seam, d.toolCallId, d.before.hooks])).toStrictEqual([
      ['tools/pre-execute', 'c1', []],
      ['tools/pre-execute', 'c2', []],
      ['tools/pre-execute', 'c3', []],
      ['tools/post-execute', 'c3', []],
    ]);
  });

  it('pre-execute calls recorded before a tool/call belong to no call and are dropped', async () => {
    const log: SessionEvent[] = [invoke('tools/pre-execute', 'stale', { action: 'deny', reason: 'old' }), toolCall('c1', 'ls'), toolResult('c1')];
    const [pre] = (await replaySession(log, new SeamBus())).decisions;
    expect(pre?.before).toStrictEqual({ decision: { action: 'allow' }, hooks: [] });
  });

  it('a result for another call than the last one, or with no call, is not re-decided', async () => {
    const results: unknown[] = [];
    const bus = new SeamBus();
    bus.use(nativeHook({ name: 'n', handlers: { 'tools/post-execute': (payload) => (results.push(payload.result), NO_OPINION) } }));
    const log: SessionEvent[] = [toolResult('orphan'), toolCall('c1', 'ls'), toolResult('c2', { content: 'not c1' }), toolResult('c1', { content: 'c1 out' }), toolResult('c1')];
    const report = await replaySession(log, bus);
    // c1 once, with its own result; the repeat has no pending call.
    expect(report.decisions.map((d) => [d.seam, d.toolCallId])).toStrictEqual([
      ['tools/pre-execute', 'c1'],
      ['tools/post-execute', 'c1'],
    ]);
    expect(results).toStrictEqual([{ content: 'c1 out', isError: false }]);
  });

  it('each re-decision folds only its own seam’s recorded calls: session-start and continuation calls stay out', async () => {
    const log: SessionEvent[] = [
      start,
      invoke('agent/session-start', 'ctx', { additionalContext: 'rules' }),
      invoke('agent/prompt-submit', 'p', { action: 'allow', reason: 'prompt ok' }),
      { type: 'user/message', turn: 1, content: 'hi' },
      toolCall('c1', 'ls'),
      invoke('tools/pre-execute', 'pre', { action: 'allow', reason: 'pre ok' }),
      invoke('tools/post-execute', 'post', { action: 'accept', additionalContext: 'seen' }),
      toolResult('c1'),
      invoke('agent/turn-continuation', 'gate', { action: 'stop' }),
      { type: 'user/message', turn: 2, content: 'again' },
    ];
    const report = await replaySession(log, new SeamBus());
    expect(report.decisions.map((d) => [d.seam, d.before.hooks.map((hook) => hook.hook)])).toStrictEqual([
      ['agent/prompt-submit', ['p']],
      ['tools/pre-execute', ['pre']],
      ['tools/post-execute', ['post']],
      ['agent/prompt-submit', []],
    ]);
  });

  it('a log whose session/start is not its first line still replays under its id and folder', async () => {
    const sessions: SessionInfo[] = [];
    const bus = new SeamBus();
    bus.use(nativeHook({ name: 'n', handlers: { 'agent/prompt-submit': (_, { session }) => (sessions.push(session), NO_OPINION) } }));
    await replaySession([invoke('agent/session-start', 'ctx', null), start, { type: 'user/message', turn: 1, content: 'hi' }], bus);
    expect(sessions).toStrictEqual([{ id: 'sess-1', turn: 1, step: 0, cwd: '/work/project' }]);
  });

  it('a blocked prompt is re-decided with its own content; a prompt without hooks compares unchanged', async () => {
    const log: SessionEvent[] = [
      invoke('agent/prompt-submit', 'guard', { action: 'block', reason: 'secret' }),
      { type: 'prompt/blocked', turn: 1, reason: 'secret', content: 'my SECRET' },
      { type: 'user/message', turn: 2, content: 'hello' },
    ];
    const payloads: unknown[] = [];
    const bus = new SeamBus();
    bus.use(nativeHook({ name: 'n', handlers: { 'agent/prompt-submit': (payload) => (payloads.push(payload), NO_OPINION) } }));
    const report = await replaySession(log, bus);
    expect(payloads).toStrictEqual([
      { content: 'my SECRET', source: 'api' },
      { content: 'hello', source: 'api' },
    ]);
    const none = { hook: 'n', applied: null };
    expect(report.decisions).toStrictEqual([
      {
        seam: 'agent/prompt-submit',
        turn: 1,
        subject: 'my SECRET',
        before: { decision: { action: 'block', reason: 'secret' }, hooks: [{ hook: 'guard', applied: { action: 'block', reason: 'secret' } }] },
        after: { decision: { action: 'allow' }, hooks: [none] },
        changed: true,
      },
      {
        seam: 'agent/prompt-submit',
        turn: 2,
        subject: 'hello',
        before: { decision: { action: 'allow' }, hooks: [] },
        after: { decision: { action: 'allow' }, hooks: [none] },
        changed: false,
      },
    ]);
  });

  it('a hook’s fault is named by its kind on both sides', async () => {
    const bus = new SeamBus();
    bus.use({
      name: 'crashy',
      seams: ['agent/prompt-submit'],
      invoke: () => {
        throw new Error('boom');
      },
    });
    const log: SessionEvent[] = [
      invoke('agent/prompt-submit', 'slow', null, { outcome: 'fault', fault: { kind: 'timeout', message: 'took too long' } }),
      { type: 'user/message', turn: 1, content: 'hi' },
    ];
    const [prompt] = (await replaySession(log, bus)).decisions;
    expect(prompt?.before.hooks).toStrictEqual([{ hook: 'slow', applied: null, fault: 'timeout' }]);
    // Failing closed (the default), the fault applies as a block.
    const block = { action: 'block', reason: 'hook "crashy" failed (plugin-error): boom' };
    expect(prompt?.after).toStrictEqual({ decision: block, hooks: [{ hook: 'crashy', applied: block, fault: 'plugin-error' }] });
    expect(prompt?.changed).toBe(true);
  });

  it('names each seam the log has hook calls on that it does not re-decide, once, with the seam table’s reason', async () => {
    const log: SessionEvent[] = [
      invoke('agent/session-start', 'ctx', null),
      invoke('agent/turn-continuation', 'gate', { action: 'stop' }),
      invoke('agent/turn-continuation', 'gate', { action: 'stop' }),
      invoke('agent/prompt-submit', 'p', null),
    ];
    expect((await replaySession(log, new SeamBus())).notReplayed).toStrictEqual([
      { seam: 'agent/session-start', why: 'session-start only adds context; nothing in the log depends on one decision' },
      { seam: 'agent/turn-continuation', why: 'a continuation changes which model calls follow, and replay runs no model' },
    ]);
  });
});
