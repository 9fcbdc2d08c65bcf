import * as z from 'zod';
import { faultReason, foldRewriting, type SeamDefinition } from './seam.ts';

export const ToolResultSchema = z.strictObject({
  content: z.string(),
  isError: z.boolean(),
});
/** A tool's result as the model sees it. */
export type ToolResult = z.infer<typeof ToolResultSchema>;

export const PostToolPayloadSchema = z.strictObject({
  toolCallId: z.string(),
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  result: ToolResultSchema,
});
/** What post-tool hooks receive: the tool call and its result. */
export type PostToolPayload = z.infer<typeof PostToolPayloadSchema>;

export const PostToolAcceptSchema = z.strictObject({
  action: z.literal('accept'),
  /** Replaces the tool result content the model sees (and the log records). */
  content: z.string().optional(),
  /** Appended as a `context/message` after every tool result of the step. */
  additionalContext: z.string().optional(),
});
export const PostToolBlockSchema = z.strictObject({
  action: z.literal('block'),
  reason: z.string().min(1),
});
export const PostToolDecisionSchema = z.discriminatedUnion('action', [PostToolAcceptSchema, PostToolBlockSchema]);
/** A post-tool decision: `accept` (maybe replacing the content, maybe with context) or `block`. */
export type PostToolDecision = z.infer<typeof PostToolDecisionSchema>;

export const postToolSeam: SeamDefinition<
  'tools/post-execute',
  typeof PostToolPayloadSchema,
  typeof PostToolDecisionSchema
> = {
  id: 'tools/post-execute',
  kind: 'waterfall',
  exportName: 'post_tool',
  typeNames: { payload: 'PostToolPayload', decision: 'PostToolDecision' },
  payload: PostToolPayloadSchema,
  decision: PostToolDecisionSchema,
  toolScoped: true,
  defaultFailPolicy: 'closed',
  defaultDecision: () => ({ action: 'accept' }),
  compose: (next, decision) => {
    if (next.action === 'block') return next;
    if (decision.action === 'block') return decision;
    return foldRewriting('accept', next, decision);
  },
  shortCircuits: (decision) => decision.action === 'block',
  threadPayload: (payload, decision) =>
    decision.action === 'accept' && decision.content !== undefined
      ? { ...payload, result: { ...payload.result, content: decision.content } }
      : payload,
  // A failing secret scanner must not leak the secret: withhold the result.
  faultDecision: (fault, policy, hook) =>
    policy === 'closed' ? { action: 'block', reason: faultReason(hook, fault) } : null,
};
