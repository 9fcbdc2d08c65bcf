import { defineConfig } from 'vitest/config';

/**
 * `npm run fuzz`: every `tests/fuzz/*.fuzz.ts` at full size
 * (`HOOKBOX_FUZZ_RUNS`, 100,000 inputs per property), nothing else. The fuzz
 * targets need no engine or example hooks, so there is no global setup.
 */
export default defineConfig({
  test: {
    include: ['tests/fuzz/**/*.fuzz.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60 * 60_000,
  },
});
