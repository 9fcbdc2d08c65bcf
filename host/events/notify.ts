import { type PayloadOf, type SeamId, type SessionInfo, seamDefinition } from '../seams/index.ts';
import { invokeListener } from './invoke.ts';
import type { Decided, DispatchResult, HookInvocation, SeamListener } from './listener.ts';

/**
 * Tells every listener, in configured order. A notification cannot be
 * blocked: listeners see no `next`, and what they return only accumulates.
 */
export async function runNotify<S extends SeamId>(
  seam: S,
  listeners: readonly SeamListener[],
  payload: PayloadOf<S>,
  session: SessionInfo,
): Promise<DispatchResult<S>> {
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
