/**
 * test-gate's pure policy: when the agent would end its turn, the operator's
 * test signal runs; while it fails, the turn goes on with its cleaned,
 * capped output as the reason, at most `maxContinuations` times a turn.
 * Reasons start with `test-gate: <rule>:`. No PDK globals.
 */
import { signalText } from '../shared/signal-text.ts';

export const RULES = ['failed', 'config-error'] as const;
export type Rule = (typeof RULES)[number];

/** The config as the host validated it (`host/catalog/test-gate.ts`), defaults filled. */
export interface TestGateConfig {
  readonly signal: string;
  readonly maxContinuations: number;
  readonly maxChars: number;
}

/** The config, or why it is not one (the host checks it first; this guards a hand-made plugin config). */
export function parseConfig(raw: string | undefined): TestGateConfig | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch {
    return { error: 'the policy config is not JSON' };
  }
  const { signal, maxContinuations, maxChars } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof signal !== 'string' || signal === '') return { error: 'signal: expected the name of a declared signal' };
  if (typeof maxContinuations !== 'number' || !(maxContinuations >= 0)) return { error: 'maxContinuations: expected a number ≥ 0' };
  if (typeof maxChars !== 'number' || !(maxChars > 0)) return { error: 'maxChars: expected a positive number' };
  return { signal, maxContinuations, maxChars };
}

/**
 * The gate's rule, whatever reports the tests: a failed run sends the turn
 * back while it was sent back fewer than `maxContinuations` times. This
 * policy's input is the operator's signal, run when the agent would stop; the
 * test-gate example hook is built on the same rule with the agent's own last
 * `bash` test run of the turn as its input.
 */
export function sendsBack(failed: boolean, continuations: number, maxContinuations: number): boolean {
  return failed && continuations < maxContinuations;
}

/** Whether the gate asks at all — whether a failing signal would send the turn back — before the signal runs. */
export function gateOpen(continuations: number, config: TestGateConfig): boolean {
  return sendsBack(true, continuations, config.maxContinuations);
}

/** The reason to keep the turn going, or `undefined` when the tests pass. */
export function continuationReason(output: { exitCode: number | null; stdout: string; stderr: string; truncated: boolean }, config: TestGateConfig): string | undefined {
  if (output.exitCode === 0) return undefined;
  const text = signalText(output, config.maxChars);
  const head = `test-gate: failed: the tests ("${config.signal}") exited ${output.exitCode ?? 'by a signal'}; fix them before ending the turn`;
  return text === '' ? head : `${head}:\n${text}`;
}
