import { defineConfig } from 'vitest/config';

/**
 * `npm run fuzz`: every property file at full size (`HOOKBOX_FUZZ_RUNS`,
 * 100,000 inputs per property), nothing else: `tests/fuzz/*.fuzz.ts` and any
 * `*.property.spec.ts` kept next to its unit tests. They need no engine or
 * example hooks, so there is no global setup.
 */
export default defineConfig({
  test: {
    include: ['tests/fuzz/**/*.fuzz.ts', 'tests/**/*.property.spec.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60 * 60_000,
  },
});
