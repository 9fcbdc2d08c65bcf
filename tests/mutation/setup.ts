/**
 * Vitest setup file for mutation runs only (`vitest.stryker.config.ts`).
 *
 * The hook runner executes plugins in `worker_threads` started with an empty
 * environment, so StrykerJS's active-mutant switch (a global of the test
 * process) never reaches the code that runs there, and every mutant in the
 * worker side of `host/runner/` would survive untested. This wraps
 * `Worker` so each worker is started with `__STRYKER_ACTIVE_MUTANT__` in its
 * environment — the variable Stryker's instrumented code reads when its
 * global is unset — and changes nothing else.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { WorkerOptions } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const threads = require('node:worker_threads') as typeof import('node:worker_threads');
const Original = threads.Worker;

interface StrykerGlobal {
  __stryker__?: { activeMutant?: string };
}

class MutantAwareWorker extends Original {
  constructor(filename: string | URL, options: WorkerOptions = {}) {
    const active = (globalThis as StrykerGlobal).__stryker__?.activeMutant;
    if (active !== undefined && options.env !== undefined && typeof options.env === 'object') {
      options = { ...options, env: { ...(options.env as Record<string, string>), __STRYKER_ACTIVE_MUTANT__: active } };
    } else if (active !== undefined) {
      options = { ...options, env: { ...process.env, __STRYKER_ACTIVE_MUTANT__: active } };
    }
    super(filename, options);
  }
}

threads.Worker = MutantAwareWorker;
syncBuiltinESMExports();
