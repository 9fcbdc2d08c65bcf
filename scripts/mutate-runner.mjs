#!/usr/bin/env node
// `npm run mutate:runner`: the mutation score of host/runner, run in groups of
// files, each against the narrow, fast suites that cover it (a mutant re-runs
// only those), with its own incremental file so a rerun re-tests only what
// changed. Then prints the per-file and folder scores from every group's
// report. See docs/testing.md, "Mutation testing"; its groups and scores: tests/mutation/ledger.md.
//
//   npm run mutate:runner                      # every group, then the scores
//   npm run mutate:runner -- --group parts     # one group (comma-separated for several)
//   npm run mutate:runner -- --scores          # only print the scores of the last runs
//   npm run mutate:runner -- --concurrency 2   # test runners (default 1: the machine is shared)
//
// Always at the lowest CPU priority.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Suites that run hooks on real worker threads through a runner: the base of the `hook` group. */
const THREAD_SUITES = [
  'tests/unit/runner-warm-up.spec.ts',
  'tests/unit/runner-worker-priority.spec.ts',
  'tests/security/quarantine-scope.spec.ts',
  'tests/unit/runner-channel-growth.spec.ts',
  'tests/security/bad-output.spec.ts',
];

/** Groups of host/runner files and the suites that cover them, fastest first. */
export const GROUPS = [
  {
    // Main-thread parts, each with a unit suite that calls it directly.
    name: 'parts',
    mutate:
      'host/runner/@(wire|channel|quarantine|limits|input-lease|log-sink|memory-budget|inspect|source-map|host-grant|wasm-binary|rc-wrapper|module-prep|grow-probe|wasm-instructions|http-calls|http-client|spin-backoff).ts',
    tests: [
      'tests/unit/runner-memory-budget.spec.ts',
      'tests/unit/runner-quarantine.spec.ts',
      'tests/unit/runner-log-sink.spec.ts',
      'tests/unit/runner-wire.spec.ts',
      'tests/unit/runner-input-lease.spec.ts',
      'tests/unit/runner-grow-probe.spec.ts',
      'tests/unit/runner-grow-probe-skip.spec.ts',
      'tests/unit/runner-wasm-binary.spec.ts',
      'tests/unit/runner-rc-wrapper.spec.ts',
      'tests/unit/runner-module-prep.spec.ts',
      'tests/unit/runner-grants.spec.ts',
      'tests/unit/runner-source-map.spec.ts',
      'tests/unit/runner-http-calls.spec.ts',
      'tests/unit/runner-spin-backoff.spec.ts',
    ],
  },
  {
    // The Extism adapter on the main thread (ExtismInstance), the way a worker uses it.
    name: 'adapter',
    mutate: 'host/runner/extism-adapter.ts',
    tests: [
      'tests/unit/runner-fault-mapping.spec.ts',
      'tests/unit/runner-adapter.spec.ts',
      'tests/unit/runner-warm-up.spec.ts',
      // The bulk input path (`#preload`), on ExtismInstance directly and through the JS engine.
      'tests/unit/runner-bulk-input.spec.ts',
    ],
  },
  {
    // The warm-up loop, driven directly on real workers, and through a runner.
    name: 'warm-up',
    mutate: 'host/runner/warm-up.ts',
    tests: ['tests/unit/runner-warm-up-loop.spec.ts', 'tests/unit/runner-warm-up.spec.ts'],
  },
  {
    // hookbox's WASI layer, called directly on a guest memory (tests/helpers/wasi-guest.ts). The escape
    // tests (tests/security/wasi-boundary.spec.ts) run guests in workers: with the coverage relay every
    // mutant they reach would run them too, hours at concurrency 1.
    name: 'wasi',
    mutate: 'host/runner/wasi/**/*.ts',
    tests: ['tests/unit/runner-wasi-*.spec.ts'],
  },
  {
    // The worker pool's bookkeeping, with real (idle) worker threads.
    name: 'pool',
    mutate: 'host/runner/pool.ts',
    tests: ['tests/unit/runner-pool.spec.ts'],
  },
  {
    // The runner and its per-hook state (load, instances, quarantine). Coverage of worker threads is
    // relayed (tests/mutation/setup.ts).
    name: 'hook',
    mutate: 'host/runner/@(runner|wasm-hook|hook-module).ts',
    // Not memory-budget.spec.ts: its 64-session child process (~90 s) covers most of these files, so
    // Stryker would run it for hundreds of mutants.
    tests: [
      ...THREAD_SUITES,
      'tests/unit/runner-load.spec.ts',
      'tests/unit/runner-wasm-hook.spec.ts',
    ],
  },
  {
    // The worker thread (code that runs only there; coverage relayed), driven through a real WorkerHandle.
    // Not the thread suites above: every test that starts a worker runs this code, so each surviving
    // mutant would run all of them (minutes each).
    name: 'worker-thread',
    mutate: 'host/runner/@(worker|worker-globals).ts',
    tests: ['tests/unit/runner-worker-thread.spec.ts', 'tests/unit/runner-worker-handle.spec.ts', 'tests/unit/runner-worker-globals.spec.ts'],
  },
  {
    // The worker handle on the main thread: request/reply, spin and back-off, deadlines, deaths.
    name: 'worker-handle',
    mutate: 'host/runner/worker-handle.ts',
    tests: ['tests/unit/runner-worker-handle.spec.ts', 'tests/unit/runner-worker-thread.spec.ts', 'tests/unit/runner-warm-up-loop.spec.ts'],
  },
];

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const chosen = option('--group')?.split(',');
const unknown = chosen?.filter((name) => !GROUPS.some((group) => group.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown group ${unknown.join(', ')} (groups: ${GROUPS.map((group) => group.name).join(', ')})`);
  process.exit(2);
}
const groups = GROUPS.filter((group) => chosen === undefined || chosen.includes(group.name));

if (!args.includes('--scores')) {
  for (const group of groups) {
    const started = Date.now();
    console.log(`\n== ${group.name}: ${group.mutate}\n   suites: ${group.tests.join(', ')}`);
    const run = spawnSync(
      'nice',
      [
        '-n', '19',
        process.execPath, join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run',
        '--concurrency', option('--concurrency') ?? '1',
        '--checkers', '',
        '--mutate', group.mutate,
        '--incrementalFile', `reports/stryker-runner-${group.name}.json`,
        '--reporters', 'clear-text,progress,json,html',
      ],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, HOOKBOX_MUTATE_TESTS: group.tests.join(','), HOOKBOX_MUTATE_REPORT: `runner-${group.name}` },
      },
    );
    console.log(`== ${group.name}: exit ${run.status}, ${((Date.now() - started) / 60_000).toFixed(1)} min`);
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}

// Scores: detected (killed + timeout) over valid (detected + survived + no coverage), as Stryker counts.
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const files = new Map();
for (const group of GROUPS) {
  const path = join(root, 'reports', 'mutation', `runner-${group.name}.json`);
  if (!existsSync(path)) {
    console.log(`(no report for group ${group.name} yet: ${relative(root, path)})`);
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  // A report can also hold results its incremental file carried over for files the group no longer
  // mutates (after files moved between groups): only the group's own files count.
  const own = picomatch(group.mutate);
  for (const [file, result] of Object.entries(report.files)) {
    if (!own(relative(root, join(root, file)))) continue;
    const counts = { detected: 0, survived: 0, noCoverage: 0 };
    for (const mutant of result.mutants) {
      if (DETECTED.has(mutant.status)) counts.detected++;
      else if (mutant.status === 'NoCoverage') counts.noCoverage++;
      else if (UNDETECTED.has(mutant.status)) counts.survived++;
    }
    files.set(relative(root, join(root, file)), counts);
  }
}
const percent = (c) => {
  const valid = c.detected + c.survived + c.noCoverage;
  return valid === 0 ? 'n/a' : `${((100 * c.detected) / valid).toFixed(2)} %`;
};
const total = { detected: 0, survived: 0, noCoverage: 0 };
console.log('\nfile                                          score     killed survived no-cov');
for (const [file, c] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
  for (const key of Object.keys(total)) total[key] += c[key];
  console.log(`${file.padEnd(46)}${percent(c).padStart(8)} ${String(c.detected).padStart(8)} ${String(c.survived).padStart(8)} ${String(c.noCoverage).padStart(6)}`);
}
console.log(`${'host/runner (all groups reported)'.padEnd(46)}${percent(total).padStart(8)} ${String(total.detected).padStart(8)} ${String(total.survived).padStart(8)} ${String(total.noCoverage).padStart(6)}`);
