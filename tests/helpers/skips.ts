/**
 * Conditional skips that cannot go unnoticed. A suite that cannot run here
 * (a binary missing, no chromium, not Linux) calls {@link skipUnless} with
 * why: the reason goes to stderr and to a record file that
 * `scripts/skip-summary.mjs` turns into one line after `npm test` (`.ci/run`
 * prints it). A suite whose binary is a (dev)dependency that `npm ci`
 * installs may not skip in CI: with `CI=true` its missing binary fails it.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where skips are recorded (one JSON line each); the global setup empties it at the start of a run. */
export const SKIP_RECORD = process.env.HOOKBOX_SKIP_RECORD ?? resolve(import.meta.dirname, '..', '..', 'reports', 'skipped-suites.jsonl');

/** One recorded skip. */
export interface SkipEntry {
  readonly suite: string;
  readonly reason: string;
  /** The package that should have provided what is missing, for a suite that may not skip in CI. */
  readonly required?: string;
}

/**
 * `true` when `suite` must be skipped (`reason` given), after recording and
 * printing why; `false` when it can run (`reason` undefined). With `required`
 * (the npm package that provides what is missing) and `CI=true`, throws
 * instead, so the suite fails rather than skips; `installedBy` names what
 * installs it when that is not `npm ci` (an agent a suite installs from the
 * registry at test time).
 */
export function skipUnless(suite: string, reason: string | undefined, options: { required?: string; installedBy?: string } = {}): boolean {
  if (reason === undefined) return false;
  if (options.required !== undefined && process.env.CI === 'true') {
    throw new Error(`${suite}: may not be skipped in CI (CI=true): ${options.required} is installed by ${options.installedBy ?? '`npm ci`'}, yet ${reason}`);
  }
  const entry: SkipEntry = { suite, reason, ...(options.required !== undefined && { required: options.required }) };
  process.stderr.write(`[skipped] ${suite}: ${reason}\n`);
  try {
    mkdirSync(dirname(SKIP_RECORD), { recursive: true });
    appendFileSync(SKIP_RECORD, `${JSON.stringify(entry)}\n`);
  } catch (error) {
    process.stderr.write(`[skipped] (could not record it in ${SKIP_RECORD}: ${(error as Error).message})\n`);
  }
  return true;
}
