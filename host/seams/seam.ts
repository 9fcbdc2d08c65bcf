import type { z } from 'zod';
import type { SeamExport, SeamId as GeneratedSeamId } from '../../pdk/generated/seam-names.ts';
import type { FailPolicy, HookFault } from './fault.ts';

/** How a seam dispatches to its listeners. */
export type DispatchKind = 'notify' | 'waterfall';

export type { SeamExport } from '../../pdk/generated/seam-names.ts';

/**
 * One seam, defined once: everything else (TS types, JSON Schema, PDK types,
 * composition, fault handling) is derived from this record.
 */
export interface SeamDefinition<
  /** A seam id `npm run gen` knows: a new seam fails here until it is in `SEAMS` and generated. */
  Id extends GeneratedSeamId,
  Payload extends z.ZodType,
  Decision extends z.ZodType,
> {
  readonly id: Id;
  readonly kind: DispatchKind;
  /** The wasm export that handles it; the PDK handler is its camelCase (`pre_tool` → `preTool`). */
  readonly exportName: SeamExport;
  /** Names of its payload and decision types in the generated PDK types and JSON Schema. */
  readonly typeNames: { readonly payload: string; readonly decision: string };
  readonly payload: Payload;
  readonly decision: Decision;
  /** Whether the seam's payload names a tool, so `tools` matchers apply. */
  readonly toolScoped: boolean;
  /** The decision before any listener has spoken. */
  defaultDecision(payload: z.infer<Payload>): z.infer<Decision>;
  /**
   * Fold one listener's decision into the decision so far. Never relaxes a
   * restrictive decision; accumulates `additionalContext`; threads rewrites.
   */
  compose(next: z.infer<Decision>, decision: z.infer<Decision>): z.infer<Decision>;
  /** Whether the composed decision ends the waterfall (deny / block). */
  shortCircuits(decision: z.infer<Decision>): boolean;
  /** Apply a decision's rewrite to the payload the next listener sees. */
  threadPayload(payload: z.infer<Payload>, decision: z.infer<Decision>): z.infer<Payload>;
  /**
   * The decision a failing hook contributes, or `null` for "no opinion"
   * (the seam then passes `next` through).
   */
  faultDecision(fault: HookFault, policy: FailPolicy, hook: string): z.infer<Decision> | null;
  /** The fail policy applied when neither the hook nor the operator sets one. */
  readonly defaultFailPolicy: FailPolicy;
  /**
   * Set on a seam whose rewrites change what is then decided about (pre-tool
   * arguments): the waterfall runs again, re-asking every hook that decided on
   * other payload than the final one, until none did (`host/events/rewrite-rounds.ts`).
   * Absent: one pass, as for every other seam.
   */
  readonly rewriteRounds?: {
    /** Passes before rewrites that keep changing the payload are given up on. */
    readonly max: number;
    /** The decision when they do not settle in `max` passes (a refusal). */
    unsettled(rewriters: readonly string[], max: number): z.infer<Decision>;
  };
}

/** Joins accumulated additional context from several hooks, in configured order. */
export function joinContext(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || a === '') return b;
  if (b === undefined || b === '') return a;
  return `${a}\n\n${b}`;
}

/** A permissive decision that may rewrite content and add context (prompt `allow`, post-tool `accept`). */
export interface Rewriting<A extends string> {
  readonly action: A;
  readonly content?: string;
  readonly additionalContext?: string;
}

/**
 * Folds two permissive rewriting decisions: the later rewrite of `content`
 * wins (it was made on the already-rewritten payload), contexts accumulate.
 */
export function foldRewriting<A extends string>(action: A, next: Rewriting<A>, decision: Rewriting<A>): Rewriting<A> {
  const content = decision.content ?? next.content;
  const additionalContext = joinContext(next.additionalContext, decision.additionalContext);
  return {
    action,
    ...(content !== undefined && { content }),
    ...(additionalContext !== undefined && { additionalContext }),
  };
}

/** A short, safe description of a fault for a decision's `reason`. */
export function faultReason(hook: string, fault: HookFault): string {
  return `hook "${hook}" failed (${fault.kind}): ${fault.message}`;
}
