import type { z } from 'zod';
import type { ParsedAgentEvent } from './agent-bridge.ts';

/**
 * An agent session id hookbox accepts: it names the session log file
 * (`<agent>-<session_id>.jsonl`), so nothing that could leave the folder.
 */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A zod failure on an agent's event JSON as an `invalid` event naming the JSON path and what was expected. */
export function invalidEvent(error: z.ZodError, event: string | undefined): ParsedAgentEvent {
  const message = error.issues
    .slice(0, 3)
    .map((issue) => `input.${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  return { kind: 'invalid', ...(event !== undefined && { event: safeText(event).slice(0, 64) }), message };
}

/**
 * Hook-originated text on its way to the agent's terminal or a log line.
 * SANITIZER CALL SITE: replaced by `host/text`'s sanitizer when it lands on
 * main; until then C0/C1 controls (escape sequences, bidi overrides) are
 * replaced so no hook byte can drive the terminal.
 */
export function safeText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '\ufffd');
}
