import * as z from 'zod';
import { LIFECYCLE_EVENT_SCHEMAS, PRE_COMPRESS_SCHEMA } from '../lifecycle-events.ts';
import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { type EventOf, type EventSchemas, eventRows } from '../bridge-parts.ts';

/**
 * Gemini CLI's hook events hookbox answers, and what each decision becomes
 * (measured against the real `gemini` 0.61.0: see host/agents/README.md).
 * Keyed by seam, read in both directions: event → seam when Gemini CLI calls
 * hookbox, seam → its first event when hookbox runs a hook of this format.
 * The one table: the README's copy is checked against it by a test.
 */
export const GEMINI_SEAM_EVENTS = {
  'agent/session-start': [
    { event: 'SessionStart', answers: 'context → `hookSpecificOutput.additionalContext` (headless: prepended to the prompt)' },
  ],
  'agent/prompt-submit': [
    {
      event: 'BeforeAgent',
      answers:
        'block → `decision: "deny"` + reason (the turn is dropped, the model is never called); context → `additionalContext`; a rewrite → block with the reason (Gemini CLI cannot take a rewritten prompt)',
    },
  ],
  'tools/pre-execute': [
    {
      event: 'BeforeTool',
      answers:
        'deny → `decision: "deny"` + reason (the model reads `{"error": "Tool execution blocked: <reason>"}`); ask → deny (a hook cannot ask); allow → no answer; a rewrite → `hookSpecificOutput.tool_input`, the whole input (deny where it maps back inexactly: an edit\'s new text)',
    },
  ],
  'tools/post-execute': [
    {
      event: 'AfterTool',
      answers:
        'block → `decision: "deny"` + reason (the model reads `{"error": <reason>}` in place of the output); replaced content → the same, the content (and any context) as the reason; context → `additionalContext` (Gemini appends it to the output in `<hook_context>`); a rewritten call\'s result → the model\'s note about the rewrite first in that context',
    },
  ],
  'agent/turn-continuation': [
    {
      event: 'AfterAgent',
      answers: 'continue {reason} → `decision: "deny"` + reason (Gemini retries with the reason as the next prompt; `stop_hook_active` + hookbox\'s cap end it); stop → no answer',
    },
  ],
  // The lifecycle events (#51) Gemini CLI 0.61.0 has; SessionEnd and PreCompress measured headless. No subagents, no permission hook.
  'tools/permission-request': [],
  'agent/subagent-start': [],
  'agent/subagent-stop': [],
  'agent/notification': [{ event: 'Notification', answers: 'none: heard only (not fired headless here: `--yolo` asks nothing)' }],
  'agent/pre-compact': [
    { event: 'PreCompress', answers: 'none: advisory — Gemini compresses whatever a hook says (measured: `-p "/compress"` fires it); a block cannot be expressed, and its context for the summary is not taken' },
  ],
  'agent/session-end': [{ event: 'SessionEnd', answers: 'none: heard only (measured: `reason: "exit"`; Gemini does not wait for it)' }],
} as const satisfies SeamEventTable;

/** GEMINI_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const GEMINI_EVENTS: readonly AgentEventMapping[] = eventRows(GEMINI_SEAM_EVENTS);

const ToolFields = { tool_name: z.string().min(1), tool_input: z.record(z.string(), z.unknown()) };
/** The JSON of each event hookbox reads from Gemini CLI, beyond the fields every event carries. */
export const GEMINI_EVENT_SCHEMAS = {
  SessionStart: z.looseObject({ source: z.string().optional() }),
  BeforeAgent: z.looseObject({ prompt: z.string() }),
  BeforeTool: z.looseObject(ToolFields),
  AfterTool: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  AfterAgent: z.looseObject({ prompt_response: z.string().optional(), stop_hook_active: z.boolean().optional() }),
  SessionEnd: LIFECYCLE_EVENT_SCHEMAS.SessionEnd,
  PreCompress: PRE_COMPRESS_SCHEMA,
  Notification: LIFECYCLE_EVENT_SCHEMAS.Notification,
} as const satisfies EventSchemas<EventOf<typeof GEMINI_SEAM_EVENTS>>;
/** A Gemini CLI event hookbox reads. */
export type GeminiEvent = keyof typeof GEMINI_EVENT_SCHEMAS;
