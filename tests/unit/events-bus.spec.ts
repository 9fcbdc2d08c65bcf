/**
 * The seam bus's own mechanics (host/events), beside the conformance
 * harness's composition rules: tool matching, (un)registration, observers,
 * the `initial` decision, and what `invokeListener` records for each outcome.
 * Expected values are written out.
 */
import { describe, expect, it } from 'vitest';
import { NO_OPINION, SeamBus, type SeamListener, checkDecision, nativeHook } from '../../host/events/index.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import { compileToolMatcher } from '../../host/events/tool-matcher.ts';
import type { SessionInfo } from '../../host/seams/index.ts';

const session: SessionInfo = { id: 's', turn: 1, step: 1, cwd: '/w' };
const pre = (toolName: string) => ({ toolCallId: 'c', toolName, arguments: {} });

describe('tool matchers', () => {
  it('are anchored regular expressions; absent matches every tool, empty matches none', () => {
    const bash = compileToolMatcher(['bash']);
    expect(bash('bash')).toBe(true);
    expect(bash('bash2')).toBe(false);
    expect(bash('xbash')).toBe(false);
    const family = compileToolMatcher(['read_.*', 'write_file']);
    expect(family('read_file')).toBe(true);
    expect(family('write_file')).toBe(true);
    expect(family('list_dir')).toBe(false);
    // An alternation is anchored as a whole, not only its first branch.
    expect(compileToolMatcher(['a|b'])('xb')).toBe(false);
    expect(compileToolMatcher(undefined)('anything')).toBe(true);
    expect(compileToolMatcher([])('bash')).toBe(false);
  });
});

describe('SeamBus', () => {
  const allow = (name: string, tools?: string[]) =>
    nativeHook({ name, ...(tools !== undefined && { tools }), handlers: { 'tools/pre-execute': () => ({ action: 'allow', reason: name }) } });

  it('lists the listeners for a seam in order, filtering by seam and, on tool seams only, by tool', () => {
    const bus = new SeamBus();
    bus.use(allow('any'));
    bus.use(allow('bash-only', ['bash']));
    bus.use(nativeHook({ name: 'prompt', tools: ['bash'], handlers: { 'agent/prompt-submit': () => NO_OPINION } }));
    expect(bus.listenersFor('tools/pre-execute', pre('bash')).map((l) => l.name)).toEqual(['any', 'bash-only']);
    expect(bus.listenersFor('tools/pre-execute', pre('read_file')).map((l) => l.name)).toEqual(['any']);
    // prompt-submit is not tool-scoped: a tools matcher does not filter it.
    expect(bus.listenersFor('agent/prompt-submit', { content: 'x', source: 'cli' }).map((l) => l.name)).toEqual(['prompt']);
  });

  it('use() and observe() return removers that remove only their own entry', async () => {
    const bus = new SeamBus();
    const removeA = bus.use(allow('a'));
    bus.use(allow('b'));
    const seen: string[] = [];
    const stopFirst = bus.observe((i) => seen.push(`1:${i.hook}`));
    bus.observe((i) => seen.push(`2:${i.hook}`));
    removeA();
    removeA(); // a second call is a no-op, not a removal of someone else
    stopFirst();
    stopFirst();
    const result = await bus.dispatch('tools/pre-execute', pre('bash'), session);
    expect(result.invocations.map((i) => i.hook)).toEqual(['b']);
    expect(seen).toEqual(['2:b']);
  });

  it('dispatch starts from `initial` when given, else from the seam default', async () => {
    const bus = new SeamBus();
    const nexts: unknown[] = [];
    bus.use(nativeHook({ name: 'n', handlers: { 'agent/turn-continuation': (_p, ctx) => (nexts.push(ctx.next), NO_OPINION) } }));
    expect((await bus.dispatch('agent/turn-continuation', { continuations: 0 }, session, { action: 'continue', reason: 'loop' })).decision).toEqual({
      action: 'continue',
      reason: 'loop',
    });
    expect((await bus.dispatch('agent/turn-continuation', { continuations: 0 }, session)).decision).toEqual({ action: 'stop' });
    expect(nexts).toEqual([{ action: 'continue', reason: 'loop' }, { action: 'stop' }]);
  });

  it('a waterfall that starts short-circuited asks nobody', async () => {
    const bus = new SeamBus();
    bus.use(allow('a'));
    const result = await bus.dispatch('tools/pre-execute', pre('bash'), session, { action: 'deny', reason: 'already' });
    expect(result).toEqual({ decision: { action: 'deny', reason: 'already' }, invocations: [], decided: [], payload: pre('bash'), rewrittenBy: [] });
  });

  it('a notify seam tells every listener, accumulating, with no next', async () => {
    const bus = new SeamBus();
    const nexts: unknown[] = [];
    for (const name of ['a', 'b']) bus.use(nativeHook({ name, handlers: { 'agent/session-start': (_p, ctx) => (nexts.push(ctx.next), { additionalContext: name }) } }));
    const result = await bus.dispatch('agent/session-start', { source: 'startup' }, session);
    expect(result.decision).toEqual({ additionalContext: 'a\n\nb' });
    expect(nexts).toEqual([null, null]);
    expect(result.invocations.map((i) => [i.hook, i.outcome, i.applied])).toEqual([
      ['a', 'decision', { additionalContext: 'a' }],
      ['b', 'decision', { additionalContext: 'b' }],
    ]);
  });
});

describe('invokeListener records exactly what happened', () => {
  // Listeners answering fixed outcomes (typed loosely: the point is what the bus does with them).
  const listener = (over: Partial<SeamListener>, invoke: () => Promise<unknown>): SeamListener => ({
    name: 'h',
    seams: ['tools/pre-execute'],
    invoke: invoke as SeamListener['invoke'],
    ...over,
  });
  const call = (l: SeamListener) => invokeListener(l, 'tools/pre-execute', pre('bash'), { action: 'allow' }, session);

  it('a decision: digest and sandbox copied, duration in whole microseconds', async () => {
    const { decision, invocation } = await call(listener({ digest: 'd'.repeat(64), sandbox: 'wasm' }, async () => ({ type: 'decision', decision: { action: 'ask', reason: 'r' } })));
    expect(decision).toEqual({ action: 'ask', reason: 'r' });
    expect(invocation).toEqual({
      hook: 'h',
      digest: 'd'.repeat(64),
      sandbox: 'wasm',
      seam: 'tools/pre-execute',
      durationUs: expect.any(Number),
      outcome: 'decision',
      decision: { action: 'ask', reason: 'r' },
      applied: { action: 'ask', reason: 'r' },
    });
    expect(Number.isInteger(invocation.durationUs) && invocation.durationUs >= 0).toBe(true);
  });

  it('durationUs is the call\'s own duration in microseconds (bounded by a 20 ms timer below and the outer clock above)', async () => {
    const before = performance.now();
    const { invocation } = await call(listener({}, () => new Promise((resolve) => setTimeout(() => resolve({ type: 'no-opinion' }), 20))));
    const outerUs = (performance.now() - before) * 1000;
    // Timers never fire early, so ≥ 19 ms; and never more than the time measured around the call.
    expect(invocation.durationUs).toBeGreaterThanOrEqual(19_000);
    expect(invocation.durationUs).toBeLessThanOrEqual(Math.ceil(outerUs) + 1);
  });

  it('no opinion: nothing applied, no decision or fault keys', async () => {
    const { decision, invocation } = await call(listener({}, async () => ({ type: 'no-opinion' })));
    expect(decision).toBeNull();
    expect(invocation).toEqual({ hook: 'h', seam: 'tools/pre-execute', durationUs: expect.any(Number), outcome: 'no-opinion', applied: null });
  });

  it('a throw of a non-Error is a plugin-error carrying its text', async () => {
    const { decision, invocation } = await call(
      listener({}, async () => {
        throw 'plain string';
      }),
    );
    expect(invocation.fault).toEqual({ kind: 'plugin-error', message: 'plain string' });
    expect(decision).toEqual({ action: 'deny', reason: 'hook "h" failed (plugin-error): plain string' });
  });

  it('a fault under an open policy applies nothing; the listener policy beats the seam default', async () => {
    const fault = { kind: 'trap', message: 'x' } as const;
    const open = await call(listener({ failPolicy: 'open' }, async () => ({ type: 'fault', fault })));
    expect(open.decision).toBeNull();
    expect(open.invocation).toMatchObject({ outcome: 'fault', fault, applied: null });
    const closed = await invokeListener(
      listener({ failPolicy: 'closed', seams: ['agent/turn-continuation'] }, async () => ({ type: 'fault', fault })),
      'agent/turn-continuation',
      { continuations: 0 },
      { action: 'stop' },
      session,
    );
    // Continuation's fault decision is no opinion even when closed: the loop's default stands.
    expect(closed.decision).toBeNull();
  });

  it('checks decisions unless the listener says it already did', async () => {
    const bad = async () => ({ type: 'decision' as const, decision: { action: 'explode' } as never });
    const unchecked = await call(listener({}, bad));
    expect(unchecked.invocation.fault).toEqual({ kind: 'schema', message: expect.stringContaining('output is not a valid tools/pre-execute decision: decision.action') });
    const trusted = await call(listener({ checksDecisions: true }, bad));
    expect(trusted.invocation.outcome).toBe('decision');
    expect(trusted.decision).toEqual({ action: 'explode' });
  });

  it('checkDecision names every bad field under "decision"', () => {
    expect(checkDecision('tools/pre-execute', { action: 'deny', reason: '' })).toEqual({
      type: 'fault',
      fault: { kind: 'schema', message: expect.stringMatching(/^output is not a valid tools\/pre-execute decision: decision\.reason: /) },
    });
    expect(checkDecision('tools/pre-execute', { action: 'deny', reason: 'r' })).toEqual({ type: 'decision', decision: { action: 'deny', reason: 'r' } });
  });
});

describe('nativeHook', () => {
  it('handles exactly the seams it has handlers for, and passes tools and fail policy on', () => {
    const hook = nativeHook({ name: 'n', tools: ['bash'], failPolicy: 'open', handlers: { 'tools/pre-execute': () => NO_OPINION, 'agent/prompt-submit': undefined } });
    expect(hook.seams).toEqual(['tools/pre-execute']);
    expect(hook.tools).toEqual(['bash']);
    expect(hook.failPolicy).toBe('open');
    expect(Object.keys(nativeHook({ name: 'm', handlers: {} })).sort()).toEqual(['invoke', 'name', 'seams']);
  });

  it('a seam without a handler is no opinion', async () => {
    const hook = nativeHook({ name: 'n', handlers: { 'tools/pre-execute': () => NO_OPINION } });
    expect(await hook.invoke({ seam: 'agent/prompt-submit', payload: { content: 'x', source: 'cli' }, next: { action: 'allow' }, session })).toEqual({ type: 'no-opinion' });
  });
});
