import type { z } from 'zod';
import { printable, printableLines } from '../text/index.ts';
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

/** Longest reason or context hookbox hands an agent (it shows them in its UI). */
const MAX_TEXT = 4000;

/**
 * A one-line hook-originated text (a reason) on its way to the agent, which
 * shows it in its terminal UI: made printable by `host/text` (controls and
 * bidi/format characters escaped, capped). The session log keeps the raw text.
 */
export function safeText(text: string): string {
  return printable(text, { maxLength: MAX_TEXT });
}

/** Multi-line hook-originated text (additional context): printable line by line. */
export function safeContext(text: string): string {
  return printableLines(text, { maxLength: MAX_TEXT, maxLines: 200 }).join('\n');
}
