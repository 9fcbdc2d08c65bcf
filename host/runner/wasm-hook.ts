import type { ListenerOutcome, SeamCall } from '../events/index.ts';
import {
  type DecisionOf,
  type FailPolicy,
  type HookFault,
  type SeamId,
  type SessionInfo,
  exportForSeam,
  hookFault,
} from '../seams/index.ts';
import { type CallReply, EXPORT_NAMES } from './channel.ts';
import type { InstanceOptions } from './extism-adapter.ts';
import type { LogLine } from './log-sink.ts';
import { type BudgetEntry, type BudgetRefusal, type MemoryBudget, budgetRefusalMessage } from './memory-budget.ts';
import type { WorkerPool } from './pool.ts';
import { Quarantine } from './quarantine.ts';
import type { ExportCallOutcome, HookLogEntry, WasmHook } from './types.ts';
import type { StackMapper } from './source-map.ts';
import { type WorkerHandle, WorkerGoneError } from './worker-handle.ts';
import { warmUpHook } from './warm-up.ts';
import { type HookCodec, hookboxCodec } from './wire.ts';
import { releaseInput } from './input-lease.ts';
import { SessionVars } from './var-mirror.ts';

/** A compiled module, shared by every instance of a hook on every worker. */
export interface CompiledHookModule {
  readonly key: string;
  readonly guest: WebAssembly.Module;
  readonly wrapper: WebAssembly.Module;
}

export interface WasmHookInit {
  readonly name: string;
  readonly sha256: string;
  readonly exports: readonly SeamId[];
  readonly seams: readonly SeamId[];
  readonly tools?: readonly string[];
  readonly failPolicy?: FailPolicy;
  /** The wire the hook speaks (default hookbox's msgpack envelope). */
  readonly codec?: HookCodec;
  readonly module: CompiledHookModule;
  readonly instanceOptions: Omit<InstanceOptions, 'guest' | 'wrapper'>;
  readonly timeoutMs: number;
  readonly loadTimeoutMs: number;
  readonly quarantineAfter: number;
  /** Sessions kept warm per hook; the least recently used instance is dropped beyond it (its Var state with it). */
  readonly maxInstances: number;
  readonly pool: WorkerPool;
  readonly onLog: ((entry: HookLogEntry) => void) | undefined;
  readonly nextInstanceId: () => number;
  /** The runner's memory budget, shared by every instance of every hook. */
  readonly budget: MemoryBudget;
  /** Most one instance can hold (linear-memory cap + Extism allocations + vars): charged while it runs. */
  readonly capBytes: number;
  /** Points a plugin error's `hook.js:LINE` frames at the author's source (source-map.ts). */
  readonly mapStack?: StackMapper;
}

interface InstanceRecord {
  handle: WorkerHandle;
  id: number;
  /** The session it serves (`''` for the load-time instance until a session takes it). */
  session: string;
  /** Settles when instantiation finished; a fault means it failed. */
  ready: Promise<HookFault | undefined>;
  readonly budget: BudgetEntry;
  dropped: boolean;
  /** Instantiation did not run: the memory budget could not fit it (a `memory` fault that is not the hook's). */
  refused: boolean;
  /** Instantiation never reached the worker: it was lost with it (another hook's runaway, say), not the hook's fault. */
  lost: boolean;
}

/** The pool placement key of the instances made at load (`probe`), handed to the first session. */
const LOAD_TIME_PLACEMENT = '\u0000hookbox-load';

type Attempt =
  | { readonly reply: Pick<CallReply, 'output' | 'fault' | 'exit' | 'discard'> }
  | { readonly fault: HookFault; readonly budget?: true };

/** A call that ran (its reply), or the fault outcome it ended in. */
type Called = { readonly reply: Pick<CallReply, 'output' | 'fault' | 'exit' | 'discard'> } | { readonly fault: { readonly type: 'fault'; readonly fault: HookFault } };

/**
 * A sandboxed wasm hook as a seam listener. One plugin instance per session
 * (sessions never share Var state), pinned to a worker whose serial queue
 * guarantees no instance is re-entered. Everything a plugin does comes back
 * as an outcome; nothing throws into the loop.
 */
export class WasmHookImpl implements WasmHook {
  readonly name: string;
  readonly digest: string;
  readonly sha256: string;
  readonly exports: readonly SeamId[];
  readonly seams: readonly SeamId[];
  readonly tools?: readonly string[];
  readonly failPolicy?: FailPolicy;
  readonly sandbox = 'wasm';
  /** The codec checks every decision as it decodes it. */
  readonly checksDecisions = true;

  readonly #init: WasmHookInit;
  readonly #wire: HookCodec;
  readonly #instances = new Map<string, InstanceRecord>();
  /** An instance made at load time (to prove the module instantiates), handed to the first session. */
  #warm: InstanceRecord | undefined;
  readonly #quarantine: Quarantine;
  /** Each session's Vars, kept here so that they outlive a worker another hook's runaway or crash took down. */
  readonly #vars = new SessionVars();
  #closed = false;

  constructor(init: WasmHookInit) {
    this.#init = init;
    this.#wire = init.codec ?? hookboxCodec;
    this.#quarantine = new Quarantine(init.quarantineAfter);
    this.name = init.name;
    this.sha256 = init.sha256;
    this.digest = init.sha256;
    this.exports = init.exports;
    this.seams = init.seams;
    if (init.tools !== undefined) this.tools = init.tools;
    if (init.failPolicy !== undefined) this.failPolicy = init.failPolicy;
  }

  get quarantined(): boolean {
    return this.#quarantine.hookWide;
  }

  isQuarantined(session: string): boolean {
    return this.#quarantine.quarantined(session);
  }

  /** Instantiates once so that a module that cannot start fails at load, not at its first call. */
  async probe(): Promise<HookFault | undefined> {
    const record = this.#createInstance('');
    const fault = await record.ready;
    if (fault === undefined) this.#warm = record;
    return fault;
  }

  async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
    const session = call.session.id;
    const refused = this.#refusedBeforeCall(session);
    if (refused !== undefined) return { type: 'fault', fault: refused };
    if (!this.exports.includes(call.seam)) {
      return this.#record(session, { type: 'fault', fault: hookFault('missing-export', `the module does not export "${exportForSeam(call.seam)}" for ${call.seam}`) });
    }
    const input = this.#wire.encode(call);
    let called: Called;
    try {
      called = await this.#call(session, EXPORT_NAMES.indexOf(exportForSeam(call.seam)), input);
    } finally {
      // In the worker's channel (or posted) by now, or never sent: a big input's buffer serves the next call.
      releaseInput(input);
    }
    if ('fault' in called) return called.fault;
    return this.#record(session, this.#wire.decode(call.seam, called.reply));
  }

  async callExport(name: string, input: Uint8Array, session: string): Promise<ExportCallOutcome> {
    const refused = this.#refusedBeforeCall(session);
    if (refused !== undefined) return { type: 'fault', fault: refused };
    const plain = this.#init.instanceOptions.plainExports ?? [];
    if (!plain.includes(name)) return { type: 'fault', fault: hookFault('missing-export', `export "${name}" is not among the hook's plainExports`) };
    const called = await this.#call(session, EXPORT_NAMES.length + plain.indexOf(name), input);
    if ('fault' in called) return called.fault;
    const { reply } = called;
    return this.#record(session, reply.fault !== undefined ? { type: 'fault', fault: reply.fault } : { type: 'output', output: reply.output });
  }

  /** Why no call runs at all: the hook is closed, or quarantined for this session. */
  #refusedBeforeCall(session: string): HookFault | undefined {
    if (this.#closed) return hookFault('load', `hook "${this.name}" is closed`);
    return this.#quarantine.faultFor(session);
  }

  /** Both paths' call: retried once when its worker died under it queued; faults count towards quarantine, a full budget (the runner's state) does not. */
  async #call(session: string, exportIndex: number, input: Uint8Array): Promise<Called> {
    let attempt = await this.#attempt(session, exportIndex, input);
    if ('retry' in attempt) attempt = await this.#attempt(session, exportIndex, input);
    if ('retry' in attempt) return { fault: this.#record(session, { type: 'fault', fault: hookFault('load', 'the worker died twice before the call ran') }) };
    if ('budget' in attempt) return { fault: { type: 'fault', fault: attempt.fault } };
    if ('fault' in attempt) return { fault: this.#record(session, { type: 'fault', fault: attempt.fault }) };
    return attempt;
  }

  /** Creates the session's instance now (in parallel with the session's first model call), not at its first hook call. */
  prepareSession(session: SessionInfo): void {
    if (this.#closed || this.quarantined) return;
    try {
      this.#instanceFor(session.id);
    } catch {
      // No worker to place it on (the pool is closing): the first call reports it.
    }
  }

  /** Warms the host path and this hook's code on every worker, off the critical path (see `warm-up.ts`). */
  warmUp(): Promise<void> {
    return warmUpHook(this.#init, this.#wire, this.seams, () => this.#closed);
  }

  async reload(): Promise<void> {
    this.#quarantine.clear();
    this.#dropAll();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#dropAll();
  }

  async #attempt(session: string, exportIndex: number, input: Uint8Array): Promise<Attempt | { retry: true }> {
    let record: InstanceRecord;
    try {
      record = this.#instanceFor(session);
    } catch (error) {
      return { fault: hookFault('load', `cannot place an instance: ${error instanceof Error ? error.message : String(error)}`) };
    }
    const budget = this.#init.budget;
    // Pinned (never evicted) from here, in the same tick, until the call is over; charged its cap
    // only once the worker starts it (the gate), so calls waiting their turn cost nothing.
    budget.pin(record.budget);
    let refusal: BudgetRefusal | undefined;
    let memoryBytes: number | undefined;
    try {
      const loadFault = await record.ready;
      if (loadFault !== undefined) {
        // Queued behind a call that got the worker terminated: made again on a fresh worker, like a queued call.
        this.#forget(session, record, true, record.lost);
        if (record.lost) return { retry: true };
        return record.refused ? { fault: loadFault, budget: true } : { fault: loadFault };
      }
      const gate = () => (refusal = budget.run(record.budget)) === undefined;
      const result = await record.handle.call(record.id, exportIndex, input, this.#init.timeoutMs, gate);
      if ('refused' in result) {
        return { fault: hookFault('memory', budgetRefusalMessage('call', refusal as BudgetRefusal)), budget: true };
      }
      if ('timedOut' in result) {
        this.#forget(session, record);
        return { fault: hookFault('timeout', `no answer within ${this.#init.timeoutMs} ms; the worker was terminated`) };
      }
      this.#log(session, result.logs);
      this.#vars.apply(session, result.vars);
      if (result.discard === true) this.#forget(session, record, false);
      memoryBytes = result.memoryBytes;
      return { reply: result };
    } catch (error) {
      if (!(error instanceof WorkerGoneError)) throw error;
      // A worker that died under this very call was killed by it (heap limit, crash): that is this hook's fault.
      const own = error.inFlight && error.reason !== 'terminated';
      this.#forget(session, record, true, !own);
      if (own) {
        return { fault: hookFault(error.reason === 'memory' ? 'memory' : 'trap', `the worker died during the call: ${error.message}`) };
      }
      return { retry: true };
    } finally {
      // Back to its reported size, unpinned (a no-op when the instance was dropped above).
      budget.settle(record.budget, memoryBytes);
    }
  }

  #instanceFor(session: string): InstanceRecord {
    const existing = this.#instances.get(session);
    if (existing !== undefined && !existing.handle.dead) {
      // Refresh LRU order.
      this.#instances.delete(session);
      this.#instances.set(session, existing);
      return existing;
    }
    // Its worker died under another instance's call: the session's Vars go to the new instance.
    if (existing !== undefined) this.#forget(session, existing, false, true);
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
    } else record = this.#createInstance(session);
    this.#instances.set(session, record);
    if (this.#instances.size > this.#init.maxInstances) {
      const [oldest, victim] = this.#instances.entries().next().value as [string, InstanceRecord];
      this.#forget(oldest, victim);
    }
    return record;
  }

  #createInstance(session: string): InstanceRecord {
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
          this.#log(record.session, result.logs);
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
    this.#forget(record.session, record);
    this.#init.onLog?.({ hook: this.name, level: 'warn', message: reason, session: record.session });
  }

  /**
   * Drops a session's instance; `dispose` false when the worker already dropped it (or died).
   * `keepVars` when it was lost to something that was not its own doing (its worker died under
   * another call): the session's next instance starts with its Vars. Otherwise — its own timeout,
   * trap-discard or crash, an eviction, a reload — the session starts fresh.
   */
  #forget(session: string, record: InstanceRecord, dispose = true, keepVars = false): void {
    if (this.#instances.get(session) === record) this.#instances.delete(session);
    if (!keepVars && session !== '') this.#vars.drop(session);
    this.#drop(record, dispose);
  }

  #drop(record: InstanceRecord, dispose: boolean): void {
    if (record.dropped) return;
    record.dropped = true;
    this.#init.budget.release(record.budget);
    record.handle.instanceCount--;
    if (dispose && !record.handle.dead) record.handle.dispose(record.id);
  }

  #dropAll(): void {
    for (const [session, record] of [...this.#instances]) this.#forget(session, record);
    this.#vars.clear();
    if (this.#warm !== undefined) {
      this.#drop(this.#warm, true);
      this.#warm = undefined;
    }
  }

  #record<O extends ListenerOutcome<unknown> | ExportCallOutcome>(session: string, outcome: O): O {
    this.#quarantine.record(session, outcome.type === 'fault' ? outcome.fault : undefined);
    const mapStack = this.#init.mapStack;
    if (outcome.type !== 'fault' || outcome.fault.kind !== 'plugin-error' || mapStack === undefined) return outcome;
    return { ...outcome, fault: { ...outcome.fault, message: mapStack(outcome.fault.message) } };
  }

  #log(session: string, lines: readonly LogLine[]): void {
    const onLog = this.#init.onLog;
    if (onLog === undefined) return;
    for (const line of lines) onLog({ hook: this.name, level: line.level, message: line.message, session });
  }
}
