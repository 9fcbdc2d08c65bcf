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
/** The JSON of each event hookbox reads from Claude Code, beyond the fields every event carries. */
export const CLAUDE_CODE_EVENT_SCHEMAS = {
  SessionStart: z.looseObject({ source: z.enum(['startup', 'resume', 'clear', 'compact']) }),
  UserPromptSubmit: z.looseObject({ prompt: z.string() }),
  PreToolUse: z.looseObject(ToolFields),
  PostToolUse: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  PostToolUseFailure: z.looseObject({ ...ToolFields, error: z.string() }),
  Stop: z.looseObject({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().optional() }),
} as const;
/** A Claude Code event hookbox reads. */
export type ClaudeCodeEvent = keyof typeof CLAUDE_CODE_EVENT_SCHEMAS;
