import { WorkerHandle, type WorkerTuning } from './worker-handle.ts';

/**
 * A fixed number of worker slots plus one pre-started spare. When a worker
 * dies (a deadline terminated it, or it crashed), the spare takes its slot
 * at once, so no cold start lands on the critical path, and a new spare
 * warms up in the background.
 */
export class WorkerPool {
  readonly #slots: WorkerHandle[];
  readonly #tuning: WorkerTuning;
  #spare: WorkerHandle | undefined;
  #closed = false;
  /** Workers started since the pool opened, replacements included (for tests and figures). */
  started = 0;

  readonly #keepSpare: boolean;

  private constructor(size: number, tuning: WorkerTuning, spare: boolean) {
    this.#tuning = tuning;
    this.#keepSpare = spare;
    this.#slots = Array.from({ length: Math.max(1, size) }, () => this.#spawn());
    if (spare) this.#spare = this.#spawn();
  }

  /** Starts `size` workers (and a spare unless `spare` is false), and waits until all of them are ready. */
  static async start(size: number, tuning: WorkerTuning, spare = true): Promise<WorkerPool> {
    const pool = new WorkerPool(size, tuning, spare);
    try {
      await Promise.all([...pool.#slots, ...(pool.#spare ? [pool.#spare] : [])].map((handle) => handle.ready));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** The worker with the fewest live instances. */
  pick(): WorkerHandle {
    if (this.#closed) throw new Error('the worker pool is closed');
    let best = this.#slots[0] as WorkerHandle;
    for (const handle of this.#slots) if (handle.instanceCount < best.instanceCount) best = handle;
    return best;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#slots, ...(this.#spare ? [this.#spare] : [])];
    this.#spare = undefined;
    await Promise.all(all.map((handle) => handle.terminate()));
  }

  #spawn(): WorkerHandle {
    const handle = new WorkerHandle(this.#tuning);
    this.started++;
    handle.onDeath = (dead) => this.#replace(dead);
    return handle;
  }

  #replace(dead: WorkerHandle): void {
    if (this.#closed) return;
    if (dead === this.#spare) {
      this.#spare = this.#spawn();
      return;
    }
    if (!this.#keepSpare) {
      const index = this.#slots.indexOf(dead);
      if (index >= 0) this.#slots[index] = this.#spawn();
      return;
    }
    const index = this.#slots.indexOf(dead);
    if (index < 0) return;
    const spare = this.#spare;
    // A spare that is itself dead or still starting is still better than a cold start later.
    this.#slots[index] = spare !== undefined && !spare.dead ? spare : this.#spawn();
    this.#spare = this.#spawn();
  }
}
