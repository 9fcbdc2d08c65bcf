import { WorkerHandle, type WorkerTuning } from './worker-handle.ts';

/** Session → worker bindings kept (a forgotten one only loses placement, not state). */
const MAX_AFFINITY = 4096;

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
  /** Settles once the first workers are ready (see {@link WorkerPool.open}). */
  readonly ready: Promise<void>;
  /** Session id → the worker its instances were placed on. */
  readonly #affinity = new Map<string, WorkerHandle>();

  private constructor(size: number, tuning: WorkerTuning, spare: boolean) {
    this.#tuning = tuning;
    this.#keepSpare = spare;
    this.#slots = Array.from({ length: Math.max(1, size) }, () => this.#spawn());
    if (spare) this.#spare = this.#spawn();
    const first = [...this.#slots, ...(this.#spare ? [this.#spare] : [])];
    this.ready = Promise.all(first.map((handle) => handle.ready)).then(
      () => undefined,
      async (error: unknown) => {
        await this.close();
        throw error;
      },
    );
    // Nobody may be waiting yet; whoever awaits `ready` later still sees the rejection.
    this.ready.catch(() => undefined);
  }

  /** Starts `size` workers (and a spare unless `spare` is false), and waits until all of them are ready. */
  static async start(size: number, tuning: WorkerTuning, spare = true): Promise<WorkerPool> {
    const pool = WorkerPool.open(size, tuning, spare);
    await pool.ready;
    return pool;
  }

  /**
   * Starts the workers and returns at once, so the caller's own work overlaps their boot
   * (~100 ms each). `ready` settles when every first worker is ready; if one cannot start,
   * it rejects with that worker's error once the pool is closed.
   */
  static open(size: number, tuning: WorkerTuning, spare = true): WorkerPool {
    return new WorkerPool(size, tuning, spare);
  }

  /**
   * The worker for a new instance: the one this session's other hooks already run on (a session's
   * hooks run one after another, so the same worker stays warm between them instead of two
   * workers waking in turn), else the one with the fewest live instances.
   */
  pick(session?: string): WorkerHandle {
    if (this.#closed) throw new Error('the worker pool is closed');
    const bound = session === undefined ? undefined : this.affinity(session);
    if (bound !== undefined) return bound;
    let best = this.#slots[0] as WorkerHandle;
    for (const handle of this.#slots) if (handle.instanceCount < best.instanceCount) best = handle;
    if (session !== undefined) this.bind(session, best);
    return best;
  }

  /** The worker slots that are alive now (the spare excluded). */
  live(): WorkerHandle[] {
    return this.#slots.filter((handle) => !handle.dead);
  }

  /** The live worker a session is bound to, if any. */
  affinity(session: string): WorkerHandle | undefined {
    const handle = this.#affinity.get(session);
    if (handle === undefined || handle.dead || !this.#slots.includes(handle)) return undefined;
    return handle;
  }

  /** Binds a session to a worker (bounded: the oldest bindings are forgotten first). */
  bind(session: string, handle: WorkerHandle): void {
    this.#affinity.delete(session);
    this.#affinity.set(session, handle);
    if (this.#affinity.size > MAX_AFFINITY) this.#affinity.delete(this.#affinity.keys().next().value as string);
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
