// @ts-check
import { fileURLToPath } from 'node:url';

// The sandbox copies the project but not `.cache/` (in a worktree it is a
// symlink Stryker cannot copy): point the engine cache at the real one, so
// the sandbox reuses the engine instead of building it again.
process.env.HOOKBOX_CACHE_DIR ??= fileURLToPath(new URL('.cache', import.meta.url));
// The sandbox has no `.git`: without this it would pass for an installed package
// (host/package.ts IS_CHECKOUT) and look for a shipped engine and build.
process.env.HOOKBOX_CHECKOUT ??= '1';

// `npm run mutate:runner` runs host/runner in groups, each with its own report
// (reports/mutation/<group>.json); a plain `npm run mutate` writes `mutation`.
const report = process.env.HOOKBOX_MUTATE_REPORT ?? 'mutation';

/**
 * Mutation testing of the sandbox core: `npm run mutate` (all folders) or
 * `npm run mutate -- --mutate 'host/seams/**' ` for one. See docs/testing.md; the groups, scores and survivors: tests/mutation/ledger.md.
 *
 * Incremental mode: results go to reports/stryker-incremental.json (ignored by
 * git — it records per-machine test ids and paths); a rerun only re-tests
 * mutants whose code or covering tests changed.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // `related: false`: run the suites the config (and HOOKBOX_MUTATE_TESTS) names, not
  // only those vitest's import graph links to the mutated files — most suites reach the
  // runner through host/runner/index.ts and worker threads, which that graph misses.
  vitest: { configFile: 'vitest.stryker.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'host/seams/**/*.ts',
    'host/events/**/*.ts',
    'host/runner/**/*.ts',
    'host/text/**/*.ts',
    // The generator writes files; its output is checked by the golden tests.
    '!host/seams/generate.ts',
    // Barrel files: re-exports only.
    '!host/*/index.ts',
  ],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: report === 'mutation' ? 'reports/mutation/index.html' : `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  concurrency: 1,
  dryRunTimeoutMinutes: 40,
  timeoutMS: 20_000,
  timeoutFactor: 2,
  ignorePatterns: ['reports', '.stryker-tmp', '.cache'],
  cleanTempDir: 'always',
  thresholds: { high: 85, low: 75, break: null },
};
