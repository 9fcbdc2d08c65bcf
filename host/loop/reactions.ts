/**
 * What hookbox's loop says when a hook's decision changes its course: the
 * text a model reads in place of a denied call or a withheld result, why a
 * turn ended at the continuation cap, and the reason given for a continued
 * turn when the hook gave none. `hookbox run` (`tool-registry.ts`,
 * `turn.ts`) and `hookbox serve` (`host/serve/decide.ts`, the agents'
 * answers) write the same words and log the same effects.
 */

/** The tool result a model reads for a call a hook denied. */
export function deniedCallText(reason: string): string {
  return `Tool call denied by a hook: ${reason}`;
}

/** The tool result a model reads for a result a hook blocked. */
export function withheldResultText(reason: string): string {
  return `Tool result withheld by a hook: ${reason}`;
}

/** Why a turn ended when hooks kept forcing it on past the cap. */
export function continuationCapReason(cap: number): string {
  return `continuation cap reached (${cap})`;
}

/** The reason given for a continued turn when the hook gave none. */
export const CONTINUE_REASON = 'a hookbox hook asked to keep working';
