/**
 * A served session's steps for the seams of issue #51 (session end,
 * compaction, subagents, the agent's permission prompt, notifications):
 * each is decided by the session's hooks and recorded; none opens a turn.
 */
import type { AgentSeamEvent } from '../agents/index.ts';
import type { SeamBus } from '../events/index.ts';
import type { DecisionOf } from '../seams/index.ts';
import { CONTINUE_REASON } from '../loop/reactions.ts';
import type { ServedSession } from './served-session.ts';

type LifecycleSeam = 'tools/permission-request' | 'agent/subagent-start' | 'agent/subagent-stop' | 'agent/notification' | 'agent/pre-compact' | 'agent/session-end';

/** What these steps use of decide.ts's step context: the session, the bus and the continuation cap (a step there is given more). */
interface LifecycleContext {
  readonly session: ServedSession;
  readonly bus: Pick<SeamBus, 'dispatch'>;
  readonly options: { readonly maxContinuations: number };
}

/**
 * How often each subagent of a served session was forced on, by its id (its
 * type when the agent gives no id): the agent's own flag says only whether it
 * was, so hookbox counts, and caps it as it caps a turn's continuations.
 */
const subagentContinuations = new WeakMap<ServedSession, Map<string, number>>();

type LifecycleStep<S extends LifecycleSeam> = (event: AgentSeamEvent<S>, context: LifecycleContext) => Promise<{ readonly decision: DecisionOf<S>; readonly word: string }>;

export const LIFECYCLE_STEPS: { readonly [S in LifecycleSeam]: LifecycleStep<S> } = {
  'tools/permission-request': async (event, { session, bus }) => {
    const { decision, invocations } = await bus.dispatch('tools/permission-request', event.payload, session.info());
    session.recordInvocations(invocations);
    return { decision, word: decision.action };
  },
  'agent/subagent-start': async (event, { session, bus }) => {
    const { decision, invocations } = await bus.dispatch('agent/subagent-start', event.payload, session.info());
    session.recordInvocations(invocations);
    return { decision, word: decision.additionalContext === undefined ? 'none' : 'context' };
  },
  'agent/subagent-stop': async (event, { session, bus, options }) => {
    let counts = subagentContinuations.get(session);
    if (counts === undefined) subagentContinuations.set(session, (counts = new Map()));
    const key = event.payload.agentId ?? event.payload.agentType ?? '';
    // A stop the agent does not mark as continued starts the count again.
    const continuations = event.alreadyContinued === true ? (counts.get(key) ?? 1) : 0;
    const { decision, invocations } = await bus.dispatch('agent/subagent-stop', { ...event.payload, continuations }, session.info(), { action: 'stop' });
    session.recordInvocations(invocations);
    if (decision.action === 'stop') {
      counts.delete(key);
      return { decision, word: 'stop' };
    }
    if (continuations >= options.maxContinuations) {
      counts.delete(key);
      return { decision: { action: 'stop' }, word: 'stop (cap)' };
    }
    counts.set(key, continuations + 1);
    return { decision: { action: 'continue', reason: decision.reason ?? CONTINUE_REASON }, word: 'continue' };
  },
  'agent/notification': async (event, { session, bus }) => {
    const { decision, invocations } = await bus.dispatch('agent/notification', event.payload, session.info());
    session.recordInvocations(invocations);
    return { decision, word: 'none' };
  },
  'agent/pre-compact': async (event, { session, bus }) => {
    const { decision, invocations } = await bus.dispatch('agent/pre-compact', event.payload, session.info());
    session.recordInvocations(invocations);
    return { decision, word: decision.action === 'allow' && decision.additionalContext !== undefined ? 'context' : decision.action };
  },
  'agent/session-end': async (event, { session, bus }) => {
    const { decision, invocations } = await bus.dispatch('agent/session-end', event.payload, session.info());
    session.recordInvocations(invocations);
    return { decision, word: 'none' };
  },
};
