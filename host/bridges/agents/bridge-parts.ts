import path from 'node:path';
import { z } from 'zod';
import type { PayloadOf, SeamId } from '../../seams/index.ts';
import type { OurToolCall } from '../tool-names.ts';
import type { AgentAnswer, AgentSeamEvent, ParsedAgentEvent } from './agent-bridge.ts';
import { SESSION_ID_PATTERN } from './event-input.ts';

/** Fields every Codex and Gemini CLI hook event carries (both take Claude Code's names). */
export const CommonEventSchema = z.looseObject({
  hook_event_name: z.string(),
  session_id: z.string().regex(SESSION_ID_PATTERN, 'a session id of letters, digits, ".", "_" or "-" (at most 128)'),
  cwd: z.string().refine((cwd) => path.isAbsolute(cwd), 'an absolute path'),
});

/** The event name of unparsed input, when it has one (for a fail-closed answer to a malformed event). */
export function eventNameOf(input: unknown): string | undefined {
  const name = (input as { hook_event_name?: unknown } | null)?.hook_event_name;
  return typeof name === 'string' ? name : undefined;
}

/** The answer that says nothing: the agent goes on as it would without hookbox. */
export const NO_OPINION: AgentAnswer = { exitCode: 0, stdout: '', stderr: '' };

/** A JSON answer on exit 0 (how both agents read a decision). */
export function jsonAnswer(value: object): AgentAnswer {
  return { exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' };
}

/** One seam call for an agent event. */
export function seamEvent<S extends SeamId>(
  event: string,
  sessionId: string,
  cwd: string,
  seam: S,
  payload: PayloadOf<S>,
  extra: Partial<Pick<AgentSeamEvent, 'alreadyContinued'>> = {},
): AgentSeamEvent<S> {
  return { event, sessionId, cwd, seam, payload, ...extra };
}

/**
 * One tool event that maps to several hookbox tool calls (a patch touching
 * several files): the first answers, the rest are decided alongside. Each
 * extra call gets its own id (`<id>#2`, …) so the session log keeps them apart.
 */
export function toolEvents<S extends 'tools/pre-execute' | 'tools/post-execute'>(
  calls: readonly OurToolCall[],
  toolCallId: string,
  build: (call: OurToolCall, id: string) => AgentSeamEvent<S>,
): ParsedAgentEvent {
  const events = calls.map((call, index) => build(call, index === 0 ? toolCallId : `${toolCallId}#${index + 1}`));
  const [first, ...more] = events;
  return { kind: 'seam', event: first!, ...(more.length > 0 && { more }) };
}
