import * as z from 'zod';
import { joinContext, type SeamDefinition } from './seam.ts';

export const TurnContinuationPayloadSchema = z.strictObject({
  /** How many times this turn was already forced on by a `continue` (the loop guard's count). */
  continuations: z.number().int().nonnegative(),
  lastAssistantText: z.string().optional(),
});
/** What turn-continuation hooks receive when the model ended a step without tool calls. */
export type TurnContinuationPayload = z.infer<typeof TurnContinuationPayloadSchema>;

export const ContinuationStopSchema = z.strictObject({
  action: z.literal('stop'),
});
export const ContinuationContinueSchema = z.strictObject({
  action: z.literal('continue'),
  /** Model-facing steering recorded at the next step's top-of-loop drain, in the same turn. */
  reason: z.string().optional(),
});
export const ContinuationDecisionSchema = z.discriminatedUnion('action', [
  ContinuationStopSchema,
  ContinuationContinueSchema,
]);
/** A turn-continuation decision: `stop`, or `continue` with steering for the model. */
export type ContinuationDecision = z.infer<typeof ContinuationDecisionSchema>;

/**
 * Folds one hook's continuation decision in: a `continue` is not overruled by
 * a later `stop`, and the reasons of several `continue`s are joined. Shared by
 * `agent/subagent-stop`, which decides a subagent's stop the same way.
 */
export function composeContinuation(next: ContinuationDecision, decision: ContinuationDecision): ContinuationDecision {
  if (decision.action === 'stop') return next;
  if (next.action === 'stop') return decision;
  const reason = joinContext(next.reason, decision.reason);
  return reason === undefined ? { action: 'continue' } : { action: 'continue', reason };
}

export const turnContinuationSeam: SeamDefinition<
  'agent/turn-continuation',
  typeof TurnContinuationPayloadSchema,
  typeof ContinuationDecisionSchema
> = {
  id: 'agent/turn-continuation',
  kind: 'waterfall',
  exportName: 'turn_continuation',
  typeNames: { payload: 'TurnContinuationPayload', decision: 'ContinuationDecision' },
  payload: TurnContinuationPayloadSchema,
  decision: ContinuationDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'open',
  defaultDecision: () => ({ action: 'stop' }),
  // A gate that asks for more work is not overruled by a later `stop`;
  // the loop guard caps how often a turn can be forced on.
  compose: composeContinuation,
  shortCircuits: () => false,
  threadPayload: (payload) => payload,
  // A failing continuation hook leaves the loop's default decision in place.
  faultDecision: () => null,
};
