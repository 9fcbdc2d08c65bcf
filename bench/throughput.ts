/**
 * Throughput: concurrent sessions, each dispatching the pre-tool seam in a
 * loop through a SeamBus holding N wasm hooks (all allowing, so every hook
 * runs on every dispatch). Hook calls/s = dispatches × hooks ÷ wall time.
 */
import { performance } from 'node:perf_hooks';
import { SeamBus } from '../host/events/index.ts';
import type { HookRunner, WasmHook } from '../host/runner/index.ts';
import { type BenchHook, EXPECTED_ACTION, PAYLOAD, SESSION } from './fixtures.ts';
import { type Summary, summarize } from './harness.ts';

export interface ThroughputRow {
  readonly hook: string;
  /** Worker slots of the runner that served it. */
  readonly workers: number;
  readonly sessions: number;
  readonly hooksPerSeam: number;
  readonly dispatches: number;
  readonly hookCallsPerSecond: number;
  /** Latency of one seam dispatch (all hooks of the seam) under this load. */
  readonly dispatch: Summary;
  /** Hook invocations that faulted (any fault means the figure is not a clean one). */
  readonly faults: number;
}

export interface ThroughputOptions {
  readonly workers: number;
  readonly configs: readonly { readonly sessions: number; readonly hooksPerSeam: number }[];
  readonly durationMs: number;
  readonly timeoutMs: number;
}

async function runConfig(runner: HookRunner, hook: BenchHook, sessions: number, hooksPerSeam: number, options: ThroughputOptions): Promise<ThroughputRow> {
  const hooks: WasmHook[] = [];
  try {
    const bus = new SeamBus();
    for (let i = 0; i < hooksPerSeam; i++) {
      const loaded = await runner.load({ name: `${hook.name}-tp-${i + 1}`, wasm: hook.bytes, tools: ['bash'], limits: { timeoutMs: options.timeoutMs } });
      hooks.push(loaded);
      bus.use(loaded);
    }
    const infos = Array.from({ length: sessions }, (_, i) => ({ ...SESSION, id: `tp-${sessions}x${hooksPerSeam}-${i}` }));
    let faults = 0;
    const dispatch = async (session: (typeof infos)[number]) => {
      const result = await bus.dispatch('tools/pre-execute', PAYLOAD, session);
      if (result.decision.action !== EXPECTED_ACTION) throw new Error(`throughput: decided ${JSON.stringify(result.decision)}`);
      for (const invocation of result.invocations) if (invocation.outcome === 'fault') faults++;
    };
    // Warm-up: every session's instances exist and every code path ran before the clock starts.
    await Promise.all(infos.map(async (session) => {
      for (let i = 0; i < 3; i++) await dispatch(session);
    }));
    faults = 0;
    const samples: number[] = [];
    const started = performance.now();
    const end = started + options.durationMs;
    await Promise.all(
      infos.map(async (session) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await dispatch(session);
          samples.push(performance.now() - t0);
        }
      }),
    );
    const elapsedS = (performance.now() - started) / 1000;
    return {
      hook: hook.name,
      workers: options.workers,
      sessions,
      hooksPerSeam,
      dispatches: samples.length,
      hookCallsPerSecond: (samples.length * hooksPerSeam) / elapsedS,
      dispatch: summarize(samples),
      faults,
    };
  } finally {
    for (const loaded of hooks) await loaded.close();
  }
}

/** Every configured (sessions, hooks per seam) pair for one hook. */
export async function measureThroughput(runner: HookRunner, hook: BenchHook, options: ThroughputOptions): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const config of options.configs) rows.push(await runConfig(runner, hook, config.sessions, config.hooksPerSeam, options));
  return rows;
}
