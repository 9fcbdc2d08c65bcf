/**
 * turn-budget's pure policy: tool calls per turn and continuations per
 * session, counted in the hook's per-session state (Var, as test-gate keeps
 * its record). A `stop` cannot overrule another hook's `continue` (the seam
 * composes continue over stop), so the continuation budget is held where a
 * hook can hold it: once the session was forced on more often than allowed,
 * its tool calls are refused. Reasons start `turn-budget: <rule>:`.
 */
import { oneOf } from '../shared/config.ts';

export const RULES = ['tool-calls', 'continuations', 'config-error'] as const;

/** The Var key of the count. */
export const STATE_KEY = 'turn-budget';

/** The config as the host validated it (defaults filled in): `host/catalog/turn-budget.ts`. */
export interface BudgetConfig {
  readonly toolCallsPerTurn?: number;
  readonly continuationsPerSession?: number;
  readonly action: 'deny' | 'ask';
}

/** What the hook counts, for one session. */
export interface BudgetState {
  readonly session: string;
  readonly turn: number;
  readonly calls: number;
  readonly continuations: number;
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny' | 'ask'; readonly reason: string };

export function parseConfig(value: unknown): BudgetConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const action = oneOf(config.action, ['deny', 'ask'] as const);
  if (action === undefined) return { error: 'action: expected deny or ask' };
  for (const key of ['toolCallsPerTurn', 'continuationsPerSession'] as const) {
    if (config[key] !== undefined && !(typeof config[key] === 'number' && Number.isInteger(config[key]) && (config[key] as number) >= 0)) return { error: `${key}: expected a whole number` };
  }
  return {
    action,
    ...(typeof config.toolCallsPerTurn === 'number' && { toolCallsPerTurn: config.toolCallsPerTurn }),
    ...(typeof config.continuationsPerSession === 'number' && { continuationsPerSession: config.continuationsPerSession }),
  };
}

/** The stored count for this session, read defensively (Var holds bytes any version of this hook wrote); a fresh one otherwise. */
export function readState(raw: string | undefined, session: string, turn: number): BudgetState {
  let stored: Partial<BudgetState> = {};
  try {
    stored = (JSON.parse(raw ?? '{}') ?? {}) as Partial<BudgetState>;
  } catch {
    // A record that is not JSON counts as none.
  }
  const whole = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0);
  if (stored.session !== session) return { session, turn, calls: 0, continuations: 0 };
  return { session, turn, calls: stored.turn === turn ? whole(stored.calls) : 0, continuations: whole(stored.continuations) };
}

/** One more tool call: the new count, and whether the budget refuses it. */
export function countCall(state: BudgetState, config: BudgetConfig): { state: BudgetState; verdict: Verdict } {
  const next = { ...state, calls: state.calls + 1 };
  if (config.continuationsPerSession !== undefined && next.continuations > config.continuationsPerSession) {
    return { state: next, verdict: { action: config.action, reason: `turn-budget: continuations: this session was forced on ${next.continuations} times, over its budget of ${config.continuationsPerSession}; stop and report to the user` } };
  }
  if (config.toolCallsPerTurn !== undefined && next.calls > config.toolCallsPerTurn) {
    return { state: next, verdict: { action: config.action, reason: `turn-budget: tool-calls: tool call ${next.calls} of turn ${next.turn}, over the budget of ${config.toolCallsPerTurn} per turn; stop and report to the user` } };
  }
  return { state: next, verdict: { action: 'allow' } };
}

/**
 * A turn-continuation event: one with `continuations > 0` follows a step
 * some hook forced on, so it counts one continuation.
 */
export function countContinuation(state: BudgetState, continuations: number): BudgetState {
  return continuations > 0 ? { ...state, continuations: state.continuations + 1 } : state;
}
