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
      answers:
        'deny / ask → `permissionDecision` + reason; allow → no answer (Claude Code\'s own permission rules still apply); a rewrite → `permissionDecision: "allow"` + `updatedInput` (the tool\'s own input) + the note as `additionalContext`, or a deny where it has no exact way back (claude-code/rewrites.ts)',
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
  // The lifecycle events (#51), measured headless with 2.1.328 (host/agents/README.md, "Lifecycle events").
  'tools/permission-request': [
    {
      event: 'PermissionRequest',
      answers:
        'deny → `hookSpecificOutput.decision: {behavior: "deny", message}` (measured headless: a Write outside `--allowedTools` refused, the model reads the message as the tool\'s error); allow → `behavior: "allow"` (no prompt); ask → no answer (Claude Code asks, or headless refuses, as without hooks)',
    },
  ],
  'agent/subagent-start': [{ event: 'SubagentStart', answers: 'context → `hookSpecificOutput.additionalContext` (measured: in the subagent\'s first model request)' }],
  'agent/subagent-stop': [
    {
      event: 'SubagentStop',
      answers:
        'continue {reason} → `decision: "block"` + reason (measured: the subagent reads it and goes on; Claude Code does not stop it by itself, hookbox\'s continuation cap does); stop → no answer',
    },
  ],
  'agent/notification': [{ event: 'Notification', answers: 'none: heard only (not fired headless here)' }],
  'agent/pre-compact': [
    { event: 'PreCompact', answers: 'block → `decision: "block"` + reason (Claude Code ≥ 2.1.105; `-p "/compact"` fires the event, measured); allow → no answer (its context for the summary is not taken)' },
  ],
  'agent/session-end': [{ event: 'SessionEnd', answers: 'none: heard only (measured: `-p` sends `reason: "other"`)' }],
} as const satisfies SeamEventTable<ClaudeFormatEvent>;

/** CLAUDE_CODE_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const CLAUDE_CODE_EVENTS: readonly AgentEventMapping[] = eventRows(CLAUDE_CODE_SEAM_EVENTS);
