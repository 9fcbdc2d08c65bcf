import { type DecisionOf, type PayloadOf, type SeamId, type SessionInfo, seamDefinition } from '../seams/index.ts';
import { canonicalJson } from './canonical-json.ts';
import { type DispatchOptions, invokeListener } from './invoke.ts';
import type { Decided, DispatchResult, HookInvocation, SeamListener } from './listener.ts';

/** A hook's standing say: the decision it gave and the payload it gave it on. */
interface Standing<S extends SeamId> {
  readonly input: string;
  readonly applied: DecisionOf<S> | null;
}

/**
 * The waterfall of a seam whose rewrites change what is decided about
 * (pre-tool arguments), with the guarantee that every hook's standing
 * decision was made on the payload that ends the run.
 *
 * Pass 1 is the ordinary waterfall: in the operator's order, each hook sees
 * the payload with earlier rewrites applied. A later rewrite leaves the hooks
 * before it standing on arguments that will not run, so the run repeats on the
 * final payload: a hook whose last answer was given on exactly this payload
 * keeps it (asking again would be asking the same question), every other hook
 * is asked again, in order, and a rewrite in that pass is threaded on. The run
 * ends when a pass leaves every hook standing on the final payload; a deny ends
 * it at once (nothing runs, whatever the arguments). Rewriters that still
 * change the payload after `max` passes make the seam's `unsettled` decision.
 * Everything is sequential: the result never depends on which hook is faster.
 */
export async function runRewriteRounds<S extends SeamId>(
  seam: S,
  listeners: readonly SeamListener[],
  payload: PayloadOf<S>,
  initial: DecisionOf<S>,
  session: SessionInfo,
  options: DispatchOptions<S>,
): Promise<DispatchResult<S>> {
  const definition = seamDefinition(seam);
  const rounds = definition.rewriteRounds;
  if (rounds === undefined) throw new Error(`seam ${seam} does not run rewrite rounds`);
  const invocations: HookInvocation[] = [];
  const standing: (Standing<S> | undefined)[] = listeners.map(() => undefined);
  const rewrittenBy: string[] = [];
  let current = payload;
  let lastRewriters: string[] = [];
  for (let pass = 1; pass <= rounds.max; pass++) {
    let decision = initial;
    const decided: Decided<S>[] = [];
    lastRewriters = [];
    for (const [index, listener] of listeners.entries()) {
      if (definition.shortCircuits(decision)) break;
      const input = canonicalJson(current);
      let applied: DecisionOf<S> | null;
      const prior = standing[index];
      if (prior !== undefined && prior.input === input) applied = prior.applied;
      else {
        const asked = await invokeListener(listener, seam, current, decision, session, options);
        invocations.push(asked.invocation);
        applied = asked.decision;
        standing[index] = { input, applied };
      }
      if (applied === null) continue;
      decided.push({ hook: listener.name, decision: applied });
      decision = definition.compose(decision, applied);
      const threaded = definition.threadPayload(current, applied);
      if (threaded !== current && canonicalJson(threaded) !== input) {
        current = threaded;
        lastRewriters.push(listener.name);
        if (!rewrittenBy.includes(listener.name)) rewrittenBy.push(listener.name);
      }
    }
    const done = { invocations, decided, payload: current, rewrittenBy };
    if (definition.shortCircuits(decision)) return { decision, ...done };
    const final = canonicalJson(current);
    if (standing.every((say) => say === undefined || say.input === final)) return { decision, ...done };
  }
  return {
    decision: rounds.unsettled(lastRewriters, rounds.max),
    invocations,
    decided: [],
    payload: current,
    rewrittenBy,
    unsettled: lastRewriters,
  };
}
