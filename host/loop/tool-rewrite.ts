import { type DispatchResult, canonicalJson } from '../events/index.ts';
import type { EventOf } from '../log/index.ts';

/** A call pre-tool hooks rewrote: what the model asked, what the gates decided on and the tool runs with, and who changed it. */
export interface ToolRewrite {
  readonly original: Record<string, unknown>;
  readonly arguments: Record<string, unknown>;
  readonly hooks: readonly string[];
  /** The rewrites did not settle (the call is denied): the hooks still changing the arguments in the last pass. */
  readonly unsettled?: readonly string[];
}

/**
 * The rewrite a pre-tool dispatch made, when its final arguments differ from
 * the call's (a rewrite back to the model's own arguments is none). Shared by
 * the loop and `serve`, so both log the same `tool/rewrite`.
 */
export function rewriteOf(original: Record<string, unknown>, result: DispatchResult<'tools/pre-execute'>): ToolRewrite | undefined {
  const final = result.payload?.arguments;
  const hooks = result.rewrittenBy;
  if (final === undefined || hooks === undefined || hooks.length === 0) return undefined;
  if (canonicalJson(final) === canonicalJson(original)) return undefined;
  return { original, arguments: final, hooks, ...(result.unsettled !== undefined && { unsettled: result.unsettled }) };
}

/** The `tool/rewrite` event of a rewritten call, the same from the loop and `serve`. */
export function rewriteEvent(turn: number, step: number, call: { readonly toolCallId: string; readonly toolName: string }, rewrite: ToolRewrite): EventOf<'tool/rewrite'> {
  return {
    type: 'tool/rewrite',
    turn,
    step,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    original: rewrite.original,
    arguments: rewrite.arguments,
    hooks: [...rewrite.hooks],
    ...(rewrite.unsettled !== undefined && { unsettled: [...rewrite.unsettled] }),
  };
}
