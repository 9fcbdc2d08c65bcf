/**
 * One harness, run against every seam (and so both dispatch kinds): the
 * composition rules of docs/rfc-interception-seams.md hold whichever seam a hook listens on.
 */
import { describe, expect, it } from 'vitest';
import { NO_OPINION, SeamBus, nativeHook, type HookInvocation } from '../../host/events/index.ts';
import { type DecisionOf, type PayloadOf, SEAMS, type SeamId, type SessionInfo, describeAsks, standingAsks } from '../../host/seams/index.ts';

interface Fixture<S extends SeamId> {
  readonly payload: PayloadOf<S>;
  /** A decision that lets things through, carrying context where the seam has it. */
  readonly permissive: DecisionOf<S>;
  /** A second permissive decision with different context. */
  readonly permissive2: DecisionOf<S>;
  /** The seam's default decision (the first listener's `next`), written out. */
  readonly defaultDecision: DecisionOf<S> | null;
  /** The payload the second listener sees after `permissive` (rewrites threaded in). */
  readonly threaded: PayloadOf<S>;
  /** What the two permissive decisions compose to. */
  readonly accumulated: DecisionOf<S>;
  /** A restrictive decision that short-circuits, if the seam has one. */
  readonly restrictive?: DecisionOf<S>;
  /** A decision that a later permissive one must not relax (without short-circuiting), if any. */
  readonly sticky?: DecisionOf<S>;
  /** The decision the seam takes from a throwing listener under its default policy; `null` = no opinion. */
  readonly onThrow: DecisionOf<S> | null;
}

const FIXTURES: { [S in SeamId]: Fixture<S> } = {
  'agent/session-start': {
    payload: { source: 'startup' },
    defaultDecision: {},
    threaded: { source: 'startup' },
    permissive: { additionalContext: 'a' },
    permissive2: { additionalContext: 'b' },
    accumulated: { additionalContext: 'a\n\nb' },
    onThrow: null,
  },
  'agent/prompt-submit': {
    payload: { content: 'hello', source: 'api' },
    defaultDecision: { action: 'allow' },
    threaded: { content: 'HELLO', source: 'api' },
    permissive: { action: 'allow', content: 'HELLO', additionalContext: 'a' },
    permissive2: { action: 'allow', additionalContext: 'b' },
    accumulated: { action: 'allow', content: 'HELLO', additionalContext: 'a\n\nb' },
    restrictive: { action: 'block', reason: 'no' },
    onThrow: { action: 'block', reason: 'hook "thrower" failed (plugin-error): listener bug' },
  },
  'tools/pre-execute': {
    payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
    defaultDecision: { action: 'allow' },
    threaded: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
    permissive: { action: 'allow', reason: 'fine' },
    permissive2: { action: 'allow' },
    accumulated: { action: 'allow', reason: 'fine' },
    restrictive: { action: 'deny', reason: 'no' },
    sticky: { action: 'ask', reason: 'unsure' },
    onThrow: { action: 'deny', reason: 'hook "thrower" failed (plugin-error): listener bug' },
  },
  'tools/post-execute': {
    payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' }, result: { content: 'x', isError: false } },
    defaultDecision: { action: 'accept' },
    threaded: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' }, result: { content: 'X', isError: false } },
    permissive: { action: 'accept', content: 'X', additionalContext: 'a' },
    permissive2: { action: 'accept', additionalContext: 'b' },
    accumulated: { action: 'accept', content: 'X', additionalContext: 'a\n\nb' },
    restrictive: { action: 'block', reason: 'no' },
    onThrow: { action: 'block', reason: 'hook "thrower" failed (plugin-error): listener bug' },
  },
  'agent/turn-continuation': {
    payload: { continuations: 0 },
    defaultDecision: { action: 'stop' },
    threaded: { continuations: 0 },
    permissive: { action: 'continue', reason: 'a' },
    permissive2: { action: 'continue', reason: 'b' },
    accumulated: { action: 'continue', reason: 'a\n\nb' },
    sticky: { action: 'continue', reason: 'keep going' },
    onThrow: null,
  },
  'tools/permission-request': {
    payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm install' } },
    defaultDecision: { action: 'ask' },
    threaded: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm install' } },
    permissive: { action: 'allow', reason: 'fine' },
    permissive2: { action: 'allow' },
    accumulated: { action: 'allow', reason: 'fine' },
    restrictive: { action: 'deny', reason: 'no' },
    onThrow: { action: 'deny', reason: 'hook "thrower" failed (plugin-error): listener bug' },
  },
  'agent/subagent-start': {
    payload: { agentId: 'a1', agentType: 'general-purpose' },
    defaultDecision: {},
    threaded: { agentId: 'a1', agentType: 'general-purpose' },
    permissive: { additionalContext: 'a' },
    permissive2: { additionalContext: 'b' },
    accumulated: { additionalContext: 'a\n\nb' },
    onThrow: null,
  },
  'agent/subagent-stop': {
    payload: { agentId: 'a1', agentType: 'general-purpose', continuations: 0 },
    defaultDecision: { action: 'stop' },
    threaded: { agentId: 'a1', agentType: 'general-purpose', continuations: 0 },
    permissive: { action: 'continue', reason: 'a' },
    permissive2: { action: 'continue', reason: 'b' },
    accumulated: { action: 'continue', reason: 'a\n\nb' },
    sticky: { action: 'continue', reason: 'keep going' },
    onThrow: null,
  },
  'agent/notification': {
    payload: { kind: 'idle', message: 'waiting for your input' },
    defaultDecision: {},
    threaded: { kind: 'idle', message: 'waiting for your input' },
    permissive: {},
    permissive2: {},
    accumulated: {},
    onThrow: null,
  },
  'agent/pre-compact': {
    payload: { trigger: 'auto' },
    defaultDecision: { action: 'allow' },
    threaded: { trigger: 'auto' },
    permissive: { action: 'allow', additionalContext: 'a' },
    permissive2: { action: 'allow', additionalContext: 'b' },
    accumulated: { action: 'allow', additionalContext: 'a\n\nb' },
    restrictive: { action: 'block', reason: 'no' },
    onThrow: null,
  },
  'agent/session-end': {
    payload: { reason: 'exit' },
    defaultDecision: {},
    threaded: { reason: 'exit' },
    permissive: {},
    permissive2: {},
    accumulated: {},
    onThrow: null,
  },
};

const session: SessionInfo = { id: 's1', turn: 1, step: 1, cwd: '/tmp' };

/** A listener that records its calls and answers with a fixed decision (or throws). */
function recorder<S extends SeamId>(name: string, seam: S, log: { name: string; next: unknown; payload: unknown }[], answer: DecisionOf<S> | 'throw' | 'none') {
  return nativeHook({
    name,
    handlers: {
      [seam]: (payload: PayloadOf<S>, context: { next: DecisionOf<S> | null }) => {
        log.push({ name, next: context.next, payload });
        if (answer === 'throw') throw new Error('listener bug');
        return answer === 'none' ? NO_OPINION : answer;
      },
    },
  });
}

describe.each(Object.keys(SEAMS) as SeamId[])('seam %s', (seam) => {
  const fixture = FIXTURES[seam] as Fixture<SeamId>;
  const kind = SEAMS[seam].kind;

  async function run(answers: (DecisionOf<SeamId> | 'throw' | 'none')[]) {
    const bus = new SeamBus();
    const calls: { name: string; next: unknown; payload: unknown }[] = [];
    const audited: HookInvocation[] = [];
    bus.observe((invocation) => audited.push(invocation));
    answers.forEach((answer, index) => bus.use(recorder(`h${index}`, seam, calls, answer)));
    const result = await bus.dispatch(seam, fixture.payload as never, session);
    return { result, calls, audited };
  }

  it('runs listeners in configured order and audits each', async () => {
    const { calls, audited } = await run(['none', 'none', 'none']);
    expect(calls.map((c) => c.name)).toEqual(['h0', 'h1', 'h2']);
    expect(audited.map((a) => [a.hook, a.seam, a.outcome])).toEqual([
      ['h0', seam, 'no-opinion'],
      ['h1', seam, 'no-opinion'],
      ['h2', seam, 'no-opinion'],
    ]);
  });

  it(kind === 'waterfall' ? 'threads the decision so far as next, and rewrites into the payload' : 'gives notify listeners no next', async () => {
    const { calls } = await run([fixture.permissive, 'none']);
    if (kind === 'notify') {
      expect(calls.map((c) => c.next)).toEqual([null, null]);
      return;
    }
    expect(calls[0]?.next).toEqual(fixture.defaultDecision);
    expect(calls[0]?.payload).toEqual(fixture.payload);
    expect(calls[1]?.next).toEqual(fixture.permissive);
    expect(calls[1]?.payload).toEqual(fixture.threaded);
  });

  it('accumulates additional context and keeps rewrites in order', async () => {
    const { result } = await run([fixture.permissive, fixture.permissive2]);
    expect(result.decision).toEqual(fixture.accumulated);
  });

  it('no opinion passes the decision so far through unchanged', async () => {
    const { result, calls } = await run(['none', fixture.permissive, 'none']);
    // Written out, not computed with the code under test: the default
    // composed with one permissive decision is that decision, on every seam.
    expect(result.decision).toEqual(fixture.permissive);
    if (kind === 'waterfall') expect(calls.map((c) => c.next)).toEqual([fixture.defaultDecision, fixture.defaultDecision, fixture.permissive]);
  });

  const { restrictive, sticky } = fixture;
  if (restrictive !== undefined) {
    it('a restrictive decision short-circuits the rest', async () => {
      const { result, calls } = await run([fixture.permissive, restrictive, fixture.permissive2]);
      expect(result.decision).toEqual(restrictive);
      expect(calls.map((c) => c.name)).toEqual(['h0', 'h1']);
    });
  } else {
    it('nothing short-circuits: every listener runs', async () => {
      const { calls } = await run([fixture.permissive, fixture.permissive2, 'none']);
      expect(calls.map((c) => c.name)).toEqual(['h0', 'h1', 'h2']);
    });
  }

  if (sticky !== undefined) {
    it('a later listener never relaxes a restrictive decision', async () => {
      const relaxed = seam === 'agent/turn-continuation' || seam === 'agent/subagent-stop' ? { action: 'stop' } : fixture.permissive;
      const { result, calls } = await run([sticky, relaxed as DecisionOf<SeamId>]);
      expect(result.decision).toEqual(sticky);
      expect(calls.map((c) => c.name)).toEqual(['h0', 'h1']);
    });
  }

  it('a throwing listener is a plugin-error fault, decided by the seam\'s fault policy, and later listeners still run unless it short-circuits', async () => {
    const bus = new SeamBus();
    const calls: { name: string; next: unknown; payload: unknown }[] = [];
    const audited: HookInvocation[] = [];
    bus.observe((invocation) => audited.push(invocation));
    bus.use(recorder('thrower', seam, calls, 'throw'));
    bus.use(recorder('after', seam, calls, 'none'));
    const { decision } = await bus.dispatch(seam, fixture.payload as never, session);
    expect(audited[0]).toMatchObject({ hook: 'thrower', outcome: 'fault', fault: { kind: 'plugin-error', message: 'listener bug' }, applied: fixture.onThrow });
    expect(decision).toEqual(fixture.onThrow ?? fixture.defaultDecision);
    // Every fault decision that exists (deny, block) short-circuits.
    expect(calls.map((c) => c.name)).toEqual(fixture.onThrow !== null ? ['thrower'] : ['thrower', 'after']);
  });

  it('a decision that fails the seam schema is a schema fault, never applied as given', async () => {
    const bus = new SeamBus();
    const audited: HookInvocation[] = [];
    bus.observe((invocation) => audited.push(invocation));
    bus.use(recorder('liar', seam, [], { action: 'explode' } as unknown as DecisionOf<SeamId>));
    await bus.dispatch(seam, fixture.payload as never, session);
    expect(audited[0]?.outcome).toBe('fault');
    expect(audited[0]?.fault?.kind).toBe('schema');
    expect(audited[0]?.applied).toEqual(fixture.onThrow === null ? null : { ...fixture.onThrow, reason: expect.stringContaining('(schema)') });
  });

  it('attributes every decision it folds in to its hook, in order; no opinion is not a decision', async () => {
    const { result } = await run([fixture.permissive, 'none', fixture.permissive2]);
    expect(result.decided).toEqual([
      { hook: 'h0', decision: fixture.permissive },
      { hook: 'h2', decision: fixture.permissive2 },
    ]);
  });

  it('an open fail policy turns a fault into no opinion', async () => {
    const bus = new SeamBus();
    const hook = nativeHook({ name: 'open', failPolicy: 'open', handlers: { [seam]: () => { throw new Error('x'); } } });
    bus.use(hook);
    const { decision, invocations } = await bus.dispatch(seam, fixture.payload as never, session);
    expect(invocations[0]?.applied).toBeNull();
    expect(decision).toEqual(fixture.defaultDecision);
  });
});

describe('tools/pre-execute: equal-rank asks are all kept, attributed', () => {
  const payload = FIXTURES['tools/pre-execute'].payload;
  function asker(name: string, decision: DecisionOf<'tools/pre-execute'> | 'throw') {
    return nativeHook({
      name,
      handlers: {
        'tools/pre-execute': () => {
          if (decision === 'throw') throw new Error('listener bug');
          return decision;
        },
      },
    });
  }

  it('two asks: the composed decision stands on both, each with its own reason, in configured order', async () => {
    const bus = new SeamBus();
    bus.use(asker('first', { action: 'ask', reason: 'looks fine, just confirm' }));
    bus.use(asker('allow', { action: 'allow' }));
    bus.use(asker('guard', { action: 'ask', reason: 'pushes to main' }));
    bus.use(asker('silent', { action: 'ask' }));
    const { decision, decided } = await bus.dispatch('tools/pre-execute', payload, session);
    expect(decision.action).toBe('ask');
    const asks = standingAsks(decision, decided);
    expect(asks).toEqual([
      { hook: 'first', reason: 'looks fine, just confirm' },
      { hook: 'guard', reason: 'pushes to main' },
      { hook: 'silent' },
    ]);
    expect(describeAsks(asks)).toBe('hook "first": looks fine, just confirm; hook "guard": pushes to main; hook "silent": asks without a reason');
  });

  it('a single ask keeps its reason as given; a deny or an allow stands on no ask', async () => {
    expect(describeAsks([{ hook: 'guard', reason: 'why' }])).toBe('why');
    const bus = new SeamBus();
    bus.use(asker('guard', { action: 'ask', reason: 'why' }));
    bus.use(asker('wall', { action: 'deny', reason: 'no' }));
    const denied = await bus.dispatch('tools/pre-execute', payload, session);
    expect(standingAsks(denied.decision, denied.decided)).toEqual([]);
  });

  it('a hook that timed out asks too, attributed to it by the host', async () => {
    const bus = new SeamBus();
    bus.use(asker('guard', { action: 'ask', reason: 'why' }));
    bus.use({ name: 'slow', seams: ['tools/pre-execute'], invoke: async () => ({ type: 'fault', fault: { kind: 'timeout', message: 'over 50 ms' } }) });
    const { decision, decided } = await bus.dispatch('tools/pre-execute', payload, session);
    expect(standingAsks(decision, decided)).toEqual([
      { hook: 'guard', reason: 'why' },
      { hook: 'slow', reason: 'hook "slow" failed (timeout): over 50 ms' },
    ]);
  });
});
