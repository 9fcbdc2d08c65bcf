/* Generated from host/seams by `npm run gen`; do not edit. */
/* eslint-disable */

import type { SeamId } from './seam-names.ts';
export type { SeamId } from './seam-names.ts';

/** The wire protocol version this PDK speaks. */
export const PROTOCOL_VERSION = 1;

export interface SessionInfo {
  id: string;
  turn: number;
  step: number;
  cwd: string;
}

export interface HookFault {
  kind:
    | 'timeout'
    | 'trap'
    | 'memory'
    | 'output-too-large'
    | 'decode'
    | 'schema'
    | 'plugin-error'
    | 'missing-export'
    | 'load';
  message: string;
}

export interface SessionStartPayload {
  source: 'startup' | 'resume' | 'clear' | 'compact';
}

export interface SessionStartDecision {
  additionalContext?: string;
}

export interface PromptSubmitPayload {
  content: string;
  source: 'cli' | 'stdin' | 'api' | 'acp';
}

export type PromptDecision =
  | {
      action: 'allow';
      content?: string;
      additionalContext?: string;
    }
  | {
      action: 'block';
      reason: string;
    };

export interface PreToolPayload {
  toolCallId: string;
  toolName: string;
  arguments: {
    [k: string]: unknown;
  };
}

export type PreToolDecision =
  | {
      action: 'allow';
      reason?: string;
    }
  | {
      action: 'deny';
      reason: string;
    }
  | {
      action: 'ask';
      reason?: string;
    };

export interface PostToolPayload {
  toolCallId: string;
  toolName: string;
  arguments: {
    [k: string]: unknown;
  };
  result: {
    content: string;
    isError: boolean;
  };
}

export type PostToolDecision =
  | {
      action: 'accept';
      content?: string;
      additionalContext?: string;
    }
  | {
      action: 'block';
      reason: string;
    };

export interface TurnContinuationPayload {
  continuations: number;
  lastAssistantText?: string;
}

export type ContinuationDecision =
  | {
      action: 'stop';
    }
  | {
      action: 'continue';
      reason?: string;
    };

/** The payload and decision type of each seam. */
export interface SeamTypes {
  'agent/session-start': { payload: SessionStartPayload; decision: SessionStartDecision };
  'agent/prompt-submit': { payload: PromptSubmitPayload; decision: PromptDecision };
  'tools/pre-execute': { payload: PreToolPayload; decision: PreToolDecision };
  'tools/post-execute': { payload: PostToolPayload; decision: PostToolDecision };
  'agent/turn-continuation': { payload: TurnContinuationPayload; decision: ContinuationDecision };
}

/** What a hook export receives (msgpack). */
export interface Envelope<P, D> {
  v: typeof PROTOCOL_VERSION;
  seam: SeamId;
  session: SessionInfo;
  payload: P;
  next: D | null;
}
