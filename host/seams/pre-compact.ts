import * as z from 'zod';
import { joinContext, type SeamDefinition } from './seam.ts';

/** Who asked for the compaction: the person (`/compact`) or the agent, because its context is full. */
export const CompactTriggerSchema = z.enum(['manual', 'auto']);
/** Who asked for the compaction. */
export type CompactTrigger = z.infer<typeof CompactTriggerSchema>;

export const PreCompactPayloadSchema = z.strictObject({
  trigger: CompactTriggerSchema,
  /** The person's own instructions for the summary (`/compact <text>`), when the agent passes them on. */
  instructions: z.string().optional(),
});
/** What pre-compact hooks receive, before the agent summarises its context. */
export type PreCompactPayload = z.infer<typeof PreCompactPayloadSchema>;

export const PreCompactAllowSchema = z.strictObject({
  action: z.literal('allow'),
  /** What the summary must keep: added to the compaction's instructions where the agent takes them. */
  additionalContext: z.string().optional(),
});
export const PreCompactBlockSchema = z.strictObject({
  action: z.literal('block'),
  reason: z.string().min(1),
});
export const PreCompactDecisionSchema = z.discriminatedUnion('action', [PreCompactAllowSchema, PreCompactBlockSchema]);
/** A pre-compact decision: `allow` (maybe with what to keep) or `block` (where the agent lets a hook block). */
export type PreCompactDecision = z.infer<typeof PreCompactDecisionSchema>;

export const preCompactSeam: SeamDefinition<
  'agent/pre-compact',
  typeof PreCompactPayloadSchema,
  typeof PreCompactDecisionSchema
> = {
  id: 'agent/pre-compact',
  kind: 'waterfall',
  exportName: 'pre_compact',
  typeNames: { payload: 'PreCompactPayload', decision: 'PreCompactDecision' },
  payload: PreCompactPayloadSchema,
  decision: PreCompactDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'open',
  defaultDecision: () => ({ action: 'allow' }),
  compose: (next, decision) => {
    if (next.action === 'block') return next;
    if (decision.action === 'block') return decision;
    const additionalContext = joinContext(next.additionalContext, decision.additionalContext);
    return additionalContext === undefined ? { action: 'allow' } : { action: 'allow', additionalContext };
  },
  shortCircuits: (decision) => decision.action === 'block',
  threadPayload: (payload) => payload,
  // A compaction that cannot happen leaves an agent whose context is full
  // unable to go on: a failing hook never blocks it, whatever the policy.
  faultDecision: () => null,
};
