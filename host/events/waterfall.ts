import { type DecisionOf, type PayloadOf, type SeamId, type SessionInfo, seamDefinition } from '../seams/index.ts';
import { type DispatchOptions, invokeListener } from './invoke.ts';
import type { Decided, DispatchResult, HookInvocation, SeamListener } from './listener.ts';

/**
 * Runs listeners one after another in configured order. Each gets the
 * decision so far as `next` and the payload with earlier rewrites applied;
 * the seam's `compose` folds its answer in (never relaxing a restrictive
 * decision), and a deny/block ends the run.
 */
export async function runWaterfall<S extends SeamId>(
  seam: S,
  listeners: readonly SeamListener[],
  payload: PayloadOf<S>,
  initial: DecisionOf<S>,
  session: SessionInfo,
  options: DispatchOptions<S> = {},
): Promise<DispatchResult<S>> {
  const definition = seamDefinition(seam);
  const invocations: HookInvocation[] = [];
  const decided: Decided<S>[] = [];
  let decision = initial;
  let current = payload;
  for (const listener of listeners) {
    if (definition.shortCircuits(decision)) break;
    const applied = await invokeListener(listener, seam, current, decision, session, options);
    invocations.push(applied.invocation);
    if (applied.decision === null) continue;
    decided.push({ hook: listener.name, decision: applied.decision });
    decision = definition.compose(decision, applied.decision);
    // The hook's own rewrite: the composed decision need not carry it (pre-tool keeps arguments out of `next`).
    current = definition.threadPayload(current, applied.decision);
  }
  return { decision, invocations, decided };
}
