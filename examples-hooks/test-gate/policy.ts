/**
 * test-gate's pure policy. Post-tool: recognise a test run in a bash call and
 * whether it failed. Turn-continuation: keep the turn going while the last
 * test run of this turn failed, up to a cap — the `test-gate` catalog
 * policy's rule (`sendsBack`, one implementation) with the agent's own run as
 * its input instead of the operator's signal.
 */
import { sendsBack } from '../policies/test-gate/rules.ts';


/** Config `testCommand` when unset: the common test runners. */
export const DEFAULT_TEST_COMMAND = '(npm|pnpm|yarn) (run )?test|vitest|pytest|go test|cargo test|make test';
/** Config `maxContinuations` when unset or invalid. */
export const DEFAULT_MAX_CONTINUATIONS = 3;
/** The Var key holding the last test run (one key; the record names its session and turn). */
export const STATE_KEY = 'test-gate:last-test';

/** What the hook remembers about the last test command it saw. */
export interface TestRunRecord {
  readonly sessionId: string;
  readonly turn: number;
  readonly failed: boolean;
  /** The exit code the bash tool reported, when it reported one. */
  readonly exitCode?: number;
}

/**
 * The exit code a bash result reports: its content ends with a line
 * `exit code: N` (trailing whitespace allowed).
 *
 * @example
 * ```ts
 * exitCodeOf('FAIL src/a.test.ts\nexit code: 1\n'); // 1
 * exitCodeOf('ok');                                  // undefined
 * ```
 */
export function exitCodeOf(content: string): number | undefined {
  const m = /(?:^|\n)exit code: (-?\d+)\s*$/.exec(content);
  return m ? Number(m[1]) : undefined;
}

/**
 * Compiles Config `testCommand` (a regular expression searched in the
 * command, whitespace collapsed). An invalid pattern falls back to the
 * default and says so, so a typo cannot switch the gate off silently.
 */
export function testCommandPattern(raw: string | undefined): { pattern: RegExp; warning?: string } {
  if (raw === undefined || raw.trim() === '') return { pattern: new RegExp(DEFAULT_TEST_COMMAND) };
  try {
    return { pattern: new RegExp(raw) };
  } catch {
    return { pattern: new RegExp(DEFAULT_TEST_COMMAND), warning: 'test-gate: Config testCommand is not a valid regular expression; using the default' };
  }
}

/** Config `maxContinuations`: a non-negative integer, else the default. */
export function maxContinuationsOf(raw: string | undefined): number {
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return DEFAULT_MAX_CONTINUATIONS;
  return Number(raw);
}

/**
 * Whether a bash call ran tests and whether they failed; `undefined` when the
 * command is not a test command.
 *
 * @example
 * ```ts
 * classifyTestRun('npm test', { content: '…\nexit code: 1', isError: false }, /npm test/);
 * // → { failed: true, exitCode: 1 }
 * ```
 */
export function classifyTestRun(
  command: unknown,
  result: { readonly content: string; readonly isError: boolean },
  pattern: RegExp,
): { failed: boolean; exitCode?: number } | undefined {
  if (typeof command !== 'string') return undefined;
  pattern.lastIndex = 0;
  if (!pattern.test(command.replace(/\s+/g, ' '))) return undefined;
  const exitCode = exitCodeOf(result.content);
  const failed = result.isError || (exitCode !== undefined && exitCode !== 0);
  return exitCode === undefined ? { failed } : { failed, exitCode };
}

/**
 * The steering reason to continue the turn, or `undefined` to have no opinion:
 * continue only while the last test run recorded for this session and turn
 * failed and the turn was forced on fewer than `max` times.
 *
 * @example
 * ```ts
 * continuationReason({ sessionId: 's', turn: 2, failed: true, exitCode: 1 }, { sessionId: 's', turn: 2, continuations: 0, max: 3 });
 * // → 'test-gate: the last test run in this turn failed (exit code 1). …'
 * ```
 */
export function continuationReason(
  record: TestRunRecord | undefined,
  now: { readonly sessionId: string; readonly turn: number; readonly continuations: number; readonly max: number },
): string | undefined {
  if (record === undefined || record.sessionId !== now.sessionId || record.turn !== now.turn) return undefined;
  if (!sendsBack(record.failed, now.continuations, now.max)) return undefined;
  const code = record.exitCode === undefined ? 'it reported an error' : `exit code ${record.exitCode}`;
  return (
    `test-gate: the last test run in this turn failed (${code}). Fix the failures and run the tests again ` +
    `before finishing (continuation ${now.continuations + 1} of ${now.max}).`
  );
}

/** Reads a stored record defensively: Var holds bytes any version of this hook may have written. */
export function parseRecord(text: string | undefined): TestRunRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<TestRunRecord> | null;
    if (value === null || typeof value !== 'object') return undefined;
    if (typeof value.sessionId !== 'string' || typeof value.turn !== 'number' || typeof value.failed !== 'boolean') return undefined;
    return typeof value.exitCode === 'number'
      ? { sessionId: value.sessionId, turn: value.turn, failed: value.failed, exitCode: value.exitCode }
      : { sessionId: value.sessionId, turn: value.turn, failed: value.failed };
  } catch {
    return undefined;
  }
}
