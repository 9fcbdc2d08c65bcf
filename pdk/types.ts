/**
 * The seam types hook authors see, generated from the host's single seam
 * contract (`npm run gen` writes `./generated/seams.ts` from `host/seams`).
 * This file is the one place that names where they come from.
 */
export type {
  ContinuationDecision,
  Envelope,
  PostToolDecision,
  PostToolPayload,
  PreToolDecision,
  PreToolPayload,
  PromptDecision,
  PromptSubmitPayload,
  SeamId,
  SeamTypes,
  SessionInfo,
  SessionStartDecision,
  SessionStartPayload,
  TurnContinuationPayload,
} from './generated/seams.ts';
