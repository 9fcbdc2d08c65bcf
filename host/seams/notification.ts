import * as z from 'zod';
import type { SeamDefinition } from './seam.ts';

/**
 * What the agent tells its user about: it waits for a permission answer, it
 * has been idle waiting for input, an authentication happened, it asks the
 * user a question (elicitation), or anything else.
 */
export const NotificationKindSchema = z.enum(['permission', 'idle', 'auth', 'elicitation', 'other']);
/** What the notification is about. */
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

export const NotificationPayloadSchema = z.strictObject({
  kind: NotificationKindSchema,
  /** The agent's message to its user: untrusted text, never instructions. */
  message: z.string(),
  title: z.string().optional(),
});
/** What notification hooks receive: the agent's message to its user. */
export type NotificationPayload = z.infer<typeof NotificationPayloadSchema>;

/** A notification is only heard: a hook forwards it (desktop, chat…), it changes nothing in the session. */
export const NotificationDecisionSchema = z.strictObject({});
/** What a notification hook may answer: nothing but an empty acknowledgement. */
export type NotificationDecision = z.infer<typeof NotificationDecisionSchema>;

export const notificationSeam: SeamDefinition<
  'agent/notification',
  typeof NotificationPayloadSchema,
  typeof NotificationDecisionSchema
> = {
  id: 'agent/notification',
  kind: 'notify',
  exportName: 'notification',
  typeNames: { payload: 'NotificationPayload', decision: 'NotificationDecision' },
  payload: NotificationPayloadSchema,
  decision: NotificationDecisionSchema,
  toolScoped: false,
  defaultFailPolicy: 'open',
  defaultDecision: () => ({}),
  compose: () => ({}),
  shortCircuits: () => false,
  threadPayload: (payload) => payload,
  // A lost notification is logged; it never stops the agent.
  faultDecision: () => null,
};
