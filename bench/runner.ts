/**
 * The runner's hard limits, measured: a runaway CPU hook (time from the call
 * to the seam's decision against the configured wall timeout), memory bombs
 * (time to the `memory` fault at the cap), and the host's event-loop lag
 * while each runs. Every runaway terminates a worker; the pool's spare takes
 * its place, so trials are spaced to let the next spare start.
 */
import { performance } from 'node:perf_hooks';
import { invokeListener } from '../host/events/invoke.ts';
import type { HookRunner, WasmHook } from '../host/runner/index.ts';
import type { HookLimits } from '../host/runner/index.ts';
import { compileWat } from '../tests/helpers/wat.ts';
import { NEXT, PAYLOAD, SESSION } from './fixtures.ts';
import { sleep, withLagMonitor } from './harness.ts';
import { callMainThread, compileForMainThread, createMainThreadInstance } from './main-thread.ts';

/** One hostile call: how long until the seam had its decision, and what it was. */
export interface LimitTrial {
  readonly elapsedMs: number;
  /** The fault the runner recorded (`timeout`, `memory`…), or `none`. */
  readonly fault: string;
  /** The decision the seam took after the fault policy. */
  readonly applied: string;
  readonly lagMaxMs: number;
}

export interface LimitCase {
  readonly id: string;
  readonly label: string;
  /** The configured wall timeout (runaway) or the memory cap (bombs). */
  readonly limit: string;
  readonly timeoutMs: number;
  readonly trials: readonly LimitTrial[];
  /** Bombs only: the same guest on the main thread, call to fault, ms (what the guest's own work costs). */
  readonly mainThreadMs: readonly number[];
}

interface CaseSpec {
  readonly id: string;
  readonly label: string;
  readonly wasm: () => Promise<Uint8Array>;
  readonly limits: HookLimits;
  readonly limit: string;
  readonly trials: number;
  readonly payload?: typeof PAYLOAD;
  readonly sameSession?: boolean;
  /** Also time the guest on the main thread (only for guests that stop by themselves). */
  readonly mainThread?: boolean;
}

/** Waits after each trial for the replacement worker (a cold worker start is ~100 ms on this machine). */
const SETTLE_MS = 400;

async function runCase(runner: HookRunner, spec: CaseSpec): Promise<LimitCase> {
  const bytes = await spec.wasm();
  const trials: LimitTrial[] = [];
  // `sameSession`: one hook, one session, call after call; each call after a
  // timeout first re-creates the instance on the replacement worker.
  // Otherwise every trial loads the hook afresh, so its load-time probe
  // instance is ready and the clock covers the call alone.
  let shared: WasmHook | undefined;
  try {
    for (let i = 0; i < spec.trials; i++) {
      await sleep(SETTLE_MS);
      const hook = spec.sameSession
        ? (shared ??= await runner.load({ name: spec.id, wasm: bytes, limits: spec.limits, quarantineAfter: 1_000 }))
        : await runner.load({ name: `${spec.id}-${i}`, wasm: bytes, limits: spec.limits });
      try {
        const session = spec.sameSession ? SESSION : { ...SESSION, id: `${spec.id}-${i}` };
        const { value, lagMaxMs } = await withLagMonitor(async () => {
          const started = performance.now();
          const applied = await invokeListener(hook, 'tools/pre-execute', spec.payload ?? PAYLOAD, NEXT, session);
          return { applied, elapsedMs: performance.now() - started };
        });
        trials.push({
          elapsedMs: value.elapsedMs,
          fault: value.applied.invocation.fault?.kind ?? 'none',
          applied: value.applied.decision === null ? 'no-opinion' : value.applied.decision.action,
          lagMaxMs,
        });
      } finally {
        if (hook !== shared) await hook.close();
      }
    }
  } finally {
    await shared?.close();
  }
  await sleep(SETTLE_MS);
  const mainThreadMs: number[] = [];
  if (spec.mainThread === true) {
    const module = await compileForMainThread(bytes, `${spec.id}.wasm`);
    for (let i = 0; i < spec.trials; i++) {
      const instance = await createMainThreadInstance(module);
      try {
        const started = performance.now();
        await callMainThread(instance, spec.payload ?? PAYLOAD, SESSION, NEXT);
        mainThreadMs.push(performance.now() - started);
      } finally {
        await instance.close();
      }
    }
  }
  return { id: spec.id, label: spec.label, limit: spec.limit, timeoutMs: spec.limits.timeoutMs ?? 0, trials, mainThreadMs };
}

export interface LimitOptions {
  readonly runawayTimeoutMs: number;
  readonly trials: number;
  /** The bench's PDK allow hook (its `spin-forever` command never returns). */
  readonly allowHookBytes: Uint8Array;
  readonly onProgress: (message: string) => void;
}

/** Runaway CPU (WAT and JS), a linear-memory bomb, and a host-memory (alloc) bomb. */
export async function measureLimits(runner: HookRunner, options: LimitOptions): Promise<LimitCase[]> {
  const t = options.runawayTimeoutMs;
  const specs: CaseSpec[] = [
    {
      id: 'runaway-wat',
      label: 'runaway CPU (wasm loop)',
      wasm: () => compileWat('infinite-loop'),
      limits: { timeoutMs: t },
      limit: `timeout ${t} ms`,
      trials: options.trials,
    },
    {
      id: 'runaway-wat-repeat',
      label: 'runaway CPU, same session again',
      wasm: () => compileWat('infinite-loop'),
      limits: { timeoutMs: t },
      limit: `timeout ${t} ms`,
      trials: Math.max(2, Math.ceil(options.trials / 2)),
      sameSession: true,
    },
    {
      id: 'runaway-js',
      label: 'runaway CPU (JS for(;;))',
      wasm: async () => options.allowHookBytes,
      limits: { timeoutMs: t },
      limit: `timeout ${t} ms`,
      trials: Math.max(1, Math.ceil(options.trials / 2)),
      payload: { ...PAYLOAD, arguments: { command: 'spin-forever' } },
    },
    {
      id: 'memory-bomb',
      label: 'memory bomb (memory.grow)',
      wasm: () => compileWat('memory-bomb'),
      limits: { timeoutMs: 5_000, memoryMb: 64 },
      limit: 'cap 64 MiB',
      trials: options.trials,
      mainThread: true,
    },
    {
      id: 'alloc-bomb',
      label: 'memory bomb (Extism alloc)',
      wasm: () => compileWat('alloc-bomb'),
      limits: { timeoutMs: 5_000, memoryMb: 64 },
      limit: 'cap 64 MiB',
      trials: Math.max(1, Math.ceil(options.trials / 2)),
      mainThread: true,
    },
  ];
  const cases: LimitCase[] = [];
  for (const spec of specs) {
    options.onProgress(spec.label);
    cases.push(await runCase(runner, spec));
  }
  return cases;
}
