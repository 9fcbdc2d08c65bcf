/**
 * `hookbox call`'s runner options and the start of its worker thread, apart
 * from the command: this module loads the runner's pool and channel only, so
 * main.ts starts the worker before it loads the command's modules (the
 * runner, zod, the config loader…), and the thread's boot (~100 ms, most of
 * it Node's own start-up in the new thread) overlaps their loading instead of
 * following it.
 */
import { openWorkers } from '../runner/open-workers.ts';
import type { WorkerPool } from '../runner/pool.ts';

/**
 * The runner of one call: one worker, no spare, compiling for a single call
 * (`oneShot`: lazily, no background tier-up for the exit to wait on).
 */
export const CALL_RUNNER_OPTIONS = { workers: 1, spareWorker: false, oneShot: true } as const;

/** Starts `hookbox call`'s worker without waiting for it; `HookRunner.open(CALL_RUNNER_OPTIONS, pool)` takes it. */
export function startCallWorkers(): WorkerPool {
  return openWorkers(CALL_RUNNER_OPTIONS);
}
