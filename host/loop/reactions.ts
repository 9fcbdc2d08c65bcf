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

/**
 * The one rule for what a model is told about a call hooks rewrote: its own
 * call stays in its history as it made it, and the result it reads starts
 * with this line, naming the hooks and the arguments that ran. The loop and
 * `serve` write the same words (docs/rfc-tool-input-rewrite.md, "The model's view").
 */
export function rewrittenCallNote(hooks: readonly string[], args: Record<string, unknown>): string {
  // An SDK adapter gets the decision, not the names (they are in the session log's tool/rewrite).
  const by = hooks.length === 0 ? 'a hook' : `${hooks.length === 1 ? 'hook' : 'hooks'} ${hooks.map((hook) => `"${hook}"`).join(', ')}`;
  return `[hookbox: this call was rewritten by ${by} before it ran; it ran with arguments ${JSON.stringify(args)}]`;
}

/**
 * Why a call was denied when hooks rewrote it and the agent cannot run the
 * rewritten call: never run unrewritten, never silently.
 */
export function unappliedRewriteText(agent: string, args: Record<string, unknown>, why?: string): string {
  const because = why === undefined ? '' : ` (${why})`;
  return `a hookbox hook rewrote this call and the rewrite could not be applied in ${agent}${because}, so it was not run. The rewritten arguments: ${JSON.stringify(args)}`;
}

/** Why a turn ended when hooks kept forcing it on past the cap. */
export function continuationCapReason(cap: number): string {
  return `continuation cap reached (${cap})`;
}

/** The reason given for a continued turn when the hook gave none. */
export const CONTINUE_REASON = 'a hookbox hook asked to keep working';
