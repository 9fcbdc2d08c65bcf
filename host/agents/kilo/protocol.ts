import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { eventRows } from '../bridge-parts.ts';
import type { OpenCodeEvent } from '../opencode/protocol.ts';

/**
 * Kilo CLI's plugin hooks hookbox answers — OpenCode's API, read by the
 * OpenCode bridge (`opencode/bridge.ts`) — and what each decision becomes,
 * measured with the real `kilo` 7.7.9 against the mock chat model
 * (`tests/integration/agent-kilo.spec.ts`). The README's copy is checked
 * against it by a test.
 */
export const KILO_SEAM_EVENTS = {
  'agent/session-start': [{ event: 'session.created', answers: 'context → added to the first prompt of the session (after its text)' }],
  'agent/prompt-submit': [
    {
      event: 'chat.message',
      answers:
        'block → the plugin throws (the prompt never reaches the model; `kilo run` reports only "UnknownError" and exits 1); a rewrite → the prompt\'s text replaced; context → appended to the prompt\'s text',
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
} as const satisfies SeamEventTable<OpenCodeEvent>;

/** KILO_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const KILO_EVENTS: readonly AgentEventMapping[] = eventRows(KILO_SEAM_EVENTS);
