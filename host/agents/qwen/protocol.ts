import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { eventRows } from '../bridge-parts.ts';
import type { ClaudeFormatEvent } from '../claude-format/protocol.ts';

/**
 * Qwen Code's hook events hookbox answers (the Claude format, read by
 * `claude-format/`), and what each decision becomes — measured with Qwen Code
 * 0.24.4 against the mock chat model (`tests/integration/agent-qwen.spec.ts`).
 * The README's copy is checked against it by a test.
 */
export const QWEN_SEAM_EVENTS = {
  'agent/session-start': [{ event: 'SessionStart', answers: 'context → `hookSpecificOutput.additionalContext`' }],
  'agent/prompt-submit': [
    {
      event: 'UserPromptSubmit',
      answers: 'block → `decision: "block"` + reason; context → `additionalContext`; a rewrite → block with the reason; the empty one Qwen sends before each model call that follows a tool result → passed (no prompt of the user\'s)',
    },
  ],
  'tools/pre-execute': [
    { event: 'PreToolUse', answers: 'deny / ask → `permissionDecision` + reason (the model reads the reason); allow → no answer; a rewrite → deny with the reason (Qwen ignores `updatedInput`, measured)' },
  ],
  'tools/post-execute': [
    {
      event: 'PostToolUse',
      answers:
        'block → `continue: false` + `stopReason` (the model reads the reason in place of the output; `decision: "block"` alone lets the output through); context → `additionalContext`; replaced content → block (Qwen ignores `updatedToolOutput`)',
    },
    { event: 'PostToolUseFailure', answers: 'as PostToolUse; the result is the error text, `isError: true`' },
  ],
  'agent/turn-continuation': [
    { event: 'Stop', answers: 'continue {reason} → `decision: "block"` + reason (the next user message; `stop_hook_active` + hookbox\'s cap end it); stop → no answer' },
  ],
  // The lifecycle events (#51), all six in the 0.24.4 bundle, in Claude Code's forms; SubagentStart/Stop and Notification measured headless.
  'tools/permission-request': [
    { event: 'PermissionRequest', answers: 'deny → `hookSpecificOutput.decision: {behavior: "deny", message}`; allow → `behavior: "allow"`; ask → no answer (Claude Code\'s forms; not fired headless here: `--yolo` asks nothing)' },
  ],
  'agent/subagent-start': [{ event: 'SubagentStart', answers: 'context → `hookSpecificOutput.additionalContext` (measured: an `agent` call fires it; the context\'s effect not measured)' }],
  'agent/subagent-stop': [
    { event: 'SubagentStop', answers: 'continue {reason} → `decision: "block"` + reason (measured: fired when the subagent finishes; its effect not measured), within hookbox\'s continuation cap; stop → no answer' },
  ],
  'agent/notification': [{ event: 'Notification', answers: 'none: heard only (measured: `notification_type: "auth_success"` at start-up)' }],
  'agent/pre-compact': [{ event: 'PreCompact', answers: 'block → `decision: "block"` + reason (Claude Code\'s form; not fired headless here)' }],
  'agent/session-end': [{ event: 'SessionEnd', answers: 'none: heard only (in the binary; `qwen -p` does not send it, measured)' }],
} as const satisfies SeamEventTable<ClaudeFormatEvent>;

/** QWEN_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const QWEN_EVENTS: readonly AgentEventMapping[] = eventRows(QWEN_SEAM_EVENTS);
