import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Fuzz properties run at a small size here; `npm run fuzz` runs them at full size.
    include: ['tests/**/*.spec.ts', 'tests/fuzz/**/*.fuzz.ts'],
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
