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
});
export const PreToolDenySchema = z.strictObject({
  action: z.literal('deny'),
  reason: z.string().min(1),
});
export const PreToolAskSchema = z.strictObject({
  action: z.literal('ask'),
  reason: z.string().optional(),
});
// TODO(pre-tool-input-rewrite): no `arguments` rewrite is offered (docs/rfc-interception-seams.md);
// strict objects make a hook that tries one fail with a `schema` fault.
export const PreToolDecisionSchema = z.discriminatedUnion('action', [
  PreToolAllowSchema,
  PreToolDenySchema,
  PreToolAskSchema,
]);
/** A pre-tool decision: `allow`, `deny` or `ask`. */
export type PreToolDecision = z.infer<typeof PreToolDecisionSchema>;

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

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
    compose: (next, decision) => {
      if (RANK[decision.action] !== RANK[next.action]) return RANK[decision.action] > RANK[next.action] ? decision : next;
      return next.reason === undefined ? decision : next;
    },
    shortCircuits: (decision) => decision.action === 'deny',
    threadPayload: (payload) => payload,
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
