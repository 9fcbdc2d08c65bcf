/**
 * How many inputs each fuzz property gets, and from which seed.
 *
 * `npm test` runs every `tests/fuzz/*.fuzz.ts` at its small default size;
 * `npm run fuzz` sets `HOOKBOX_FUZZ_RUNS=100000` (per property) and runs the
 * same files with no other suite. `HOOKBOX_FUZZ_SEED` replays another seed;
 * a failure prints the seed and the shrunk counterexample's path, and
 * `HOOKBOX_FUZZ_PATH` replays exactly that input.
 */
import type { Parameters as FcParameters } from 'fast-check';

/** The seed every property starts from unless `HOOKBOX_FUZZ_SEED` says otherwise. */
export const FUZZ_SEED = Number(process.env.HOOKBOX_FUZZ_SEED ?? 0x5eed_b0c5);

/**
 * fast-check parameters for one property: `small` runs inside `npm test`,
 * `HOOKBOX_FUZZ_RUNS` (the full-size script) overrides it.
 */
export function fuzzParams<T>(small: number): FcParameters<T> {
  const override = process.env.HOOKBOX_FUZZ_RUNS;
  const numRuns = override === undefined ? small : Number(override);
  if (!Number.isInteger(numRuns) || numRuns < 1) throw new Error(`HOOKBOX_FUZZ_RUNS must be a positive integer, got ${override}`);
  const path = process.env.HOOKBOX_FUZZ_PATH;
  return { seed: FUZZ_SEED, numRuns, ...(path !== undefined && { path }), endOnFailure: true };
}

/** A vitest timeout that grows with the run count (the full-size run takes minutes per property). */
export function fuzzTimeout(small: number, msPerRun: number): number {
  const runs = Number(process.env.HOOKBOX_FUZZ_RUNS ?? small);
  return Math.max(60_000, Math.ceil(runs * msPerRun * 4));
}
