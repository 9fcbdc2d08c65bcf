import { type DispatchResult, canonicalJson } from '../events/index.ts';

/** A call pre-tool hooks rewrote: what the model asked, what the gates decided on and the tool runs with, and who changed it. */
export interface ToolRewrite {
  readonly original: Record<string, unknown>;
  readonly arguments: Record<string, unknown>;
  readonly hooks: readonly string[];
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
  return { original, arguments: final, hooks };
}
