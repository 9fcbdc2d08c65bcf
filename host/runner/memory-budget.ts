import { totalmem } from 'node:os';

const MIB = 1_048_576;

/** The default budget: the smaller of 1 GiB and a quarter of the machine's RAM. */
export function defaultMemoryBudgetBytes(): number {
  return Math.min(1024 * MIB, Math.floor(totalmem() / 4));
}

/** One live plugin instance as the budget sees it. */
export interface BudgetEntry {
  /** Bytes charged while not running: its memory as its worker last reported it (0 before it exists). */
  bytes: number;
  /** Most it can hold: linear-memory cap + Extism allocations and vars. Charged while it runs. */
  readonly capBytes: number;
  /** Calls (or its instantiation) queued or running: such an entry is never evicted. */
  pinned: number;
  /** Whether a call (or its instantiation) is running on its worker right now: charged at its cap. */
  running: boolean;
  /** Drops the instance (its session loses its state); `reason` is for the hook's log. */
  readonly evict: (reason: string) => void;
  /** Whether the instance is already gone (its worker died): the budget forgets it without evicting. */
  readonly gone: () => boolean;
}

/** Why a charge did not fit: the figures for the `memory` fault's message. */
export interface BudgetRefusal {
  readonly neededBytes: number;
  readonly budgetBytes: number;
  /** Bytes held by instances that could not be evicted (calls queued or running). */
  readonly pinnedBytes: number;
}

/**
 * One memory budget for every plugin instance of a runner, across hooks and
 * sessions. Worker `resourceLimits` do not count wasm memory, and each instance
 * is capped on its own; without this, 64 sessions × a hook that sits at its
 * 64 MiB cap took the process past 4 GiB.
 *
 * Accounting: an instance is charged its linear memory as last reported by
 * its worker. Its Extism vars are not measurable (the SDK keeps their size
 * private): between calls they are not charged — at most `memoryMb × 64 KiB`
 * per instance (the var limit), a known gap docs/reference/limits.md states. While a call (or the instantiation) actually runs on its worker — at
 * most one per worker — the instance is charged its *cap* (linear-memory
 * maximum + the per-call Extism allocation budget + vars), since the call may
 * reach it before anyone can look; when the call ends it drops back to the
 * reported size. The charge is taken when the worker starts the call, not when
 * it is queued, so calls waiting their turn cost nothing. The sum of charges
 * never exceeds the budget, so it bounds what instances hold at any moment.
 *
 * To fit a charge, idle instances (no call queued or running) are evicted
 * least-recently-used first, whatever their hook or session; a charge that
 * cannot fit even then is refused, and the caller answers that call with a
 * `memory` fault instead of growing the host.
 */
export class MemoryBudget {
  readonly budgetBytes: number;
  /** Insertion order = least recently used first. */
  readonly #entries = new Set<BudgetEntry>();
  #used = 0;
  /** Instances evicted to make room, since the runner started (for tests and figures). */
  evictions = 0;

  constructor(budgetBytes: number) {
    this.budgetBytes = budgetBytes;
  }

  /** Bytes charged right now. */
  get usedBytes(): number {
    return this.#used;
  }

  /** Live instances charged. */
  get instances(): number {
    return this.#entries.size;
  }

  /** A call for `entry` is queued (or it is about to be instantiated): it is not evicted until {@link settle}. */
  pin(entry: BudgetEntry): void {
    if (!this.#entries.has(entry)) {
      this.#entries.add(entry);
      this.#used += this.#charge(entry);
    } else {
      // Most recently used last.
      this.#entries.delete(entry);
      this.#entries.add(entry);
    }
    entry.pinned++;
  }

  /**
   * The worker is starting the call: charges the entry its cap, evicting idle instances to make
   * room. Returns a refusal (and changes nothing) when it cannot fit.
   */
  run(entry: BudgetEntry): BudgetRefusal | undefined {
    if (!this.#entries.has(entry)) return { neededBytes: entry.capBytes, budgetBytes: this.budgetBytes, pinnedBytes: this.#used };
    if (entry.running) return undefined;
    this.#sweep();
    const extra = entry.capBytes - entry.bytes;
    const refusal = this.#makeRoom(extra);
    if (refusal !== undefined) return refusal;
    entry.running = true;
    this.#used += extra;
    return undefined;
  }

  /** The call is over (or never ran): charged `reportedBytes` again (its cap if unknown), and unpinned. */
  settle(entry: BudgetEntry, reportedBytes: number | undefined): void {
    if (!this.#entries.has(entry)) return;
    const before = this.#charge(entry);
    if (entry.running) {
      entry.running = false;
      entry.bytes = reportedBytes === undefined ? entry.capBytes : Math.min(reportedBytes, entry.capBytes);
    }
    entry.pinned = Math.max(0, entry.pinned - 1);
    this.#used += this.#charge(entry) - before;
  }

  /** The instance is gone (dropped, discarded, its worker died): stops charging it. */
  release(entry: BudgetEntry): void {
    if (!this.#entries.delete(entry)) return;
    this.#used -= this.#charge(entry);
    entry.running = false;
    entry.pinned = 0;
  }

  #charge(entry: BudgetEntry): number {
    return entry.running ? entry.capBytes : entry.bytes;
  }

  /** Forgets entries whose worker died (their memory went with it). */
  #sweep(): void {
    for (const entry of [...this.#entries]) if (entry.gone()) this.release(entry);
  }

  #makeRoom(extra: number): BudgetRefusal | undefined {
    if (this.#used + extra <= this.budgetBytes) return undefined;
    let evictable = 0;
    for (const entry of this.#entries) if (entry.pinned === 0) evictable += entry.bytes;
    if (this.#used - evictable + extra > this.budgetBytes) {
      return { neededBytes: extra, budgetBytes: this.budgetBytes, pinnedBytes: this.#used - evictable };
    }
    for (const entry of [...this.#entries]) {
      if (this.#used + extra <= this.budgetBytes) break;
      if (entry.pinned > 0) continue;
      this.release(entry);
      this.evictions++;
      entry.evict(
        `instance dropped to stay within the runner's memory budget (${mib(this.budgetBytes)} MiB); this session's state (Var) is lost`,
      );
    }
    return undefined;
  }
}

/** Why the budget refused a call or a new instance, as the fault's message. */
export function budgetRefusalMessage(what: 'call' | 'instance', refusal: BudgetRefusal): string {
  return (
    `the runner's memory budget (${mib(refusal.budgetBytes)} MiB) cannot fit this ${what === 'call' ? 'call' : 'new instance'}: ` +
    `it needs ${mib(refusal.neededBytes)} MiB more and ${mib(refusal.pinnedBytes)} MiB are held by instances with calls queued or running`
  );
}

export function mib(bytes: number): string {
  return (bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1);
}
