import { type DecisionOf, type PayloadOf, type SeamId, type SessionInfo, seamDefinition } from '../seams/index.ts';
import { invokeListener } from './invoke.ts';
import type { HookInvocation, SeamListener } from './listener.ts';
import type { Decided } from './waterfall.ts';

export interface NotifyResult<S extends SeamId> {
  /** Everything the listeners returned, composed (accumulated context). */
  readonly decision: DecisionOf<S>;
  readonly invocations: readonly HookInvocation[];
  /** Every decision accumulated into `decision`, in order, each with the hook it came from. */
  readonly decided: readonly Decided<S>[];
}

/**
 * Tells every listener, in configured order. A notification cannot be
 * blocked: listeners see no `next`, and what they return only accumulates.
 */
export async function runNotify<S extends SeamId>(
  seam: S,
  listeners: readonly SeamListener[],
  payload: PayloadOf<S>,
  session: SessionInfo,
): Promise<NotifyResult<S>> {
  const definition = seamDefinition(seam);
  const invocations: HookInvocation[] = [];
  const decided: Decided<S>[] = [];
  let decision = definition.defaultDecision(payload);
  for (const listener of listeners) {
    const applied = await invokeListener(listener, seam, payload, null, session);
    invocations.push(applied.invocation);
    if (applied.decision === null) continue;
    decided.push({ hook: listener.name, decision: applied.decision });
    decision = definition.compose(decision, applied.decision);
  }
  return { decision, invocations, decided };
}
