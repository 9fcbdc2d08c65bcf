import * as z from 'zod';
import type { SeamDefinition } from './seam.ts';

/**
 * Why the session ended. A closed set so a hook can switch on it; a bridge
 * maps an agent's own reason (`prompt_input_exit`, `user_exit`, `complete`…)
 * onto it and sends anything it does not know as `other`.
 */
export const SessionEndReasonSchema = z.enum(['exit', 'clear', 'logout', 'error', 'other']);
/** Why the session ended. */
export type SessionEndReason = z.infer<typeof SessionEndReasonSchema>;

export const SessionEndPayloadSchema = z.strictObject({
  reason: SessionEndReasonSchema,
});
/** What session-end hooks receive. */
export type SessionEndPayload = z.infer<typeof SessionEndPayloadSchema>;

/**
 * session-end is a notification: the session is over, there is no turn left
 * to carry context into and nothing to block. A hook logs, summarises, cleans up.
 */
export const SessionEndDecisionSchema = z.strictObject({});
/** What a session-end hook may answer: nothing but an empty acknowledgement. */
export type SessionEndDecision = z.infer<typeof SessionEndDecisionSchema>;

export const sessionEndSeam: SeamDefinition<
  'agent/session-end',
  typeof SessionEndPayloadSchema,
  typeof SessionEndDecisionSchema
> = {
  id: 'agent/session-end',
  kind: 'notify',
  exportName: 'session_end',
  typeNames: { payload: 'SessionEndPayload', decision: 'SessionEndDecision' },
  payload: SessionEndPayloadSchema,
  decision: SessionEndDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'open',
  defaultDecision: () => ({}),
  compose: () => ({}),
  shortCircuits: () => false,
  threadPayload: (payload) => payload,
  // The session is closing either way: a failing hook is logged, never keeps it open.
  faultDecision: () => null,
};
