import { totalmem } from 'node:os';

const MIB = 1_048_576;

/** The default budget: the smaller of 1 GiB and a quarter of the machine's RAM. */
export function defaultMemoryBudgetBytes(): number {
  return Math.min(1024 * MIB, Math.floor(totalmem() / 4));
}

/** One live plugin instance as the budget sees it. */
export interface BudgetEntry {
  /** Bytes charged while idle: the instance's memory as its worker last reported it. */
  bytes: number;
  /** Most it can hold: linear-memory cap + Extism allocations and vars. Charged while it runs. */
  readonly capBytes: number;
  /** Calls (or an instantiation) in flight: such an entry is never evicted. */
  busy: number;
  /** Drops the instance (its session loses its state); `reason` is for the hook's log. */
  readonly evict: (reason: string) => void;
  /** Whether the instance is already gone (its worker died): the budget forgets it without evicting. */
  readonly gone: () => boolean;
  /** For messages. */
  readonly label: string;
}

/** Why a charge did not fit: the figures for the `memory` fault's message. */
export interface BudgetRefusal {
  readonly neededBytes: number;
  readonly budgetBytes: number;
  /** Bytes held by instances that could not be evicted (calls in flight). */
  readonly busyBytes: number;
}

/**
 * One memory budget for every plugin instance of a runner, across hooks and
 * sessions. Worker `resourceLimits` do not count wasm memory, and each instance
 * is capped on its own; without this, 64 sessions × a hook that sits at its
 * 64 MiB cap took the process past 4 GiB.
 *
 * Accounting: an idle instance is charged its size as last reported by its
 * worker (linear memory, plus Extism vars at their cap: the SDK does not expose
 * their size). While an instance is created or called it is charged its *cap*
 * (linear-memory maximum + the per-call Extism allocation budget + vars),
 * since that is what the call may reach before anyone can look; after the call
 * it drops back to the reported size. So the sum of charges bounds what
 * instances can hold at any moment, calls in flight included.
 *
 * To fit a charge, idle instances are evicted least-recently-used first (any
 * hook, any session); a charge that cannot fit even then is refused, and the
 * caller answers that call with a `memory` fault instead of growing the host.
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

  /**
   * Starts a call or an instantiation on `entry` (adding it when new): charges its cap, evicting
   * idle instances LRU-first to make room. Returns a refusal when it cannot fit; then nothing changed
   * for `entry` (a new entry stays out of the budget).
   */
  begin(entry: BudgetEntry): BudgetRefusal | undefined {
    this.#sweep();
    const known = this.#entries.has(entry);
    const current = known ? this.#charge(entry) : 0;
    const after = entry.capBytes;
    const refusal = this.#makeRoom(after - current, entry);
    if (refusal !== undefined) return refusal;
    if (known) this.#entries.delete(entry);
    this.#used += after - current;
    entry.busy++;
    this.#entries.add(entry);
    return undefined;
  }

  /** Ends a call: the entry is charged `reportedBytes` (its memory now) again, or its cap if unknown. */
  end(entry: BudgetEntry, reportedBytes: number | undefined): void {
    if (!this.#entries.has(entry)) return;
    const before = this.#charge(entry);
    entry.busy = Math.max(0, entry.busy - 1);
    if (reportedBytes !== undefined) entry.bytes = Math.min(reportedBytes, entry.capBytes);
    this.#used += this.#charge(entry) - before;
  }

  /** The instance is gone (dropped, discarded, its worker died): stops charging it. */
  release(entry: BudgetEntry): void {
    if (!this.#entries.delete(entry)) return;
    this.#used -= this.#charge(entry);
    entry.busy = 0;
  }

  #charge(entry: BudgetEntry): number {
    return entry.busy > 0 ? entry.capBytes : entry.bytes;
  }

  /** Forgets entries whose worker died (their memory went with it). */
  #sweep(): void {
    for (const entry of [...this.#entries]) if (entry.gone()) this.release(entry);
  }

  #makeRoom(extra: number, keep: BudgetEntry): BudgetRefusal | undefined {
    if (this.#used + extra <= this.budgetBytes) return undefined;
    let evictable = 0;
    for (const entry of this.#entries) if (entry !== keep && entry.busy === 0) evictable += entry.bytes;
    if (this.#used - evictable + extra > this.budgetBytes) {
      return { neededBytes: extra, budgetBytes: this.budgetBytes, busyBytes: this.#used - evictable };
    }
    for (const entry of [...this.#entries]) {
      if (this.#used + extra <= this.budgetBytes) break;
      if (entry === keep || entry.busy > 0) continue;
      this.release(entry);
      this.evictions++;
      entry.evict(
        `instance dropped to stay within the runner's memory budget (${mib(this.budgetBytes)} MiB); this session's state (Var) is lost`,
      );
    }
    return undefined;
  }
}

export function mib(bytes: number): string {
  return (bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1);
}
