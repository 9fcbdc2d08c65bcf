import { type PromptResponse, RequestError, type StopReason } from '@agentclientprotocol/sdk';
import type { TurnEndReason } from '../log/index.ts';
import type { TurnOutcome } from '../loop/index.ts';
import { META_KEY, hookData } from './updates.ts';

/**
 * Turn end reasons as ACP stop reasons. `rejected` (every prompt of the batch
 * blocked by prompt-submit) is `cancelled`, as docs/rfc-interception-seams.md (decision 1) maps it: the turn
 * settles normally instead of leaving the editor waiting. `error` has no stop
 * reason: it is an error response (see {@link promptResponseFor}).
 */
export const STOP_REASONS: Readonly<Record<Exclude<TurnEndReason, 'error'>, StopReason>> = {
  completed: 'end_turn',
  'max-steps': 'max_turn_requests',
  cancelled: 'cancelled',
  rejected: 'cancelled',
};

/**
 * The `session/prompt` response for a finished turn; `_meta.hookbox` keeps
 * hookbox's own reason and message (a block reason, a continuation cap),
 * which the stop reason alone loses. The message can carry hook text (the
 * block reasons of a rejected prompt), so it is made printable; `_meta` is
 * data, not rendered, so it is not Markdown-escaped. Throws the JSON-RPC
 * error response for a turn that ended in `error`, carrying the turn's message.
 */
export function promptResponseFor(outcome: TurnOutcome): PromptResponse {
  const message = outcome.message === undefined ? undefined : hookData(outcome.message);
  const detail = {
    turn: outcome.turn,
    reason: outcome.reason,
    steps: outcome.steps,
    ...(message !== undefined && { message }),
  };
  if (outcome.reason === 'error') {
    throw RequestError.internalError({ [META_KEY]: detail }, message ?? `turn ${outcome.turn} failed`);
  }
  return { stopReason: STOP_REASONS[outcome.reason], _meta: { [META_KEY]: detail } };
}
