import * as z from 'zod';
import type { PayloadOf } from '../seams/index.ts';
import type { ParsedAgentEvent } from './agent-bridge.ts';
import { type ReadAgentEvent, oneSeam, toolCallIdFromCall } from './bridge-parts.ts';
import type { OurToolCall } from './tool-names.ts';

/**
 * The lifecycle events beyond the five seams (#51) as the agents of Claude
 * Code's hook names send them: session end, compaction, subagents, the
 * agent's own permission prompt, notifications. Claude Code, Qwen Code,
 * Factory Droid, Codex and Gemini CLI share the field names (measured: the
 * payloads each real binary sent a logging hook, 2026-12-07 —
 * `host/agents/README.md`, "Lifecycle events"); what each decision becomes
 * is the agent's own and lives in its bridge.
 */
export const LIFECYCLE_EVENT_SCHEMAS = {
  /** Claude Code 2.1.328 `-p`: `reason: "other"`; Gemini CLI `"exit"`; Codex, Factory `"other"`. */
  SessionEnd: z.looseObject({ reason: z.unknown().optional() }),
  /** `trigger: "manual"` (`/compact`, `/compress`) or `"auto"`; Claude Code's `custom_instructions` (null without). */
  PreCompact: z.looseObject({ trigger: z.unknown().optional(), custom_instructions: z.string().nullable().optional() }),
  // `null` where an agent sends no value (Codex's Stop sends `last_assistant_message: null`): read as none.
  SubagentStart: z.looseObject({ agent_id: z.string().nullable().optional(), agent_type: z.string().nullable().optional() }),
  SubagentStop: z.looseObject({
    agent_id: z.string().nullable().optional(),
    agent_type: z.string().nullable().optional(),
    stop_hook_active: z.boolean().optional(),
    last_assistant_message: z.string().nullable().optional(),
  }),
  PermissionRequest: z.looseObject({ tool_name: z.string().min(1), tool_input: z.record(z.string(), z.unknown()), tool_use_id: z.string().nullable().optional() }),
  /** Qwen Code 0.24.4: `{message, notification_type: "auth_success", title}`. */
  Notification: z.looseObject({ message: z.string(), notification_type: z.string().nullable().optional(), title: z.string().nullable().optional() }),
} as const;

/** Gemini CLI names its compaction event PreCompress; the fields are PreCompact's. */
export const PRE_COMPRESS_SCHEMA = LIFECYCLE_EVENT_SCHEMAS.PreCompact;

type SessionEndReason = PayloadOf<'agent/session-end'>['reason'];

/**
 * An agent's end reason in hookbox's closed set. Claude Code sends `clear`,
 * `logout`, `prompt_input_exit`, `other`…; Gemini CLI `exit`, `clear`,
 * `logout`; Copilot CLI `complete`, `error`, `abort`, `timeout`,
 * `user_exit`; pi `quit`, `reload`, `new`, `resume`, `fork`. A reason
 * hookbox has no word for is `other`.
 */
export function sessionEndReason(reason: unknown): SessionEndReason {
  switch (reason) {
    case 'exit':
    case 'quit':
    case 'prompt_input_exit':
    case 'user_exit':
    case 'complete':
      return 'exit';
    case 'clear':
      return 'clear';
    case 'logout':
      return 'logout';
    case 'error':
    case 'abort':
    case 'timeout':
      return 'error';
    default:
      return 'other';
  }
}

/** What a notification is about, from Claude Code's and Qwen Code's `notification_type`; anything else is `other`. */
export function notificationKind(type: unknown): PayloadOf<'agent/notification'>['kind'] {
  switch (type) {
    case 'permission_prompt':
    case 'tool_permission':
    case 'ToolPermission':
      return 'permission';
    case 'idle_prompt':
      return 'idle';
    case 'auth_success':
      return 'auth';
    case 'elicitation_dialog':
      return 'elicitation';
    default:
      return 'other';
  }
}

/** A non-empty string, else nothing (an agent's `null` or `""` is no value). */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The session ended: its reason in hookbox's words. */
export function sessionEndEvent(read: ReadAgentEvent): ParsedAgentEvent {
  return oneSeam(read, 'agent/session-end', { reason: sessionEndReason(read.data.reason) });
}

/** The agent is about to compact its context: who asked, and the person's own instructions when it passes them. */
export function preCompactEvent(read: ReadAgentEvent): ParsedAgentEvent {
  const instructions = text(read.data.custom_instructions);
  return oneSeam(read, 'agent/pre-compact', { trigger: read.data.trigger === 'manual' ? 'manual' : 'auto', ...(instructions !== undefined && { instructions }) });
}

/** A subagent starts: its kind and id as the agent names them. */
export function subagentStartEvent(read: ReadAgentEvent): ParsedAgentEvent {
  const agentId = text(read.data.agent_id);
  return oneSeam(read, 'agent/subagent-start', { agentType: text(read.data.agent_type) ?? 'unknown', ...(agentId !== undefined && { agentId }) });
}

/**
 * A subagent is about to hand back its result. `stop_hook_active` (it was
 * already forced on by a hook) is `alreadyContinued`, as for a Stop; the
 * server counts the continuations and caps them.
 */
export function subagentStopEvent(read: ReadAgentEvent): ParsedAgentEvent {
  const { data } = read;
  const agentId = text(data.agent_id);
  const agentType = text(data.agent_type);
  const last = text(data.last_assistant_message);
  return oneSeam(
    read,
    'agent/subagent-stop',
    { continuations: 0, ...(agentId !== undefined && { agentId }), ...(agentType !== undefined && { agentType }), ...(last !== undefined && { lastAssistantText: last }) },
    { alreadyContinued: data.stop_hook_active === true },
  );
}

/**
 * The agent is about to ask its user whether a tool call may run: the call
 * in hookbox's names (the agent's closed-world tool table, as for
 * PreToolUse), its id or one derived from the call.
 */
export function permissionRequestEvent(
  agent: string,
  fromTool: (toolName: string, input: Readonly<Record<string, unknown>>, cwd: string) => OurToolCall,
): (read: ReadAgentEvent) => ParsedAgentEvent {
  return (read) => {
    const { data, cwd } = read;
    const call = fromTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
    const id = text(data.tool_use_id) ?? toolCallIdFromCall(agent, data.tool_name as string, data.tool_input);
    return oneSeam(read, 'tools/permission-request', { toolCallId: id, toolName: call.toolName, arguments: call.arguments });
  };
}

/** The agent's message to its user (untrusted text), and what it is about. */
export function notificationEvent(read: ReadAgentEvent): ParsedAgentEvent {
  const title = text(read.data.title);
  return oneSeam(read, 'agent/notification', {
    kind: notificationKind(read.data.notification_type),
    message: read.data.message as string,
    ...(title !== undefined && { title }),
  });
}
