import * as z from 'zod';
import type { SeamDefinition } from './seam.ts';
import { ContinuationDecisionSchema, composeContinuation } from './turn-continuation.ts';

export const SubagentStopPayloadSchema = z.strictObject({
  agentId: z.string().optional(),
  agentType: z.string().optional(),
  /** How many times this subagent was already forced on by a `continue` (the agent's own flag counts as one). */
  continuations: z.number().int().nonnegative(),
  /** The subagent's last message (untrusted text). */
  lastAssistantText: z.string().optional(),
});
/** What subagent-stop hooks receive when a subagent is about to hand back its result. */
export type SubagentStopPayload = z.infer<typeof SubagentStopPayloadSchema>;

/** The subagent's decision is turn-continuation's: `stop` (hand back the result) or `continue {reason}`. */
export const SubagentStopDecisionSchema = ContinuationDecisionSchema;
/** A subagent-stop decision: `stop`, or `continue` with steering for the subagent. */
export type SubagentStopDecision = z.infer<typeof SubagentStopDecisionSchema>;

export const subagentStopSeam: SeamDefinition<
  'agent/subagent-stop',
  typeof SubagentStopPayloadSchema,
  typeof SubagentStopDecisionSchema
> = {
  id: 'agent/subagent-stop',
  kind: 'waterfall',
  exportName: 'subagent_stop',
  typeNames: { payload: 'SubagentStopPayload', decision: 'ContinuationDecision' },
  payload: SubagentStopPayloadSchema,
  decision: SubagentStopDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'open',
  defaultDecision: () => ({ action: 'stop' }),
  // As turn-continuation: a hook that asks for more work is not overruled by
  // a later `stop`; the agent's own flag and hookbox's cap end the loop.
  compose: composeContinuation,
  shortCircuits: () => false,
  threadPayload: (payload) => payload,
  // A subagent forced on by a broken hook could run forever: a fault lets it stop.
  faultDecision: () => null,
};
