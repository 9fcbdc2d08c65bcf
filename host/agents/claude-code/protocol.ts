import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { eventRows } from '../bridge-parts.ts';
import type { ClaudeFormatEvent } from '../claude-format/protocol.ts';

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
  // No event yet for the seams of issue #51: the seams-agents branch maps what this agent has.
  'tools/permission-request': [],
  'agent/subagent-start': [],
  'agent/subagent-stop': [],
  'agent/notification': [],
  'agent/pre-compact': [],
  'agent/session-end': [],
} as const satisfies SeamEventTable<ClaudeFormatEvent>;

/** CLAUDE_CODE_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const CLAUDE_CODE_EVENTS: readonly AgentEventMapping[] = eventRows(CLAUDE_CODE_SEAM_EVENTS);
