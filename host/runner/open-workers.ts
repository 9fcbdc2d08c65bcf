/**
 * Starting a runner's worker threads on their own. This module loads the pool
 * and the channel only (none of the module loader, zod or the Extism SDK), so
 * a one-shot caller can start the workers first thing and load the rest while
 * they boot (`hookbox call`: host/cli/call-workers.ts), then hand the pool to
 * `HookRunner.open`.
 */
import { availableParallelism } from 'node:os';
import { DEFAULT_DATA_BYTES, DEFAULT_MAX_DATA_BYTES } from './channel.ts';
import { WorkerPool } from './pool.ts';

/**
 * Tuning defaults. Workers: one per core left after the main thread, but at least 2.
 * On 2 cores, 1 worker is ~10% faster for trivial hooks (the main thread's envelopes
 * and zod are the bottleneck), but 2 workers serve CPU-heavy hooks (a QuickJS policy,
 * ~1 ms a call) from 16 sessions twice as fast; idle workers no longer spin, so the
 * second one costs little.
 */
export const RUNNER_DEFAULTS = {
  workers: Math.max(2, availableParallelism() - 1),
  mainSpinUs: 30,
  workerSpinUs: 50,
  workerQueuedSpinUs: 200,
} as const;

/** The options of `HookRunner.start` that shape its workers. */
export interface WorkerOptions {
  /** Worker slots (a spare is started on top). Default `max(2, cores − 1)`. */
  readonly workers?: number;
  /** Keep a pre-started spare worker for instant replacement (default true; a one-shot CLI call skips it). */
  readonly spareWorker?: boolean;
  /** Longest main-thread spin per call in µs before sleeping (default 30; adaptive below it, see README). */
  readonly mainSpinUs?: number;
  /** Worker-side polling after a call in µs when no other call is queued for that worker (default 50). */
  readonly workerSpinUs?: number;
  /** Worker-side polling after a call in µs when main has more calls queued for that worker (default 200). */
  readonly workerQueuedSpinUs?: number;
  /** Shared channel data region per worker in bytes, at start (default 1 MiB). */
  readonly channelBytes?: number;
  /** Largest a worker's channel data region grows to for a big call, in bytes (default 64 MiB); bigger calls go by postMessage. */
  readonly channelMaxBytes?: number;
}

/** Starts the worker threads `options` ask for and returns at once (`WorkerPool.open`). */
export function openWorkers(options: WorkerOptions): WorkerPool {
  return WorkerPool.open(
    options.workers ?? RUNNER_DEFAULTS.workers,
    {
      dataBytes: options.channelBytes ?? DEFAULT_DATA_BYTES,
      maxDataBytes: options.channelMaxBytes ?? DEFAULT_MAX_DATA_BYTES,
      mainSpinUs: options.mainSpinUs ?? RUNNER_DEFAULTS.mainSpinUs,
      workerSpinUs: options.workerSpinUs ?? RUNNER_DEFAULTS.workerSpinUs,
      workerQueuedSpinUs: options.workerQueuedSpinUs ?? RUNNER_DEFAULTS.workerQueuedSpinUs,
    },
    options.spareWorker ?? true,
  );
}
