import * as z from 'zod';
import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { type EventOf, type EventSchemas, eventRows } from '../bridge-parts.ts';

/**
 * pi's extension events hookbox answers, as hookbox's extension
 * (`extension.mjs`) forwards them to `hookbox serve`, and what each decision
 * becomes (measured against the real `pi` 0.73.1: see host/agents/README.md).
 * Keyed by seam; the README's copy is checked against it by a test.
 */
export const PI_SEAM_EVENTS = {
  'agent/session-start': [
    { event: 'session_start', answers: 'context → injected as a message before the next prompt reaches the model (`before_agent_start`)' },
  ],
  'agent/prompt-submit': [
    {
      event: 'input',
      answers:
        'block → `{action: "handled"}` (the prompt never reaches the model; the reason goes to pi\'s notice and stderr); a rewrite → `{action: "transform", text}`; context → injected as a message before the prompt reaches the model',
    },
  ],
  'tools/pre-execute': [
    {
      event: 'tool_call',
      answers: 'deny → `{block: true, reason}` (the tool does not run; the model reads the reason as the tool\'s error); ask → deny (print mode has no one to ask); allow → no answer; a rewrite → the extension replaces `event.input` in place (deny where it maps back inexactly: an edit\'s new text)',
    },
  ],
  'tools/post-execute': [
    {
      event: 'tool_result',
      answers:
        'block → `{content: [notice + reason], isError: true}` in place of the output; replaced content → `{content: [the replacement]}` (the model reads it, the turn goes on); context → appended to the content; a rewritten call\'s result → the model\'s note about the rewrite first in that context',
    },
  ],
  'agent/turn-continuation': [
    {
      event: 'agent_end',
      answers: 'continue {reason} → the reason sent as the next user message (`pi.sendUserMessage`), within hookbox\'s continuation cap (measured: `pi -p` does not wait for an extension\'s `agent_end`, so the run may leave before the message is sent, or run it); stop → no answer',
    },
  ],
  // The lifecycle events (#51) pi's extension API has: the session's end and the compaction (both measured); no
  // permission prompt, subagent or notification event.
  'tools/permission-request': [],
  'agent/subagent-start': [],
  'agent/subagent-stop': [],
  'agent/notification': [],
  'agent/pre-compact': [
    {
      event: 'session_before_compact',
      answers:
        'block → `{cancel: true}` (measured: pi\'s auto-compaction in `pi -p` ends `aborted: true`, the summary\'s model call is never made; the reason goes to stderr and pi\'s notice); allow → no answer (its `additionalContext` is dropped: pi takes a whole replacement summary from an extension, not instructions); `trigger` is `manual` only when the person gave instructions (pi\'s event does not say who asked)',
    },
  ],
  'agent/session-end': [{ event: 'session_shutdown', answers: 'none: heard only (measured: `pi -p` sends `reason: "quit"`)' }],
} as const satisfies SeamEventTable;

/** PI_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const PI_EVENTS: readonly AgentEventMapping[] = eventRows(PI_SEAM_EVENTS);

/** One block of pi's tool result content: text, or an image (kept out of what hooks read). */
const ContentBlock = z.union([z.looseObject({ type: z.literal('text'), text: z.string() }), z.looseObject({ type: z.string() })]);

/** The JSON of each event hookbox's pi extension sends, beyond the fields every event carries. */
export const PI_EVENT_SCHEMAS = {
  session_start: z.looseObject({ reason: z.string().optional() }),
  input: z.looseObject({ text: z.string(), source: z.string().optional() }),
  tool_call: z.looseObject({ tool_name: z.string().min(1), tool_call_id: z.string().min(1).max(256), input: z.record(z.string(), z.unknown()) }),
  tool_result: z.looseObject({
    tool_name: z.string().min(1),
    tool_call_id: z.string().min(1).max(256),
    input: z.record(z.string(), z.unknown()),
    content: z.array(ContentBlock),
    is_error: z.boolean(),
  }),
  agent_end: z.looseObject({ last_assistant_text: z.string().optional(), continued: z.boolean().optional() }),
  session_shutdown: z.looseObject({ reason: z.string().optional() }),
  session_before_compact: z.looseObject({ custom_instructions: z.string().optional() }),
} as const satisfies EventSchemas<EventOf<typeof PI_SEAM_EVENTS>>;
/** A pi event hookbox reads. */
export type PiEvent = keyof typeof PI_EVENT_SCHEMAS;
