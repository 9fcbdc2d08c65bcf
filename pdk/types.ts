/**
 * The seam types hook authors see, generated from the host's single seam
 * contract (`npm run gen` writes `./generated/seams.ts` from `host/seams`).
 * This file is the one place that names where they come from.
 */
export type {
  ContinuationDecision,
  Envelope,
  NotificationDecision,
  NotificationPayload,
  PermissionDecision,
  PermissionRequestPayload,
  PostToolDecision,
  PostToolPayload,
  PreCompactDecision,
  PreCompactPayload,
  PreToolDecision,
  PreToolPayload,
  PromptDecision,
  PromptSubmitPayload,
  SeamId,
  SeamTypes,
  SessionEndDecision,
  SessionEndPayload,
  SessionInfo,
  SessionStartDecision,
  SessionStartPayload,
  SubagentStartDecision,
  SubagentStartPayload,
  SubagentStopPayload,
  TurnContinuationPayload,
} from './generated/seams.ts';
