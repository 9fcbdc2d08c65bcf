import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** `turn-budget`'s config (what `examples-hooks/policies/turn-budget/rules.ts` reads, defaults filled in). */
export const TurnBudgetConfigSchema = z
  .strictObject({
    /** Most tool calls in one turn; the next is refused. */
    toolCallsPerTurn: z.number().int().positive().optional(),
    /** Most times a session may be forced on (a hook's `continue`); after that its tool calls are refused. */
    continuationsPerSession: z.number().int().nonnegative().optional(),
    /** What a call over budget gets. */
    action: z.enum(['deny', 'ask']).default('deny'),
  })
  .refine((config) => config.toolCallsPerTurn !== undefined || config.continuationsPerSession !== undefined, 'set toolCallsPerTurn, continuationsPerSession or both');

export const TURN_BUDGET: CatalogPolicy = {
  name: 'turn-budget',
  summary: 'refuses tool calls over a per-turn budget, and once the session was forced on (continued) more often than allowed; counts per session',
  seams: ['tools/pre-execute', 'agent/turn-continuation'],
  rules: ['tool-calls', 'continuations', 'config-error'],
  configSchema: TurnBudgetConfigSchema,
  example: { toolCallsPerTurn: 60, continuationsPerSession: 5, action: 'deny' },
};
