/**
 * A served session's steps for the seams of issue #51 (session end,
 * compaction, subagents, the agent's permission prompt, notifications):
 * each is decided by the session's hooks and recorded; none opens a turn.
 */
import type { AgentSeamEvent } from '../agents/index.ts';
import type { SeamBus } from '../events/index.ts';
import { CONTINUE_REASON } from '../loop/reactions.ts';
import type { DecisionOf } from '../seams/index.ts';
import type { ServedSession } from './served-session.ts';

type LifecycleSeam = 'tools/permission-request' | 'agent/subagent-start' | 'agent/subagent-stop' | 'agent/notification' | 'agent/pre-compact' | 'agent/session-end';

/** What these steps use of decide.ts's step context: the session, the bus and the continuation cap (a step there is given more). */
interface LifecycleContext {
  readonly session: ServedSession;
  readonly bus: Pick<SeamBus, 'dispatch'>;
  readonly options: { readonly maxContinuations: number };
}

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
  /**
   * As a turn's continuation, capped: Claude Code 2.1.328 and Copilot CLI
   * 1.0.102 keep a subagent going for as long as a hook answers "block"
   * (measured: Copilot 822 rounds in two minutes), so hookbox counts each
   * subagent's forced continuations (by the agent's id for it; logged as a
   * `steering/message` with `subagent`, so the count survives a process per
   * event) and stops it at `maxContinuations`. A stop the agent says follows
   * no continuation (`stop_hook_active` false) starts the count again.
   */
  'agent/subagent-stop': async (event, { session, options, bus }) => {
    const key = event.payload.agentId ?? '';
    if (event.alreadyContinued !== true) session.subagentContinuations.delete(key);
    // Forced on before, by a count hookbox no longer has (a lost log): at least once.
    const continuations = session.subagentContinuations.get(key) ?? (event.alreadyContinued === true ? 1 : 0);
    const { decision: raw, invocations } = await bus.dispatch('agent/subagent-stop', { ...event.payload, continuations }, session.info(), { action: 'stop' });
    session.recordInvocations(invocations);
    if (raw.action === 'stop') return { decision: raw, word: 'stop' };
    if (continuations >= options.maxContinuations) return { decision: { action: 'stop' }, word: 'stop (cap)' };
    session.subagentContinuations.set(key, continuations + 1);
    const reason = raw.reason ?? CONTINUE_REASON;
    // A subagent stops inside the turn that started it; one before any turn (no prompt reached hookbox) is logged under the first.
    session.log.append({ type: 'steering/message', turn: Math.max(1, session.turn), content: reason, subagent: key });
    return { decision: { action: 'continue', reason }, word: 'continue' };
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
