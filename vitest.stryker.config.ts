import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The suites StrykerJS runs against each mutant (`npm run mutate`). Left out:
 * suites that exercise hookbox only through a child process (`hookbox` CLI,
 * ACP over stdio, the crash test, the demo) — a mutant activated in the test
 * process never reaches a child, so they can kill nothing and only slow each
 * run — plus the engine build and the OpenAI provider, which touch none of
 * the mutated folders. `tests/mutation/setup.ts` carries the active mutant
 * into the runner's worker threads.
 *
 * `HOOKBOX_MUTATE_TESTS` (comma-separated globs) narrows the suites further,
 * e.g. to the fast ones that cover `host/seams` and `host/events`; see
 * docs/testing.md.
 */
const only = process.env.HOOKBOX_MUTATE_TESTS?.split(',').filter((glob) => glob !== '');

export default defineConfig({
  test: {
    ...base.test,
    setupFiles: ['tests/mutation/setup.ts'],
    ...(only !== undefined && only.length > 0 && { include: only }),
    exclude: [
      'tests/integration/acp.spec.ts',
      'tests/integration/cli.spec.ts',
      'tests/integration/crash.spec.ts',
      'tests/integration/demo.spec.ts',
      'tests/integration/openai-provider.spec.ts',
      'tests/golden/acp/**',
      // Compares generated files with what the generator prints from the
      // seams; instrumented seams print differently, so it fails unmutated.
      'tests/golden/generated.spec.ts',
      'tests/pdk/build.spec.ts',
      'tests/pdk/engine.spec.ts',
      'tests/security/cli-corpus.spec.ts',
      'tests/unit/runner-cli.spec.ts',
      'tests/fuzz/**',
    ],
  },
});
