import type { z } from 'zod';
import type { SeamId as GeneratedSeamId } from '../../pdk/generated/seam-names.ts';
import { notificationSeam } from './notification.ts';
import { permissionRequestSeam } from './permission-request.ts';
import { postToolSeam } from './post-tool.ts';
import { preCompactSeam } from './pre-compact.ts';
import { preToolSeam } from './pre-tool.ts';
import { promptSubmitSeam } from './prompt-submit.ts';
import type { SeamDefinition, SeamExport } from './seam.ts';
import { sessionEndSeam } from './session-end.ts';
import { sessionStartSeam } from './session-start.ts';
import { subagentStartSeam } from './subagent-start.ts';
import { subagentStopSeam } from './subagent-stop.ts';
import { turnContinuationSeam } from './turn-continuation.ts';

/**
 * Every seam, in lifecycle order. The single source of the wire contract;
 * `npm run gen` writes the seam names from it, and `satisfies` keeps the two in
 * step (a seam missing here or not yet generated fails `tsc`).
 */
export const SEAMS = {
  'agent/session-start': sessionStartSeam,
  'agent/prompt-submit': promptSubmitSeam,
  'tools/pre-execute': preToolSeam,
  'tools/permission-request': permissionRequestSeam,
  'tools/post-execute': postToolSeam,
  'agent/subagent-start': subagentStartSeam,
  'agent/subagent-stop': subagentStopSeam,
  'agent/turn-continuation': turnContinuationSeam,
  'agent/notification': notificationSeam,
  'agent/pre-compact': preCompactSeam,
  'agent/session-end': sessionEndSeam,
} as const satisfies { readonly [S in GeneratedSeamId]: SeamDefinition<S, z.ZodType, z.ZodType> };

/** The type of `SEAMS`. */
export type Seams = typeof SEAMS;
/** A seam id (`tools/pre-execute`, …). */
export type SeamId = keyof Seams;
/** The payload type of a seam. */
export type PayloadOf<S extends SeamId> = z.infer<Seams[S]['payload']>;
/** The decision type of a seam. */
export type DecisionOf<S extends SeamId> = z.infer<Seams[S]['decision']>;

/** Every seam id, in lifecycle order. */
export const SEAM_IDS = Object.keys(SEAMS) as SeamId[];

/** Whether a string is a seam id. */
export function isSeamId(value: string): value is SeamId {
  return Object.hasOwn(SEAMS, value);
}

/** The seam a wasm export name handles, if any. */
export function seamForExport(name: string): SeamId | undefined {
  return SEAM_IDS.find((id) => SEAMS[id].exportName === name);
}

export function exportForSeam(id: SeamId): SeamExport {
  return SEAMS[id].exportName;
}

/** A seam's definition typed by its id, for code that handles every seam alike. */
export type SeamOf<S extends SeamId> = SeamDefinition<S, z.ZodType<PayloadOf<S>>, z.ZodType<DecisionOf<S>>>;

export function seamDefinition<S extends SeamId>(id: S): SeamOf<S> {
  return SEAMS[id] as unknown as SeamOf<S>;
}

export { PROTOCOL_VERSION, SessionInfoSchema, envelopeSchema } from './envelope.ts';
export type { Envelope, SessionInfo } from './envelope.ts';
export { FailPolicySchema, HookFaultKindSchema, HookFaultSchema, hookFault } from './fault.ts';
export type { FailPolicy, HookFault, HookFaultKind } from './fault.ts';
export { SignalRunSchema } from './signal-run.ts';
export type { SignalRun } from './signal-run.ts';
export type { DispatchKind, SeamDefinition, SeamExport } from './seam.ts';
export { faultReason, joinContext } from './seam.ts';
export { SessionStartDecisionSchema, SessionStartPayloadSchema, SessionStartSourceSchema } from './session-start.ts';
export type { SessionStartDecision, SessionStartPayload, SessionStartSource } from './session-start.ts';
export { PromptDecisionSchema, PromptSourceSchema, PromptSubmitPayloadSchema } from './prompt-submit.ts';
export type { PromptDecision, PromptSource, PromptSubmitPayload } from './prompt-submit.ts';
export { AttributedAskSchema, PreToolDecisionSchema, PreToolPayloadSchema, describeAsks, standingAsks } from './pre-tool.ts';
export type { AttributedAsk, PreToolDecision, PreToolPayload } from './pre-tool.ts';
export { PostToolDecisionSchema, PostToolPayloadSchema, ToolResultSchema } from './post-tool.ts';
export type { PostToolDecision, PostToolPayload, ToolResult } from './post-tool.ts';
export { ContinuationDecisionSchema, TurnContinuationPayloadSchema } from './turn-continuation.ts';
export type { ContinuationDecision, TurnContinuationPayload } from './turn-continuation.ts';
export { PermissionDecisionSchema, PermissionRequestPayloadSchema } from './permission-request.ts';
export type { PermissionDecision, PermissionRequestPayload } from './permission-request.ts';
export { SubagentStartDecisionSchema, SubagentStartPayloadSchema } from './subagent-start.ts';
export type { SubagentStartDecision, SubagentStartPayload } from './subagent-start.ts';
export { SubagentStopDecisionSchema, SubagentStopPayloadSchema } from './subagent-stop.ts';
export type { SubagentStopDecision, SubagentStopPayload } from './subagent-stop.ts';
export { NotificationDecisionSchema, NotificationKindSchema, NotificationPayloadSchema } from './notification.ts';
export type { NotificationDecision, NotificationKind, NotificationPayload } from './notification.ts';
export { CompactTriggerSchema, PreCompactDecisionSchema, PreCompactPayloadSchema } from './pre-compact.ts';
export type { CompactTrigger, PreCompactDecision, PreCompactPayload } from './pre-compact.ts';
export { SessionEndDecisionSchema, SessionEndPayloadSchema, SessionEndReasonSchema } from './session-end.ts';
export type { SessionEndDecision, SessionEndPayload, SessionEndReason } from './session-end.ts';
