/**
 * Vitest setup file for mutation runs only (`vitest.stryker.config.ts`).
 *
 * The hook runner executes plugins in `worker_threads` started with an empty
 * environment, so StrykerJS's active-mutant switch (a global of the test
 * process) never reaches the code that runs there, and every mutant in the
 * worker side of `host/runner/` would survive untested. This wraps `Worker`
 * so each worker is started with `__STRYKER_ACTIVE_MUTANT__` in its
 * environment — the variable Stryker's instrumented code reads when its
 * global is unset.
 *
 * Coverage relay. Stryker also collects which mutants each test reaches, in
 * the test process only (`__stryker__.mutantCoverage`), and runs a mutant
 * only against the tests that reached it: code that runs only in a worker
 * (worker.ts, the worker side of the adapter, WASI and HTTP) was reported
 * "no coverage" and never run. During the dry run (no active mutant), each
 * worker is started through a small `data:` module that pre-creates the
 * worker's `__stryker__.mutantCoverage` with a `static` map whose first write
 * of each mutant id is posted on a `BroadcastChannel`; the test process adds
 * it to the coverage of the test running when it arrives (or to `static`,
 * which Stryker runs against every selected suite, when none is). A message
 * can arrive after its test ended and count for the next one or for
 * `static`: that costs time, never a wrongly skipped test for the test that
 * is credited (see docs/testing.md, "Mutation testing").
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const threads = require('node:worker_threads') as typeof import('node:worker_threads');
const Original = threads.Worker;

/** The channel worker coverage travels on (one per process; workers are threads of it). */
const COVERAGE_CHANNEL = 'hookbox-stryker-worker-coverage';

/** `HOOKBOX_MUTATE_RELAY=0` turns the relay off (to compare: worker-only mutants then read "no coverage"). */
const RELAY = process.env.HOOKBOX_MUTATE_RELAY !== '0';

type Coverage = Record<string, number>;

interface StrykerGlobal {
  __stryker__?: {
    activeMutant?: string;
    currentTestId?: string;
    mutantCoverage?: { static: Coverage; perTest: Record<string, Coverage> };
  };
}

const stryker = (): StrykerGlobal['__stryker__'] => (globalThis as StrykerGlobal).__stryker__;

/** The `data:` module a worker starts with during the dry run: the relay, then the real entry. */
function relayEntry(entry: string): URL {
  const code = `
const channel = new BroadcastChannel(${JSON.stringify(COVERAGE_CHANNEL)});
channel.unref();
const seen = Object.create(null);
const relay = new Proxy(seen, {
  set(target, id, value) {
    const fresh = !(id in target);
    target[id] = value;
    if (fresh) channel.postMessage(String(id));
    return true;
  },
});
const ns = globalThis.__stryker__ ?? (globalThis.__stryker__ = {});
ns.mutantCoverage = { static: relay, perTest: {} };
await import(${JSON.stringify(entry)});
`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

function listenForWorkerCoverage(): void {
  const channel = new BroadcastChannel(COVERAGE_CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const ns = stryker();
    if (ns === undefined) return;
    const coverage = (ns.mutantCoverage ??= { static: {}, perTest: {} });
    const id = String((event as { data: unknown }).data);
    const target = ns.currentTestId === undefined ? coverage.static : (coverage.perTest[ns.currentTestId] ??= {});
    target[id] = (target[id] ?? 0) + 1;
  };
}

class MutantAwareWorker extends Original {
  constructor(filename: string | URL, options: WorkerOptions = {}) {
    const ns = stryker();
    const active = ns?.activeMutant;
    if (active !== undefined && options.env !== undefined && typeof options.env === 'object') {
      options = { ...options, env: { ...(options.env as Record<string, string>), __STRYKER_ACTIVE_MUTANT__: active } };
    } else if (active !== undefined) {
      options = { ...options, env: { ...process.env, __STRYKER_ACTIVE_MUTANT__: active } };
    }
    // Dry run (Stryker's namespace is there, no mutant active): relay the worker's coverage.
    if (ns !== undefined && active === undefined && options.eval !== true && RELAY) {
      const entry = typeof filename === 'string' ? pathToFileURL(filename).href : filename.href;
      if (entry.startsWith('file:')) filename = relayEntry(entry);
    }
    super(filename, options);
  }
}

if (RELAY) listenForWorkerCoverage();
threads.Worker = MutantAwareWorker;
syncBuiltinESMExports();
