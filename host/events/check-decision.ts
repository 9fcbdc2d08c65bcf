import { issueLines } from '../json/index.ts';
import { type DecisionOf, type SeamId, hookFault, seamDefinition } from '../seams/index.ts';
import type { ListenerOutcome } from './listener.ts';

/**
 * Checks a listener's decision against the seam's schema: the decision, or a
 * `schema` fault naming every bad field (`decision.reason: …`). The one check
 * of a decision on its way into the loop — the bus runs it for listeners that
 * do not check their own (`SeamListener.checksDecisions`), and the sandbox
 * runner runs it as it decodes a plugin's output.
 */
export function checkDecision<S extends SeamId>(seam: S, value: unknown): ListenerOutcome<DecisionOf<S>> {
  const parsed = seamDefinition(seam).decision.safeParse(value);
  if (parsed.success) return { type: 'decision', decision: parsed.data };
  return { type: 'fault', fault: hookFault('schema', `output is not a valid ${seam} decision: ${issueLines(parsed.error, 'decision').join('; ')}`) };
}
