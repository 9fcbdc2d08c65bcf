import * as z from 'zod';
import { LIFECYCLE_EVENT_SCHEMAS } from '../lifecycle-events.ts';
import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { type EventOf, type EventSchemas, eventRows } from '../bridge-parts.ts';

/**
 * Codex's hook events hookbox answers, and what each decision becomes
 * (measured against the real `codex` 0.169.0: see host/agents/README.md).
 * Keyed by seam, read in both directions: event → seam when Codex calls
 * hookbox, seam → its first event when hookbox runs a hook of this format.
 * The one table: the README's copy is checked against it by a test.
 */
export const CODEX_SEAM_EVENTS = {
  'agent/session-start': [
    { event: 'SessionStart', answers: 'context → `hookSpecificOutput.additionalContext`' },
  ],
  'agent/prompt-submit': [
    {
      event: 'UserPromptSubmit',
      answers:
        'block → `decision: "block"` + reason (the model is never called); context → `additionalContext`; a rewrite → block with the reason (Codex cannot take a rewritten prompt)',
    },
  ],
  'tools/pre-execute': [
    {
      event: 'PreToolUse',
      answers:
        'deny → `permissionDecision: "deny"` + reason (the model reads "Command blocked by PreToolUse hook: <reason>"); ask → deny (Codex hooks cannot ask); allow → no answer; a rewrite → `permissionDecision: "allow"` + `updatedInput` for a shell call (its own form), a deny for `apply_patch` (codex/rewrites.ts)',
    },
  ],
  'tools/post-execute': [
    {
      event: 'PostToolUse',
      answers:
        'block → `decision: "block"` + reason (the model reads the reason in place of the output); replaced content → the same, the content as the reason; context → `additionalContext` (a developer message)',
    },
  ],
  'agent/turn-continuation': [
    {
      event: 'Stop',
      answers: 'continue {reason} → `decision: "block"` + reason (a new user turn; `stop_hook_active` + hookbox\'s cap end it); stop → no answer',
    },
  ],
  // The lifecycle events (#51) Codex 0.169.0 has (its hook trust labels); SessionEnd and PreCompact measured headless.
  'tools/permission-request': [
    {
      event: 'PermissionRequest',
      answers:
        'deny → `hookSpecificOutput.decision: {behavior: "deny", message}`; allow → `behavior: "allow"`; ask → no answer (Codex\'s documented form; not fired here: `approval_policy = "never"` asks nothing)',
    },
  ],
  'agent/subagent-start': [{ event: 'SubagentStart', answers: 'context → `hookSpecificOutput.additionalContext` (documented; not fired here: `spawn_agent` was "unsupported call")' }],
  'agent/subagent-stop': [
    { event: 'SubagentStop', answers: 'continue {reason} → `decision: "block"` + reason (documented; not fired here), within hookbox\'s continuation cap; stop → no answer' },
  ],
  'agent/notification': [],
  'agent/pre-compact': [
    {
      event: 'PreCompact',
      answers:
        'block → `continue: false` + `stopReason` (measured: Codex ignores `decision: "block"` on PreCompact and compacts; `continue: false` ends the run before the compaction\'s model call, `codex exec` exits 1); allow → no answer',
    },
  ],
  'agent/session-end': [{ event: 'SessionEnd', answers: 'none: heard only (measured: `codex exec` sends `reason: "other"`; Codex clamps a SessionEnd hook\'s timeout to 3 s)' }],
} as const satisfies SeamEventTable;

/** CODEX_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const CODEX_EVENTS: readonly AgentEventMapping[] = eventRows(CODEX_SEAM_EVENTS);

const ToolFields = {
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().min(1),
};
/** The JSON of each event hookbox reads from Codex, beyond the fields every event carries. */
export const CODEX_EVENT_SCHEMAS = {
  SessionStart: z.looseObject({ source: z.string().optional() }),
  UserPromptSubmit: z.looseObject({ prompt: z.string() }),
  PreToolUse: z.looseObject(ToolFields),
  PostToolUse: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  Stop: z.looseObject({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().nullable().optional() }),
  SessionEnd: LIFECYCLE_EVENT_SCHEMAS.SessionEnd,
  PreCompact: LIFECYCLE_EVENT_SCHEMAS.PreCompact,
  SubagentStart: LIFECYCLE_EVENT_SCHEMAS.SubagentStart,
  SubagentStop: LIFECYCLE_EVENT_SCHEMAS.SubagentStop,
  PermissionRequest: LIFECYCLE_EVENT_SCHEMAS.PermissionRequest,
} as const satisfies EventSchemas<EventOf<typeof CODEX_SEAM_EVENTS>>;
/** A Codex event hookbox reads. */
export type CodexEvent = keyof typeof CODEX_EVENT_SCHEMAS;
