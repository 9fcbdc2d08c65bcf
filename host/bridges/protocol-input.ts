import type { SeamCall } from '../events/index.ts';
import type { PayloadOf, SeamId } from '../seams/index.ts';
import { EVENT_FOR_SEAM, type ToolProtocol } from './protocol.ts';
import { toProtocolToolInput, toProtocolToolName, toProtocolToolResponse } from '../agents/tool-names.ts';

/** The `model` Codex hooks receive: hookbox does not tell hooks which model runs. */
export const CODEX_MODEL_PLACEHOLDER = 'hookbox';

/**
 * The JSON a Claude Code (or Codex) hook reads on stdin for one seam call,
 * with the fields each documents for its event:
 *
 * - every event: `session_id`, `transcript_path`, `cwd`, `permission_mode`,
 *   `hook_event_name` (Codex adds `model`, and `turn_id` at turn scope);
 * - SessionStart: `source`; UserPromptSubmit: `prompt`;
 * - PreToolUse: `tool_name`, `tool_input`, `tool_use_id`; PostToolUse adds `tool_response`;
 * - Stop: `stop_hook_active` = the turn was already forced on (`continuations > 0`)
 *   (Codex adds `last_assistant_message`);
 * - PermissionRequest: `tool_name`, `tool_input`; SubagentStart: `agent_id`,
 *   `agent_type`; SubagentStop: those, `stop_hook_active` and
 *   `last_assistant_message`; Notification: `message`, `title`,
 *   `notification_type`; PreCompact: `trigger`, `custom_instructions`;
 *   SessionEnd: `reason`.
 *
 * `transcript_path` is the Claude Code-format transcript the session writes
 * beside its log (`claude-transcript.ts`) when there is one, else `null`:
 * hookbox's session log is not a Claude Code transcript, and a hook that
 * parses one must not be handed another format (Codex hooks always get
 * `null`: Codex's rollout format is not written).
 * `permission_mode` is always `default` (hookbox has no permission modes).
 */
export function protocolInput<S extends SeamId>(protocol: ToolProtocol, call: SeamCall<S>, transcriptPath?: string): Record<string, unknown> {
  const { session } = call;
  const codex = protocol === 'codex';
  const common: Record<string, unknown> = {
    session_id: session.id,
    ...(codex && call.seam !== 'agent/session-start' && { turn_id: `turn-${session.turn}` }),
    transcript_path: protocol === 'claude-code' ? (transcriptPath ?? null) : null,
    cwd: session.cwd,
    ...(codex && { model: CODEX_MODEL_PLACEHOLDER }),
    permission_mode: 'default',
    hook_event_name: EVENT_FOR_SEAM[call.seam],
  };
  const fields = EVENT_FIELDS[call.seam] as (payload: unknown, protocol: ToolProtocol, cwd: string) => Record<string, unknown>;
  return { ...common, ...fields(call.payload, protocol, session.cwd) };
}

/** Each seam's own fields of the event, beside the common ones (keyed by every seam: a new one must be mapped). */
const EVENT_FIELDS: { readonly [S in SeamId]: (payload: PayloadOf<S>, protocol: ToolProtocol, cwd: string) => Record<string, unknown> } = {
  'agent/session-start': (payload) => ({ source: payload.source }),
  'agent/prompt-submit': (payload) => ({ prompt: payload.content }),
  'tools/pre-execute': (payload, protocol, cwd) => ({ ...toolFields(protocol, payload, cwd), tool_use_id: payload.toolCallId }),
  'tools/post-execute': (payload, protocol, cwd) => ({
    ...toolFields(protocol, payload, cwd),
    tool_response: toProtocolToolResponse(protocol, payload.toolName, payload.arguments, payload.result, cwd),
    tool_use_id: payload.toolCallId,
  }),
  'agent/turn-continuation': (payload, protocol) => ({
    stop_hook_active: payload.continuations > 0,
    ...(protocol === 'codex' && { last_assistant_message: payload.lastAssistantText ?? null }),
  }),
  'tools/permission-request': (payload, protocol, cwd) => toolFields(protocol, payload, cwd),
  'agent/subagent-start': (payload) => ({ agent_id: payload.agentId ?? '', agent_type: payload.agentType }),
  'agent/subagent-stop': (payload) => ({
    stop_hook_active: payload.continuations > 0,
    agent_id: payload.agentId ?? '',
    agent_type: payload.agentType ?? '',
    last_assistant_message: payload.lastAssistantText ?? null,
  }),
  'agent/notification': (payload) => ({
    message: payload.message,
    ...(payload.title !== undefined && { title: payload.title }),
    notification_type: NOTIFICATION_TYPE[payload.kind],
  }),
  'agent/pre-compact': (payload) => ({ trigger: payload.trigger, custom_instructions: payload.instructions ?? '' }),
  'agent/session-end': (payload) => ({ reason: SESSION_END_REASON[payload.reason] }),
};

/** Claude Code's `notification_type` for each kind of notification. */
const NOTIFICATION_TYPE: { readonly [K in PayloadOf<'agent/notification'>['kind']]: string } = {
  permission: 'permission_prompt',
  idle: 'idle_prompt',
  auth: 'auth_success',
  elicitation: 'elicitation_dialog',
  other: 'other',
};

/** Claude Code's SessionEnd `reason` for each of hookbox's (it names an exit from the prompt `prompt_input_exit`). */
const SESSION_END_REASON: { readonly [R in PayloadOf<'agent/session-end'>['reason']]: string } = {
  exit: 'prompt_input_exit',
  clear: 'clear',
  logout: 'logout',
  error: 'other',
  other: 'other',
};

/** `tool_name` and `tool_input` of a tool seam's call, in the protocol's names and shapes. */
function toolFields(protocol: ToolProtocol, payload: PayloadOf<'tools/pre-execute'>, cwd: string): Record<string, unknown> {
  return {
    tool_name: toProtocolToolName(protocol, payload.toolName),
    tool_input: toProtocolToolInput(protocol, payload.toolName, payload.arguments, cwd),
  };
}
