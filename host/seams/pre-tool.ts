import * as z from 'zod';
import { faultReason, type SeamDefinition } from './seam.ts';

export const PreToolPayloadSchema = z.strictObject({
  toolCallId: z.string(),
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
/** What pre-tool hooks receive: the tool call. */
export type PreToolPayload = z.infer<typeof PreToolPayloadSchema>;

export const PreToolAllowSchema = z.strictObject({
  action: z.literal('allow'),
  reason: z.string().optional(),
  /**
   * A rewrite: the complete new arguments of the call (not a patch), checked
   * against the tool's argument schema. Every gate decides again on the final
   * arguments (docs/rfc-tool-input-rewrite.md).
   */
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export const PreToolDenySchema = z.strictObject({
  action: z.literal('deny'),
  reason: z.string().min(1),
});
export const PreToolAskSchema = z.strictObject({
  action: z.literal('ask'),
  reason: z.string().optional(),
});
export const PreToolDecisionSchema = z.discriminatedUnion('action', [
  PreToolAllowSchema,
  PreToolDenySchema,
  PreToolAskSchema,
]);
/** A pre-tool decision: `allow` (maybe rewriting the arguments), `deny` or `ask`. */
export type PreToolDecision = z.infer<typeof PreToolDecisionSchema>;

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/**
 * How many times the pre-tool waterfall may run for one call before rewrites
 * that keep changing the arguments are a deny: the first pass, then re-asking
 * the hooks that decided on other arguments, then once more (a rewriter must
 * reach a fixed point: given its own output, it returns it unchanged).
 */
export const PRE_TOOL_REWRITE_ROUNDS = 3;

function withoutArguments(decision: PreToolDecision): PreToolDecision {
  if (decision.action !== 'allow' || decision.arguments === undefined) return decision;
  const { arguments: _rewrite, ...rest } = decision;
  return rest;
}

export const preToolSeam: SeamDefinition<'tools/pre-execute', typeof PreToolPayloadSchema, typeof PreToolDecisionSchema> =
  {
    id: 'tools/pre-execute',
    kind: 'waterfall',
    exportName: 'pre_tool',
    typeNames: { payload: 'PreToolPayload', decision: 'PreToolDecision' },
    payload: PreToolPayloadSchema,
    decision: PreToolDecisionSchema,
    toolScoped: true,
    defaultFailPolicy: 'closed',
    defaultDecision: () => ({ action: 'allow' }),
    // deny > ask > allow: a later hook can tighten the gate, never loosen it.
    // At equal rank the first reason given stands in `next` (what later hooks
    // see); the host keeps every ask, attributed, with `standingAsks`.
    // Rewritten arguments are not part of the composed decision: they thread
    // through the payload (`threadPayload`), so an `ask` or `deny` after a
    // rewrite still decides on the rewritten call.
    compose: (next, decision) => {
      if (RANK[decision.action] !== RANK[next.action]) return RANK[decision.action] > RANK[next.action] ? withoutArguments(decision) : next;
      return next.reason === undefined ? withoutArguments(decision) : next;
    },
    shortCircuits: (decision) => decision.action === 'deny',
    threadPayload: (payload, decision) =>
      decision.action === 'allow' && decision.arguments !== undefined ? { ...payload, arguments: decision.arguments } : payload,
    rewriteRounds: {
      max: PRE_TOOL_REWRITE_ROUNDS,
      unsettled: (rewriters, max) => ({
        action: 'deny',
        reason: `the rewrites of this call did not settle: after ${max} passes ${rewriters.map((hook) => `hook "${hook}"`).join(', ')} still changed its arguments (a rewrite must return its own output unchanged)`,
      }),
    },
    // A hook that ran out of time could not decide: ask the person (or deny
    // without a prompter). Any other fault is a broken gate: deny.
    faultDecision: (fault, policy, hook) => {
      if (policy === 'open') return null;
      const reason = faultReason(hook, fault);
      return fault.kind === 'timeout' ? { action: 'ask', reason } : { action: 'deny', reason };
    },
  };

/**
 * One hook's `ask`, attributed by the host: `hook` is the listener's
 * configured name, never something the hook said about itself.
 */
export const AttributedAskSchema = z.strictObject({
  hook: z.string(),
  reason: z.string().optional(),
});
export type AttributedAsk = z.infer<typeof AttributedAskSchema>;

/**
 * Every ask a composed `ask` stands on: each hook whose decision was `ask`,
 * in configured order, with its own reason. Asks are of equal rank, so none
 * may hide another — a hook listed first must not pre-empt the question a
 * guard listed after it wants the person to see. Empty unless the composed
 * action is `ask` (a deny short-circuits; an allow asks nothing).
 */
export function standingAsks(
  composed: PreToolDecision,
  decided: readonly { readonly hook: string; readonly decision: PreToolDecision }[],
): AttributedAsk[] {
  if (composed.action !== 'ask') return [];
  return decided
    .filter(({ decision }) => decision.action === 'ask')
    .map(({ hook, decision }) => ({ hook, ...(decision.reason !== undefined && { reason: decision.reason }) }));
}

/**
 * The asks as one line of text, for the model's error result and the loop's
 * reason: a single ask is its reason as the hook gave it; several are each
 * prefixed with the hook that asked.
 */
export function describeAsks(asks: readonly AttributedAsk[]): string | undefined {
  if (asks.length === 0) return undefined;
  if (asks.length === 1) return asks[0]?.reason;
  return asks.map(({ hook, reason }) => `hook "${hook}": ${reason ?? 'asks without a reason'}`).join('; ');
}
