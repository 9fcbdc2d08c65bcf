import * as z from 'zod';
import { joinContext, type SeamDefinition } from './seam.ts';

export const SubagentStartPayloadSchema = z.strictObject({
  /** The agent's id for this subagent run, when it gives one (untrusted text). */
  agentId: z.string().optional(),
  /** The kind of subagent as the agent names it (`general-purpose`, `Explore`…; untrusted text). */
  agentType: z.string(),
});
/** What subagent-start hooks receive when the agent starts a subagent. */
export type SubagentStartPayload = z.infer<typeof SubagentStartPayloadSchema>;

/** subagent-start is a notification: a hook cannot stop the subagent, only give it context. */
export const SubagentStartDecisionSchema = z.strictObject({
  /** Given to the subagent as context, where the agent takes it. */
  additionalContext: z.string().optional(),
});
/** What a subagent-start hook may answer: context for the subagent. */
export type SubagentStartDecision = z.infer<typeof SubagentStartDecisionSchema>;

export const subagentStartSeam: SeamDefinition<
  'agent/subagent-start',
  typeof SubagentStartPayloadSchema,
  typeof SubagentStartDecisionSchema
> = {
  id: 'agent/subagent-start',
  kind: 'notify',
  exportName: 'subagent_start',
  typeNames: { payload: 'SubagentStartPayload', decision: 'SubagentStartDecision' },
  payload: SubagentStartPayloadSchema,
  decision: SubagentStartDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'open',
  defaultDecision: () => ({}),
  compose: (next, decision) => {
    const additionalContext = joinContext(next.additionalContext, decision.additionalContext);
    return additionalContext === undefined ? {} : { additionalContext };
  },
  shortCircuits: () => false,
  threadPayload: (payload) => payload,
  // Context is advice: a failing hook is logged and the subagent starts without it.
  faultDecision: () => null,
};
