/**
 * Engine builds side by side: guard-bash and the no-policy allow hook, each
 * snapshotted (Wizer) on every engine given, called on the main thread
 * through the runner's adapter in interleaved rounds, in one process. For
 * trying an engine build option or QuickJS patch against the cached engine.
 *
 *   npx tsx bench/engine-variants.ts .cache/engine/engine-<a>.wasm .cache/engine/engine-<b>.wasm [--rounds 8]
 *
 * `--hook label=entry.ts` (repeatable) replaces the two default hooks, e.g. to
 * compare two versions of a hook's source on one engine: extract the old one
 * with `git archive <rev> examples-hooks/guard-bash pdk | tar -x -C /tmp/before`
 * and pass `--hook before=/tmp/before/examples-hooks/guard-bash/hook.ts
 * --hook after=examples-hooks/guard-bash/hook.ts`. Every hook must allow the
 * bench payload.
 *
 * Prints p50 and min per engine and hook, and process CPU time per call.
 */
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../host/package.ts';
import { addExports } from '../pdk/compiler/add-exports.ts';
import { bundleHook } from '../pdk/compiler/bundle.ts';
import { preinitialize } from '../pdk/compiler/preinit.ts';
import { ALLOW_HOOK_ENTRY, GUARD_BASH_ENTRY, NEXT, PAYLOAD, SESSION } from './fixtures.ts';
import { percentile } from './harness.ts';
import { callMainThread, compileForMainThread, createMainThreadInstance } from './main-thread.ts';

const CALLS_PER_ROUND = 400;
const WARM_CALLS_PER_ROUND = 100;

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 8;
const hookEntries: { name: string; entry: string }[] = [];
for (let at = args.indexOf('--hook'); at >= 0; at = args.indexOf('--hook')) {
  const spec = args.splice(at, 2)[1] ?? '';
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new Error(`engine-variants: --hook wants label=entry.ts, got "${spec}"`);
  hookEntries.push({ name: spec.slice(0, eq), entry: resolve(spec.slice(eq + 1)) });
}
if (hookEntries.length === 0) hookEntries.push({ name: 'guard-bash', entry: GUARD_BASH_ENTRY }, { name: 'allow', entry: ALLOW_HOOK_ENTRY });
const engines = args;
if (engines.length === 0) throw new Error('engine-variants: give one or more engine .wasm paths');

const hooks = [];
for (const { name, entry } of hookEntries) hooks.push({ name, bundle: await bundleHook(entry) });
const rows = [];
for (const engine of engines) {
  for (const hook of hooks) {
    const snapshot = await preinitialize(engine, hook.bundle, join(PACKAGE_ROOT, 'pdk'));
    const instance = await createMainThreadInstance(await compileForMainThread(addExports(snapshot.wasm, snapshot.exportNames), `${hook.name}.wasm`));
    const first = await callMainThread(instance, PAYLOAD, SESSION, NEXT);
    if (first.type !== 'decision' || first.decision.action !== 'allow') throw new Error(`${hook.name} on ${engine}: ${JSON.stringify(first)}`);
    rows.push({ label: `${engine.split('/').pop()} ${hook.name}`, instance, samples: [] as number[], cpuUs: 0 });
  }
}
try {
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      for (let i = 0; i < WARM_CALLS_PER_ROUND; i++) await callMainThread(row.instance, PAYLOAD, SESSION, NEXT);
      const cpu = process.cpuUsage();
      for (let i = 0; i < CALLS_PER_ROUND; i++) {
        const started = performance.now();
        await callMainThread(row.instance, PAYLOAD, SESSION, NEXT);
        row.samples.push((performance.now() - started) * 1000);
      }
      const spent = process.cpuUsage(cpu);
      row.cpuUs += spent.user + spent.system;
    }
  }
  for (const row of rows) {
    const sorted = row.samples.sort((a, b) => a - b);
    const cpu = row.cpuUs / row.samples.length;
    process.stdout.write(`${row.label.padEnd(52)} p50 ${percentile(sorted, 0.5).toFixed(1)} µs  min ${(sorted[0] ?? 0).toFixed(1)} µs  cpu/call ${cpu.toFixed(1)} µs\n`);
  }
} finally {
  for (const row of rows) await row.instance.close();
}
