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
 *   (Codex adds `last_assistant_message`).
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
  switch (call.seam) {
    case 'agent/session-start': {
      const payload = call.payload as PayloadOf<'agent/session-start'>;
      return { ...common, source: payload.source };
    }
    case 'agent/prompt-submit': {
      const payload = call.payload as PayloadOf<'agent/prompt-submit'>;
      return { ...common, prompt: payload.content };
    }
    case 'tools/pre-execute': {
      const payload = call.payload as PayloadOf<'tools/pre-execute'>;
      return { ...common, ...toolFields(protocol, payload, session.cwd), tool_use_id: payload.toolCallId };
    }
    case 'tools/post-execute': {
      const payload = call.payload as PayloadOf<'tools/post-execute'>;
      return {
        ...common,
        ...toolFields(protocol, payload, session.cwd),
        tool_response: toProtocolToolResponse(protocol, payload.toolName, payload.arguments, payload.result, session.cwd),
        tool_use_id: payload.toolCallId,
      };
    }
    case 'agent/turn-continuation': {
      const payload = call.payload as PayloadOf<'agent/turn-continuation'>;
      return {
        ...common,
        stop_hook_active: payload.continuations > 0,
        ...(codex && { last_assistant_message: payload.lastAssistantText ?? null }),
      };
    }
  }
  // Exhaustive over SeamId; a new seam must be mapped here.
  throw new Error(`no ${protocol} event for seam ${String(call.seam)}`);
}

/** `tool_name` and `tool_input` of a tool seam's call, in the protocol's names and shapes. */
function toolFields(protocol: ToolProtocol, payload: PayloadOf<'tools/pre-execute'>, cwd: string): Record<string, unknown> {
  return {
    tool_name: toProtocolToolName(protocol, payload.toolName),
    tool_input: toProtocolToolInput(protocol, payload.toolName, payload.arguments, cwd),
  };
}
