import * as z from 'zod';
import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { type EventOf, type EventSchemas, eventRows } from '../bridge-parts.ts';

/**
 * OpenCode's plugin hooks hookbox answers, as hookbox's plugin
 * (`plugin.mjs`) forwards them to `hookbox serve`, and what each decision
 * becomes (measured against the real `opencode` 1.18.33: see
 * host/agents/README.md). Keyed by seam; the README's copy is checked
 * against it by a test.
 */
export const OPENCODE_SEAM_EVENTS = {
  'agent/session-start': [{ event: 'session.created', answers: 'context → added to the first prompt of the session (after its text)' }],
  'agent/prompt-submit': [
    {
      event: 'chat.message',
      answers:
        'block → the plugin throws (the prompt never reaches the model; `opencode run` reports only "UnknownError"); a rewrite → the prompt\'s text replaced; context → appended to the prompt\'s text',
    },
  ],
  'tools/pre-execute': [
    { event: 'tool.execute.before', answers: 'deny → the plugin throws the reason (the tool does not run; the model reads the reason as the tool\'s error); ask → deny; allow → no answer; a rewrite → the plugin replaces `output.args` (deny where it maps back inexactly: an edit\'s new text)' },
  ],
  'tools/post-execute': [
    {
      event: 'tool.execute.after',
      answers: 'block → `output.output` replaced by a notice and the reason; replaced content → `output.output` replaced (the model reads it, the turn goes on); context → appended to `output.output`; a rewritten call\'s result → the model\'s note about the rewrite first in that context',
    },
  ],
  'agent/turn-continuation': [
    {
      event: 'session.idle',
      answers: 'continue {reason} → the reason sent as a new prompt of the session (`client.session.prompt`), within hookbox\'s continuation cap; stop → no answer',
    },
  ],
  // No event yet for the seams of issue #51: the seams-agents branch maps what this agent has.
  'tools/permission-request': [],
  'agent/subagent-start': [],
  'agent/subagent-stop': [],
  'agent/notification': [],
  'agent/pre-compact': [],
  'agent/session-end': [],
} as const satisfies SeamEventTable;

/** OPENCODE_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const OPENCODE_EVENTS: readonly AgentEventMapping[] = eventRows(OPENCODE_SEAM_EVENTS);

const ToolFields = { tool_name: z.string().min(1), tool_call_id: z.string().min(1).max(256), input: z.record(z.string(), z.unknown()) };
/** The JSON of each event hookbox's OpenCode plugin sends, beyond the fields every event carries. */
export const OPENCODE_EVENT_SCHEMAS = {
  'session.created': z.looseObject({}),
  'chat.message': z.looseObject({ text: z.string() }),
  'tool.execute.before': z.looseObject(ToolFields),
  'tool.execute.after': z.looseObject({ ...ToolFields, output: z.string(), exit_code: z.number().int().optional() }),
  'session.idle': z.looseObject({ continued: z.boolean().optional() }),
} as const satisfies EventSchemas<EventOf<typeof OPENCODE_SEAM_EVENTS>>;
/** An OpenCode event hookbox reads. */
export type OpenCodeEvent = keyof typeof OPENCODE_EVENT_SCHEMAS;
