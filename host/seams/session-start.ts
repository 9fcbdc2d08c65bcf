import * as z from 'zod';
import { joinContext, type SeamDefinition } from './seam.ts';

export const SessionStartSourceSchema = z.enum(['startup', 'resume', 'clear', 'compact']);
/** Why the session started. */
export type SessionStartSource = z.infer<typeof SessionStartSourceSchema>;

export const SessionStartPayloadSchema = z.strictObject({
  source: SessionStartSourceSchema,
});
/** What session-start hooks receive. */
export type SessionStartPayload = z.infer<typeof SessionStartPayloadSchema>;

/** session-start is a notification: a hook cannot block start-up, only add context. */
export const SessionStartDecisionSchema = z.strictObject({
  additionalContext: z.string().optional(),
});
/** What a session-start hook may answer: context for the first turn. */
export type SessionStartDecision = z.infer<typeof SessionStartDecisionSchema>;

export const sessionStartSeam: SeamDefinition<
  'agent/session-start',
  typeof SessionStartPayloadSchema,
  typeof SessionStartDecisionSchema
> = {
  id: 'agent/session-start',
  kind: 'notify',
  exportName: 'session_start',
  typeNames: { payload: 'SessionStartPayload', decision: 'SessionStartDecision' },
  payload: SessionStartPayloadSchema,
  decision: SessionStartDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'open',
  defaultDecision: () => ({}),
  compose: (next, decision) => {
    const additionalContext = joinContext(next.additionalContext, decision.additionalContext);
    return additionalContext === undefined ? {} : { additionalContext };
  },
  shortCircuits: () => false,
  threadPayload: (payload) => payload,
  // A failing session-start hook is logged and ignored, whatever the policy.
  faultDecision: () => null,
};
