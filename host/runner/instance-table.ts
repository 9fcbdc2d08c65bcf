import { type HookFault, hookFault } from '../seams/index.ts';
import type { InstanceOptions } from './extism-adapter.ts';
import type { LogLine } from './log-sink.ts';
import { type BudgetEntry, type BudgetRefusal, type MemoryBudget, budgetRefusalMessage } from './memory-budget.ts';
import type { WorkerPool } from './pool.ts';
import { type VarChange, SessionVars } from './var-mirror.ts';
import { type WorkerHandle, WorkerGoneError } from './worker-handle.ts';

/** A compiled module, shared by every instance of a hook on every worker. */
export interface CompiledHookModule {
  readonly key: string;
  readonly guest: WebAssembly.Module;
  readonly wrapper: WebAssembly.Module;
}

/** What the table needs of a loaded hook to make, place and charge its instances. */
export interface InstanceTableInit {
  readonly module: CompiledHookModule;
  readonly instanceOptions: Omit<InstanceOptions, 'guest' | 'wrapper'>;
  readonly loadTimeoutMs: number;
  /** Sessions kept warm per hook; the least recently used instance is dropped beyond it (its Var state with it). */
  readonly maxInstances: number;
  readonly pool: WorkerPool;
  readonly nextInstanceId: () => number;
  /** The runner's memory budget, shared by every instance of every hook. */
  readonly budget: MemoryBudget;
  /** Most one instance can hold (linear-memory cap + Extism allocations + vars): charged while it runs. */
  readonly capBytes: number;
}

/** Where the table reports: the instance's own log lines, and why the budget took an instance away. */
export interface InstanceTableEvents {
  readonly log: (session: string, lines: readonly LogLine[]) => void;
  readonly evicted: (session: string, reason: string) => void;
}

export interface InstanceRecord {
  readonly handle: WorkerHandle;
  readonly id: number;
  /** The session it serves (`''` for the load-time instance until a session takes it). */
  session: string;
  /** Settles when instantiation finished; a fault means it failed. */
  readonly ready: Promise<HookFault | undefined>;
  readonly budget: BudgetEntry;
  dropped: boolean;
  /** Instantiation did not run: the memory budget could not fit it (a `memory` fault that is not the hook's). */
  refused: boolean;
  /** Instantiation never reached the worker: it was lost with it (another hook's runaway, say), not the hook's fault. */
  lost: boolean;
}

/** The pool placement key of the instances made at load (`probe`), handed to the first session. */
const LOAD_TIME_PLACEMENT = '\u0000hookbox-load';

/**
 * One hook's instances: one per session (sessions never share Var state),
 * least recently used first, each charged to the memory budget, plus the
 * instance made at load that the first session takes over. Each session's
 * Vars are kept here too, so that they outlive a worker another hook's
 * runaway or crash took down and reach the session's next instance.
 */
export class InstanceTable {
  readonly #init: InstanceTableInit;
  readonly #events: InstanceTableEvents;
  readonly #instances = new Map<string, InstanceRecord>();
  /** An instance made at load time (to prove the module instantiates), handed to the first session. */
  #warm: InstanceRecord | undefined;
  readonly #vars = new SessionVars();

  constructor(init: InstanceTableInit, events: InstanceTableEvents) {
    this.#init = init;
    this.#events = events;
  }

  /** Instantiates once, kept for the first session when it started: a module that cannot start fails at load. */
  async probe(): Promise<HookFault | undefined> {
    const record = this.#create('');
    const fault = await record.ready;
    if (fault === undefined) this.#warm = record;
    return fault;
  }

  /** The session's instance: its live one (now the most recently used), the load-time one, or a new one. */
  for(session: string): InstanceRecord {
    const existing = this.#instances.get(session);
    if (existing !== undefined && !existing.handle.dead) {
      // Refresh LRU order.
      this.#instances.delete(session);
      this.#instances.set(session, existing);
      return existing;
    }
    // Its worker died under another instance's call: the session's Vars go to the new instance.
    if (existing !== undefined) this.forget(session, existing, false, true);
    let record: InstanceRecord;
    const pool = this.#init.pool;
    if (this.#warm !== undefined && this.#warm.handle.dead) {
      this.#drop(this.#warm, false);
      this.#warm = undefined;
    }
    const bound = pool.affinity(session);
    if (this.#warm !== undefined && (bound === undefined || bound === this.#warm.handle)) {
      // The load-time instance serves the first session that can use it where it is.
      record = this.#warm;
      record.session = session;
      this.#warm = undefined;
      pool.bind(session, record.handle);
    } else record = this.#create(session);
    this.#instances.set(session, record);
    if (this.#instances.size > this.#init.maxInstances) {
      const [oldest, victim] = this.#instances.entries().next().value as [string, InstanceRecord];
      this.forget(oldest, victim);
    }
    return record;
  }

  /** The Var changes a call of the session's instance reported, kept for its next instance. */
  applyVars(session: string, changes: readonly VarChange[] | undefined): void {
    this.#vars.apply(session, changes);
  }

  /**
   * Drops a session's instance; `dispose` false when the worker already dropped it (or died).
   * `keepVars` when it was lost to something that was not its own doing (its worker died under
   * another call): the session's next instance starts with its Vars. Otherwise — its own timeout,
   * trap-discard or crash, an eviction, a reload — the session starts fresh.
   */
  forget(session: string, record: InstanceRecord, dispose = true, keepVars = false): void {
    if (this.#instances.get(session) === record) this.#instances.delete(session);
    if (!keepVars && session !== '') this.#vars.drop(session);
    this.#drop(record, dispose);
  }

  /** Every instance dropped and every session's Vars with them (a reload, a close). */
  clear(): void {
    for (const [session, record] of [...this.#instances]) this.forget(session, record);
    this.#vars.clear();
    if (this.#warm !== undefined) {
      this.#drop(this.#warm, true);
      this.#warm = undefined;
    }
  }

  #create(session: string): InstanceRecord {
    const { budget, capBytes, module, loadTimeoutMs } = this.#init;
    const kept = session === '' ? undefined : this.#vars.restore(session);
    const instanceOptions = kept === undefined ? this.#init.instanceOptions : { ...this.#init.instanceOptions, vars: kept };
    // Load-time instances (session '') all go to one worker: the first session takes them all there
    // (its hooks share a worker), instead of finding half of them on the other worker and making new ones.
    const handle = this.#init.pool.pick(session === '' ? LOAD_TIME_PLACEMENT : session);
    // `record` is assigned below, before the budget can ever call `evict` (only idle entries are evicted).
    // eslint-disable-next-line prefer-const
    let record: InstanceRecord;
    const entry: BudgetEntry = {
      bytes: 0,
      capBytes,
      pinned: 0,
      running: false,
      gone: () => handle.dead,
      evict: (reason) => this.#evict(record, reason),
    };
    // Pinned while queued; charged its cap once the worker starts instantiating it (a start function
    // may grow memory), evicting idle instances to fit; then its reported size.
    budget.pin(entry);
    let refusal: BudgetRefusal | undefined;
    const gate = () => (refusal = budget.run(entry)) === undefined;
    const id = this.#init.nextInstanceId();
    handle.instanceCount++;
    const ready = handle
      .create(id, module.key, { guest: module.guest, wrapper: module.wrapper }, instanceOptions, loadTimeoutMs, gate)
      .then(
        (result): HookFault | undefined => {
          if ('refused' in result) {
            record.refused = true;
            return hookFault('memory', budgetRefusalMessage('instance', refusal as BudgetRefusal));
          }
          if ('timedOut' in result) return hookFault('load', `instantiation did not finish within ${loadTimeoutMs} ms (a start function that never returns?)`);
          this.#events.log(record.session, result.logs);
          if (result.fault === undefined) budget.settle(entry, result.memoryBytes);
          return result.fault;
        },
        (error: unknown) => {
          // Not yet posted to the worker when it went (queued behind another request): not this hook's doing.
          if (error instanceof WorkerGoneError && !error.inFlight) record.lost = true;
          return hookFault('load', `instantiation failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .then((fault) => {
        if (fault !== undefined) budget.release(entry);
        return fault;
      });
    record = { handle, id, session, ready, budget: entry, dropped: false, refused: false, lost: false };
    return record;
  }

  /** The memory budget dropped an idle instance to make room: its session starts fresh next time. */
  #evict(record: InstanceRecord, reason: string): void {
    if (record.dropped) return;
    if (this.#warm === record) {
      this.#warm = undefined;
      this.#drop(record, true);
      return;
    }
    this.forget(record.session, record);
    this.#events.evicted(record.session, reason);
  }

  #drop(record: InstanceRecord, dispose: boolean): void {
    if (record.dropped) return;
    record.dropped = true;
    this.#init.budget.release(record.budget);
    record.handle.instanceCount--;
    if (dispose && !record.handle.dead) record.handle.dispose(record.id);
  }
}
