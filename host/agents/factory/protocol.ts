import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { eventRows } from '../bridge-parts.ts';
import type { ClaudeFormatEvent } from '../claude-format/protocol.ts';

/**
 * Factory Droid's hook events hookbox answers (the Claude format, read by
 * `claude-format/`), and what each decision becomes — measured with the
 * `droid` binary 0.225.2 against a mock Anthropic API, by logging what a hook
 * received and what the model was sent next. The README's copy is checked
 * against it by a test.
 */
export const FACTORY_SEAM_EVENTS = {
  'agent/session-start': [{ event: 'SessionStart', answers: 'context → `hookSpecificOutput.additionalContext`' }],
  'agent/prompt-submit': [
    {
      event: 'UserPromptSubmit',
      answers: 'block → `decision: "block"` + reason; context → `additionalContext`; a rewrite → block with the reason — but `droid exec` sends no UserPromptSubmit (measured): headless, prompts are not decided',
    },
  ],
  'tools/pre-execute': [
    { event: 'PreToolUse', answers: 'deny / ask → `permissionDecision` + reason (the model reads "Error: <reason>"); allow → no answer; a rewrite → `permissionDecision: "allow"` + `updatedInput` for `Execute`, else a deny with the reason (factory/rewrites.ts)' },
  ],
  'tools/post-execute': [
    {
      event: 'PostToolUse',
      answers:
        'block → `continue: false` + `stopReason` (the session ends before the model sees the output); context → `additionalContext`; replaced content → block (Factory ignores `updatedToolOutput`)',
    },
    { event: 'PostToolUseFailure', answers: 'as PostToolUse; the result is the error text, `isError: true`' },
  ],
  'agent/turn-continuation': [
    { event: 'Stop', answers: 'continue {reason} → `decision: "block"` + reason (the Claude format\'s; not measured in Factory); stop → no answer' },
  ],
  // The lifecycle events (#51) the 0.225.2 binary names (no SubagentStart, no PermissionRequest); SessionEnd measured headless.
  'tools/permission-request': [],
  'agent/subagent-start': [],
  'agent/subagent-stop': [
    { event: 'SubagentStop', answers: 'continue {reason} → `decision: "block"` + reason (the Claude format\'s; not fired here), within hookbox\'s continuation cap; stop → no answer' },
  ],
  'agent/notification': [{ event: 'Notification', answers: 'none: heard only (not fired here)' }],
  'agent/pre-compact': [{ event: 'PreCompact', answers: 'block → `decision: "block"` + reason (the Claude format\'s; not fired here)' }],
  'agent/session-end': [{ event: 'SessionEnd', answers: 'none: heard only (measured: `droid exec` sends `reason: "other"`)' }],
} as const satisfies SeamEventTable<ClaudeFormatEvent>;

/** FACTORY_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const FACTORY_EVENTS: readonly AgentEventMapping[] = eventRows(FACTORY_SEAM_EVENTS);
