/**
 * Soak: many hook calls across many sessions through one runner, with
 * faulting, timing-out and memory-hungry hooks mixed in, to show that nothing
 * piles up — process RSS, open file descriptors and live instances end flat
 * (≤ 10% growth from the warm-up sample to the end). Not part of `npm test`.
 *
 *   npm run soak                               # 200,000 calls, 64 sessions
 *   npm run soak -- --calls 50000 --sessions 16 --budget-mb 512 --seed 7
 *
 * Exit code: 0 when flat and every call came back as a value; 1 otherwise.
 */
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { HookRunner, type WasmHook } from '../../host/runner/index.ts';
import type { ListenerOutcome } from '../../host/events/index.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { compileWat, compileWatSource } from '../helpers/wat.ts';
import { MEMORY_HOG_WAT } from '../security/fixtures/memory-hog.ts';

interface Options {
  calls: number;
  sessions: number;
  budgetMb: number;
  seed: number;
  /** One call in this many goes to the runaway hook (a timeout: its worker is terminated and replaced). */
  timeoutEvery: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { calls: 200_000, sessions: 64, budgetMb: 512, seed: 1, timeoutEvery: 20_000 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof Options;
    const value = Number(argv[i + 1]);
    if (!(key in options) || !Number.isFinite(value) || value <= 0) {
      throw new Error(`soak: unknown option or bad value: ${argv[i]} ${argv[i + 1] ?? ''} (options: --calls, --sessions, --budget-mb, --seed, --timeout-every)`);
    }
    options[key] = value;
  }
  return options;
}

/** mulberry32: a seeded PRNG, so a run's call mix can be repeated. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sample {
  label: string;
  calls: number;
  rssMb: number;
  fds: number;
  instances: number;
  budgetUsedMb: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

async function sample(label: string, calls: number, runner: HookRunner): Promise<Sample> {
  // Let workers dispose dropped instances and V8 collect them before measuring.
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc?.();
  return {
    label,
    calls,
    rssMb: process.memoryUsage.rss() / 1_048_576,
    fds: readdirSync('/proc/self/fd').length,
    instances: runner.memory.instances,
    budgetUsedMb: runner.memory.usedBytes / 1_048_576,
  };
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const loadAtStart = loadavg();
  const tmp = await mkdtemp(join(tmpdir(), 'hookbox-soak-'));
  const runner = await HookRunner.start({ memoryBudgetMb: options.budgetMb });
  const hooks: WasmHook[] = [];
  try {
    const pdk = await buildHook({
      entry: fileURLToPath(new URL('./fixtures/counter-hook.ts', import.meta.url)),
      outFile: join(tmp, 'counter', 'hook.wasm'),
    });
    const load = async (name: string, wasm: Uint8Array | string, extra: Partial<Parameters<HookRunner['load']>[0]> = {}) => {
      const hook = await runner.load({ name, wasm, quarantineAfter: 1_000_000_000, ...extra });
      hooks.push(hook);
      return hook;
    };
    const allow = await load('allow', await compileWat('allow'));
    const flaky = await load('flaky', await compileWat('flaky'));
    const trap = await load('trap', await compileWat('trap'));
    const counter = await load('counter', pdk.wasmPath);
    const hog = await load('hog', await compileWatSource(MEMORY_HOG_WAT), { limits: { memoryMb: 64, timeoutMs: 10_000 } });
    const runaway = await load('runaway', await compileWat('infinite-loop'), { limits: { timeoutMs: 100 } });

    const random = prng(options.seed);
    /** The hook for the next call: mostly healthy, with faults, a memory hog and rare timeouts mixed in. */
    const pick = (n: number): WasmHook => {
      if (n % options.timeoutEvery === options.timeoutEvery - 1) return runaway;
      const r = random();
      if (r < 0.6) return allow;
      if (r < 0.8) return counter;
      if (r < 0.9) return flaky;
      if (r < 0.998) return trap;
      return hog;
    };

    const counts: Record<string, number> = {};
    let thrown = 0;
    let issued = 0;
    const samples: Sample[] = [await sample('start', 0, runner)];
    const checkpoints = [
      { at: Math.floor(options.calls * 0.1), label: 'warm-up' },
      { at: Math.floor(options.calls * 0.5), label: 'middle' },
    ];
    const started = performance.now();
    let pausing: Promise<void> | undefined;

    const sessionLoop = async (s: number): Promise<void> => {
      const session = { id: `soak-${s}`, turn: 1, step: 0, cwd: tmp };
      for (;;) {
        while (pausing !== undefined) await pausing;
        if (issued >= options.calls) return;
        const n = issued++;
        const checkpoint = checkpoints[0];
        if (checkpoint !== undefined && n === checkpoint.at) {
          checkpoints.shift();
          // Let calls in flight finish, then measure with nothing running.
          let resume!: () => void;
          pausing = new Promise<void>((resolve) => (resume = resolve));
          await new Promise((resolve) => setTimeout(resolve, 100));
          samples.push(await sample(checkpoint.label, n, runner));
          pausing = undefined;
          resume();
        }
        const hook = pick(n);
        session.step++;
        const command = n % 11 === 0 ? 'rm -rf build' : 'ls -la';
        let outcome: ListenerOutcome<unknown>;
        try {
          outcome = await hook.invoke({
            seam: 'tools/pre-execute',
            payload: { toolCallId: `c${n}`, toolName: 'bash', arguments: { command } },
            next: { action: 'allow' },
            session,
          });
        } catch {
          thrown++;
          continue;
        }
        const key = `${hook.name} ${outcome.type === 'fault' ? `fault:${outcome.fault.kind}` : outcome.type === 'decision' ? `decision:${(outcome.decision as { action: string }).action}` : outcome.type}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: options.sessions }, (_, s) => sessionLoop(s)));
    const seconds = (performance.now() - started) / 1000;
    samples.push(await sample('end', issued, runner));

    const loadAtEnd = loadavg();
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`hookbox soak: ${issued} calls, ${options.sessions} sessions, ${hooks.length} hooks, memory budget ${options.budgetMb} MiB, seed ${options.seed}`);
    out(`load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end; ${seconds.toFixed(1)} s, ${(issued / seconds).toFixed(0)} calls/s`);
    out('');
    out('sample      calls     RSS MiB   fds   instances   budget used MiB');
    for (const s of samples) {
      out(
        `${s.label.padEnd(10)} ${String(s.calls).padStart(7)} ${s.rssMb.toFixed(1).padStart(10)} ${String(s.fds).padStart(5)} ${String(s.instances).padStart(11)} ${s.budgetUsedMb.toFixed(1).padStart(17)}`,
      );
    }
    out('');
    for (const [key, count] of Object.entries(counts).sort()) out(`  ${key.padEnd(34)} ${count}`);
    out(`  evictions for the memory budget    ${runner.memory.evictions}`);
    out(`  workers started (replacements)     ${runner.workersStarted}`);
    if (thrown > 0) out(`  calls that threw instead of returning a value: ${thrown}`);

    const warm = samples.find((s) => s.label === 'warm-up') as Sample;
    const end = samples.at(-1) as Sample;
    const growth = (a: number, b: number) => (a === 0 ? (b === 0 ? 0 : Number.POSITIVE_INFINITY) : (b - a) / a);
    const checks = [
      { what: 'RSS', growth: growth(warm.rssMb, end.rssMb) },
      { what: 'open fds', growth: growth(warm.fds, end.fds) },
      { what: 'instances', growth: growth(warm.instances, end.instances) },
    ];
    out('');
    let flat = thrown === 0;
    for (const check of checks) {
      const ok = check.growth <= 0.1;
      flat &&= ok;
      out(`${check.what.padEnd(10)} warm-up → end: ${(check.growth * 100).toFixed(1).padStart(6)}%  ${ok ? 'flat' : 'GREW (> 10%)'}`);
    }
    out(flat ? 'result: flat' : 'result: NOT flat');
    return flat ? 0 : 1;
  } finally {
    await Promise.all(hooks.map((hook) => hook.close()));
    await runner.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
