/**
 * One worker's serial queue: one task at a time, so no plugin instance is
 * ever re-entered. `background` work (the warm-up's throwaway instances and
 * synthetic calls) waits while any `normal` task is queued, so a session's
 * call is delayed by at most the one warm-up step already running, however
 * much warm-up is left.
 */

/** Which line a task waits in (see the module comment). */
export type Priority = 'normal' | 'background';

export class TaskQueue {
  #busy = false;
  readonly #normal: (() => void)[] = [];
  readonly #background: (() => void)[] = [];

  /** `normal` tasks waiting behind the running one (the worker keeps polling for the next call while > 0). */
  get waiting(): number {
    return this.#normal.length;
  }

  /** Runs `task` now when idle (no queueing cost on the fast path), else when its turn comes. */
  run<T>(priority: Priority, task: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      this.#busy = true;
      try {
        return await task();
      } finally {
        this.#busy = false;
        (this.#normal.shift() ?? this.#background.shift())?.();
      }
    };
    if (!this.#busy) return run();
    const queue = priority === 'normal' ? this.#normal : this.#background;
    return new Promise<T>((resolve, reject) => queue.push(() => void run().then(resolve, reject)));
  }

  /**
   * Starts every waiting task at once, `normal` ones first: when the worker dies each finds it
   * gone and settles (rejects) instead of waiting for a turn that never comes.
   */
  flush(): void {
    for (const next of [...this.#normal.splice(0), ...this.#background.splice(0)]) next();
  }
}
