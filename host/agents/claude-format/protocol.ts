import * as z from 'zod';
import { LIFECYCLE_EVENT_SCHEMAS } from '../lifecycle-events.ts';

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
export const CLAUDE_FORMAT_EVENT_SCHEMAS = {
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
  // The lifecycle events (#51): an agent's table lists those it sends.
  ...LIFECYCLE_EVENT_SCHEMAS,
} as const;
/** A Claude-format event hookbox reads. */
export type ClaudeFormatEvent = keyof typeof CLAUDE_FORMAT_EVENT_SCHEMAS;
