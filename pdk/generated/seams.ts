/* Generated from host/seams by `npm run gen`; do not edit. */
/* eslint-disable */

import type { SeamId } from './seam-names.ts';
export type { SeamId } from './seam-names.ts';

/** The wire protocol version this PDK speaks. */
export const PROTOCOL_VERSION = 1;

/** The session facts every hook call carries: `{id, turn, step, cwd}`. */
export interface SessionInfo {
  id: string;
  turn: number;
  step: number;
  cwd: string;
}

/** A hook failure as the host records it. */
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

/** What a `agent/session-start` hook receives. */
export interface SessionStartPayload {
  source: 'startup' | 'resume' | 'clear' | 'compact';
}

/** What a `agent/session-start` hook may answer. */
export interface SessionStartDecision {
  additionalContext?: string;
}

/** What a `agent/prompt-submit` hook receives. */
export interface PromptSubmitPayload {
  content: string;
  source: 'cli' | 'stdin' | 'api' | 'acp';
}

/** What a `agent/prompt-submit` hook may answer. */
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

/** What a `tools/pre-execute` hook receives. */
export interface PreToolPayload {
  toolCallId: string;
  toolName: string;
  arguments: {
    [k: string]: unknown;
  };
}

/** What a `tools/pre-execute` hook may answer. */
export type PreToolDecision =
  | {
      action: 'allow';
      reason?: string;
      arguments?: {
        [k: string]: unknown;
      };
    }
  | {
      action: 'deny';
      reason: string;
    }
  | {
      action: 'ask';
      reason?: string;
    };

/** What a `tools/permission-request` hook receives. */
export interface PermissionRequestPayload {
  toolCallId: string;
  toolName: string;
  arguments: {
    [k: string]: unknown;
  };
  reason?: string;
}

/** What a `tools/permission-request` hook may answer. */
export type PermissionDecision =
  | {
      action: 'ask';
      reason?: string;
    }
  | {
      action: 'allow';
      reason?: string;
    }
  | {
      action: 'deny';
      reason: string;
    };

/** What a `tools/post-execute` hook receives. */
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

/** What a `tools/post-execute` hook may answer. */
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

/** What a `agent/subagent-start` hook receives. */
export interface SubagentStartPayload {
  agentId?: string;
  agentType: string;
}

/** What a `agent/subagent-start` hook may answer. */
export interface SubagentStartDecision {
  additionalContext?: string;
}

/** What a `agent/subagent-stop` hook receives. */
export interface SubagentStopPayload {
  agentId?: string;
  agentType?: string;
  continuations: number;
  lastAssistantText?: string;
}

/** What a `agent/turn-continuation` hook may answer. */
export type ContinuationDecision =
  | {
      action: 'stop';
    }
  | {
      action: 'continue';
      reason?: string;
    };

/** What a `agent/turn-continuation` hook receives. */
export interface TurnContinuationPayload {
  continuations: number;
  lastAssistantText?: string;
}

/** What a `agent/notification` hook receives. */
export interface NotificationPayload {
  kind: 'permission' | 'idle' | 'auth' | 'elicitation' | 'other';
  message: string;
  title?: string;
}

/** What a `agent/notification` hook may answer. */
export interface NotificationDecision {}

/** What a `agent/pre-compact` hook receives. */
export interface PreCompactPayload {
  trigger: 'manual' | 'auto';
  instructions?: string;
}

/** What a `agent/pre-compact` hook may answer. */
export type PreCompactDecision =
  | {
      action: 'allow';
      additionalContext?: string;
    }
  | {
      action: 'block';
      reason: string;
    };

/** What a `agent/session-end` hook receives. */
export interface SessionEndPayload {
  reason: 'exit' | 'clear' | 'logout' | 'error' | 'other';
}

/** What a `agent/session-end` hook may answer. */
export interface SessionEndDecision {}

/** The payload and decision type of each seam. */
export interface SeamTypes {
  'agent/session-start': { payload: SessionStartPayload; decision: SessionStartDecision };
  'agent/prompt-submit': { payload: PromptSubmitPayload; decision: PromptDecision };
  'tools/pre-execute': { payload: PreToolPayload; decision: PreToolDecision };
  'tools/permission-request': { payload: PermissionRequestPayload; decision: PermissionDecision };
  'tools/post-execute': { payload: PostToolPayload; decision: PostToolDecision };
  'agent/subagent-start': { payload: SubagentStartPayload; decision: SubagentStartDecision };
  'agent/subagent-stop': { payload: SubagentStopPayload; decision: ContinuationDecision };
  'agent/turn-continuation': { payload: TurnContinuationPayload; decision: ContinuationDecision };
  'agent/notification': { payload: NotificationPayload; decision: NotificationDecision };
  'agent/pre-compact': { payload: PreCompactPayload; decision: PreCompactDecision };
  'agent/session-end': { payload: SessionEndPayload; decision: SessionEndDecision };
}

/** What a hook export receives (msgpack). */
export interface Envelope<P, D> {
  v: typeof PROTOCOL_VERSION;
  seam: SeamId;
  session: SessionInfo;
  payload: P;
  next: D | null;
}
