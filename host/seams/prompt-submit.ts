import * as z from 'zod';
import { faultReason, foldRewriting, type SeamDefinition } from './seam.ts';

/** Where a prompt came from. */
export const PromptSourceSchema = z.enum(['cli', 'stdin', 'api', 'acp']);
/** Where a prompt came from. */
export type PromptSource = z.infer<typeof PromptSourceSchema>;

export const PromptSubmitPayloadSchema = z.strictObject({
  content: z.string(),
  source: PromptSourceSchema,
});
/** What prompt-submit hooks receive: the prompt and where it came from. */
export type PromptSubmitPayload = z.infer<typeof PromptSubmitPayloadSchema>;

export const PromptAllowSchema = z.strictObject({
  action: z.literal('allow'),
  /** Replaces the prompt text that is recorded and sent to the model. */
  content: z.string().optional(),
  /** Injected into the open turn as a `context/message`. */
  additionalContext: z.string().optional(),
});
export const PromptBlockSchema = z.strictObject({
  action: z.literal('block'),
  reason: z.string().min(1),
});
export const PromptDecisionSchema = z.discriminatedUnion('action', [PromptAllowSchema, PromptBlockSchema]);
/** A prompt-submit decision: `allow` (maybe rewritten, maybe with context) or `block`. */
export type PromptDecision = z.infer<typeof PromptDecisionSchema>;

export const promptSubmitSeam: SeamDefinition<
  'agent/prompt-submit',
  typeof PromptSubmitPayloadSchema,
  typeof PromptDecisionSchema
> = {
  id: 'agent/prompt-submit',
  kind: 'waterfall',
  exportName: 'prompt_submit',
  typeNames: { payload: 'PromptSubmitPayload', decision: 'PromptDecision' },
  payload: PromptSubmitPayloadSchema,
  decision: PromptDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'closed',
  defaultDecision: () => ({ action: 'allow' }),
  compose: (next, decision) => {
    if (next.action === 'block') return next;
    if (decision.action === 'block') return decision;
    return foldRewriting('allow', next, decision);
  },
  shortCircuits: (decision) => decision.action === 'block',
  threadPayload: (payload, decision) =>
    decision.action === 'allow' && decision.content !== undefined ? { ...payload, content: decision.content } : payload,
  // A failing prompt scanner must not let a secret through.
  faultDecision: (fault, policy, hook) =>
    policy === 'closed' ? { action: 'block', reason: faultReason(hook, fault) } : null,
};
