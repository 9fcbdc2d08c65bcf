import * as z from 'zod';
import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { eventRows } from '../bridge-parts.ts';

/**
 * Claude Code's hook events hookbox answers, and what each decision becomes.
 * Keyed by seam, read in both directions: event → seam when Claude Code calls
 * hookbox, seam → its first event when hookbox runs a hook of this format.
 * The one table: the README's copy is checked against it by a test.
 */
export const CLAUDE_CODE_SEAM_EVENTS = {
  'agent/session-start': [
    { event: 'SessionStart', answers: 'context → `hookSpecificOutput.additionalContext`' },
  ],
  'agent/prompt-submit': [
    {
      event: 'UserPromptSubmit',
      answers: 'block → `decision: "block"` + reason; context → `additionalContext`; a rewrite → block with the reason (Claude Code cannot take a rewritten prompt)',
    },
  ],
  'tools/pre-execute': [
    {
      event: 'PreToolUse',
      answers: 'deny / ask → `permissionDecision` + reason; allow → no answer (Claude Code\'s own permission rules still apply)',
    },
  ],
  'tools/post-execute': [
    {
      event: 'PostToolUse',
      answers:
        'block → `continue: false` + `stopReason` (ends the turn: `decision: "block"` alone still shows the model the output); context → `additionalContext`; replaced content → `updatedToolOutput` in the tool\'s own shape (Bash, Read; other tools → block)',
    },
    { event: 'PostToolUseFailure', answers: 'as PostToolUse; the result is the error text, `isError: true`' },
  ],
  'agent/turn-continuation': [
    {
      event: 'Stop',
      answers: 'continue {reason} → `decision: "block"` + reason (within `stop_hook_active` and hookbox\'s continuation cap); stop → no answer',
    },
  ],
} as const satisfies SeamEventTable;

/** CLAUDE_CODE_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const CLAUDE_CODE_EVENTS: readonly AgentEventMapping[] = eventRows(CLAUDE_CODE_SEAM_EVENTS);

const ToolFields = {
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  // Claude Code sends it; Copilot CLI and Factory Droid, which read a Claude Code setup, do not.
  tool_use_id: z.string().optional(),
};
/**
 * A tool's result as Copilot CLI 1.0.102 reports it in Claude-format events
 * (in place of Claude Code's `tool_response`): the text the model is shown,
 * and whether the call succeeded.
 */
export const CopilotToolResultSchema = z.looseObject({ result_type: z.string(), text_result_for_llm: z.string() });

/**
 * The JSON of each event hookbox reads from Claude Code, beyond the fields
 * every event carries — and from agents that read a Claude Code setup
 * (Copilot CLI): an event is decided on what it carries, so a field only
 * Claude Code sends (`tool_use_id`, `transcript_path`, `permission_mode`)
 * is never required, and a session source hookbox has no name for (Copilot's
 * `"new"`) starts a session as `startup` does.
 */
export const CLAUDE_CODE_EVENT_SCHEMAS = {
  SessionStart: z.looseObject({ source: z.unknown().optional() }),
  UserPromptSubmit: z.looseObject({ prompt: z.string() }),
  PreToolUse: z.looseObject(ToolFields),
  PostToolUse: z
    .looseObject({ ...ToolFields, tool_response: z.unknown().optional(), tool_result: CopilotToolResultSchema.optional() })
    .refine((data) => data.tool_response !== undefined || data.tool_result !== undefined, {
      message: 'a tool_response (Claude Code) or tool_result (Copilot CLI)',
      path: ['tool_response'],
    }),
  PostToolUseFailure: z.looseObject({ ...ToolFields, error: z.string() }),
  Stop: z.looseObject({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().optional() }),
} as const;
/** A Claude Code event hookbox reads. */
export type ClaudeCodeEvent = keyof typeof CLAUDE_CODE_EVENT_SCHEMAS;
