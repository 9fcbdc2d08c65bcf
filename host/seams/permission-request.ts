import * as z from 'zod';
import { faultReason, type SeamDefinition } from './seam.ts';

export const PermissionRequestPayloadSchema = z.strictObject({
  /** The tool call the agent wants permission for; empty when the agent gives no id. */
  toolCallId: z.string(),
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** Why the agent (or a hook) asks, when it says (untrusted text). */
  reason: z.string().optional(),
});
/** What permission-request hooks receive: the tool call the agent is about to ask its user about. */
export type PermissionRequestPayload = z.infer<typeof PermissionRequestPayloadSchema>;

/** No opinion: the person is asked as usual. The default, and what a hook may say outright (its reason is logged, not shown). */
export const PermissionAskSchema = z.strictObject({
  action: z.literal('ask'),
  reason: z.string().optional(),
});
/** Answer for the person: the tool runs without the prompt. */
export const PermissionAllowSchema = z.strictObject({
  action: z.literal('allow'),
  reason: z.string().optional(),
});
/** Answer for the person: the tool does not run; the model sees the reason. */
export const PermissionDenySchema = z.strictObject({
  action: z.literal('deny'),
  reason: z.string().min(1),
});
export const PermissionDecisionSchema = z.discriminatedUnion('action', [
  PermissionAskSchema,
  PermissionAllowSchema,
  PermissionDenySchema,
]);
/** A permission-request decision: `ask` (the person decides, as without hooks), `allow` or `deny`. */
export type PermissionDecision = z.infer<typeof PermissionDecisionSchema>;

const RANK = { ask: 0, allow: 1, deny: 2 } as const;

export const permissionRequestSeam: SeamDefinition<
  'tools/permission-request',
  typeof PermissionRequestPayloadSchema,
  typeof PermissionDecisionSchema
> = {
  id: 'tools/permission-request',
  kind: 'waterfall',
  exportName: 'permission_request',
  typeNames: { payload: 'PermissionRequestPayload', decision: 'PermissionDecision' },
  payload: PermissionRequestPayloadSchema,
  decision: PermissionDecisionSchema,
  toolScoped: true,
  defaultFailPolicy: 'closed',
  defaultDecision: () => ({ action: 'ask' }),
  // deny > allow > ask: one hook may answer for the person, none may undo a
  // deny. At equal rank the first reason given stands.
  compose: (next, decision) => {
    if (RANK[decision.action] !== RANK[next.action]) return RANK[decision.action] > RANK[next.action] ? decision : next;
    return next.reason === undefined ? decision : next;
  },
  shortCircuits: (decision) => decision.action === 'deny',
  threadPayload: (payload) => payload,
  // A gate fails closed. A hook that ran out of time could not decide: the
  // person is asked as usual (what happens without hooks). Any other fault is
  // a broken gate: deny.
  faultDecision: (fault, policy, hook) => {
    if (policy === 'open') return null;
    return fault.kind === 'timeout' ? { action: 'ask' } : { action: 'deny', reason: faultReason(hook, fault) };
  },
};
