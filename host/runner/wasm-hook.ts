import type { ListenerOutcome, SeamCall } from '../events/index.ts';
import { type DecisionOf, type FailPolicy, type HookFault, type SeamId, exportForSeam, hookFault } from '../seams/index.ts';
import { type CallReply, EXPORT_NAMES } from './channel.ts';
import type { InstanceOptions } from './extism-adapter.ts';
import type { LogLine } from './log-sink.ts';
import type { WorkerPool } from './pool.ts';
import { Quarantine } from './quarantine.ts';
import type { HookLogEntry, WasmHook } from './types.ts';
import { type WorkerHandle, WorkerGoneError } from './worker-handle.ts';
import { type HookCodec, hookboxCodec } from './wire.ts';

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
}

interface InstanceRecord {
  handle: WorkerHandle;
  id: number;
  /** Settles when instantiation finished; a fault means it failed. */
  ready: Promise<HookFault | undefined>;
}

type Attempt = { readonly reply: Pick<CallReply, 'output' | 'fault' | 'exit' | 'discard'> } | { readonly fault: HookFault };

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
    if (this.#closed) return { type: 'fault', fault: hookFault('load', `hook "${this.name}" is closed`) };
    const quarantined = this.#quarantine.faultFor(call.session.id);
    if (quarantined !== undefined) return { type: 'fault', fault: quarantined };
    const session = call.session.id;
    if (!this.exports.includes(call.seam)) {
      return this.#record(session, { type: 'fault', fault: hookFault('missing-export', `the module does not export "${exportForSeam(call.seam)}" for ${call.seam}`) });
    }
    const exportIndex = EXPORT_NAMES.indexOf(exportForSeam(call.seam));
    const input = this.#wire.encode(call);
    let attempt = await this.#attempt(call.session.id, exportIndex, input);
    // The worker died under a queued call (another hook's runaway): retry once on a fresh instance.
    if ('retry' in attempt) attempt = await this.#attempt(call.session.id, exportIndex, input);
    if ('retry' in attempt) return this.#record(session, { type: 'fault', fault: hookFault('load', 'the worker died twice before the call ran') });
    if ('fault' in attempt) return this.#record(session, { type: 'fault', fault: attempt.fault });
    return this.#record(session, this.#wire.decode(call.seam, attempt.reply));
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
    const loadFault = await record.ready;
    if (loadFault !== undefined) {
      this.#forget(session, record);
      return { fault: loadFault };
    }
    try {
      const result = await record.handle.call(record.id, exportIndex, input, this.#init.timeoutMs);
      if ('timedOut' in result) {
        this.#forget(session, record);
        return { fault: hookFault('timeout', `no answer within ${this.#init.timeoutMs} ms; the worker was terminated`) };
      }
      this.#log(session, result.logs);
      if (result.discard === true) this.#forget(session, record, false);
      return { reply: result };
    } catch (error) {
      if (!(error instanceof WorkerGoneError)) throw error;
      this.#forget(session, record);
      // A worker that died under this very call was killed by it (heap limit, crash): that is this hook's fault.
      if (error.inFlight && error.reason !== 'terminated') {
        return { fault: hookFault(error.reason === 'memory' ? 'memory' : 'trap', `the worker died during the call: ${error.message}`) };
      }
      return { retry: true };
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
    if (existing !== undefined) this.#forget(session, existing, false);
    let record: InstanceRecord;
    const pool = this.#init.pool;
    if (this.#warm !== undefined && this.#warm.handle.dead) {
      this.#warm.handle.instanceCount--;
      this.#warm = undefined;
    }
    const bound = pool.affinity(session);
    if (this.#warm !== undefined && (bound === undefined || bound === this.#warm.handle)) {
      // The load-time instance serves the first session that can use it where it is.
      record = this.#warm;
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
    const handle = this.#init.pool.pick(session === '' ? undefined : session);
    const id = this.#init.nextInstanceId();
    handle.instanceCount++;
    const { module, instanceOptions, loadTimeoutMs } = this.#init;
    const ready = handle
      .create(id, module.key, { guest: module.guest, wrapper: module.wrapper }, instanceOptions, loadTimeoutMs)
      .then(
        (result): HookFault | undefined => {
          if ('timedOut' in result) return hookFault('load', `instantiation did not finish within ${loadTimeoutMs} ms (a start function that never returns?)`);
          this.#log(session, result.logs);
          return result.fault;
        },
        (error: unknown) => hookFault('load', `instantiation failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    return { handle, id, ready };
  }

  /** Drops a session's instance; `dispose` false when the worker already dropped it (or died). */
  #forget(session: string, record: InstanceRecord, dispose = true): void {
    if (this.#instances.get(session) === record) this.#instances.delete(session);
    record.handle.instanceCount--;
    if (dispose && !record.handle.dead) record.handle.dispose(record.id);
  }

  #dropAll(): void {
    for (const [session, record] of [...this.#instances]) this.#forget(session, record);
    if (this.#warm !== undefined) {
      this.#warm.handle.instanceCount--;
      if (!this.#warm.handle.dead) this.#warm.handle.dispose(this.#warm.id);
      this.#warm = undefined;
    }
  }

  #record<D>(session: string, outcome: ListenerOutcome<D>): ListenerOutcome<D> {
    this.#quarantine.record(session, outcome.type === 'fault' ? outcome.fault : undefined);
    return outcome;
  }

  #log(session: string, lines: readonly LogLine[]): void {
    const onLog = this.#init.onLog;
    if (onLog === undefined) return;
    for (const line of lines) onLog({ hook: this.name, level: line.level, message: line.message, session });
  }
}
