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
import { type InstanceRecord, type InstanceTableInit, InstanceTable } from './instance-table.ts';
import type { LogLine } from './log-sink.ts';
import { type BudgetRefusal, budgetRefusalMessage } from './memory-budget.ts';
import { Quarantine } from './quarantine.ts';
import type { ExportCallOutcome, HookLogEntry, WasmHook } from './types.ts';
import type { StackMapper } from './source-map.ts';
import { WorkerGoneError } from './worker-handle.ts';
import { warmUpHook } from './warm-up.ts';
import { type HookCodec, hookboxCodec } from './wire.ts';
import { releaseInput } from './input-lease.ts';
import type { SignalCallContext } from './signal-board.ts';
import type { SignalSpec } from './signal-spec.ts';

export interface WasmHookInit extends InstanceTableInit {
  readonly name: string;
  readonly sha256: string;
  readonly exports: readonly SeamId[];
  readonly seams: readonly SeamId[];
  readonly tools?: readonly string[];
  readonly failPolicy?: FailPolicy;
  /** The wire the hook speaks (default hookbox's msgpack envelope). */
  readonly codec?: HookCodec;
  readonly timeoutMs: number;
  /** The signals the operator granted this hook, by name (absent = none). */
  readonly signals?: Readonly<Record<string, SignalSpec>>;
  readonly quarantineAfter: number;
  readonly onLog: ((entry: HookLogEntry) => void) | undefined;
  /** Points a plugin error's `hook.js:LINE` frames at the author's source (source-map.ts). */
  readonly mapStack?: StackMapper;
}

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
  readonly #instances: InstanceTable;
  readonly #quarantine: Quarantine;
  #closed = false;

  constructor(init: WasmHookInit) {
    this.#init = init;
    this.#wire = init.codec ?? hookboxCodec;
    this.#quarantine = new Quarantine(init.quarantineAfter);
    this.#instances = new InstanceTable(init, {
      log: (session, lines) => this.#log(session, lines),
      evicted: (session, message) => init.onLog?.({ hook: this.name, level: 'warn', message, session }),
    });
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
  probe(): Promise<HookFault | undefined> {
    return this.#instances.probe();
  }

  async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
    const session = call.session.id;
    const refused = this.#refusedBeforeCall(session);
    if (refused !== undefined) return { type: 'fault', fault: refused };
    if (!this.exports.includes(call.seam)) {
      return this.#record(session, { type: 'fault', fault: hookFault('missing-export', `the module does not export "${exportForSeam(call.seam)}" for ${call.seam}`) });
    }
    const input = this.#wire.encode(call);
    const signals = this.#init.signals === undefined ? undefined : { hook: this.name, granted: this.#init.signals, event: call.session, runs: [] };
    let called: Called;
    try {
      called = await this.#call(session, EXPORT_NAMES.indexOf(exportForSeam(call.seam)), input, signals);
    } finally {
      // In the worker's channel (or posted) by now, or never sent: a big input's buffer serves the next call.
      releaseInput(input);
    }
    const outcome = 'fault' in called ? called.fault : this.#record(session, this.#wire.decode(call.seam, called.reply));
    // The session log keeps every signal run with the invocation that asked for it.
    return signals === undefined || signals.runs.length === 0 ? outcome : { ...outcome, signals: signals.runs };
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
  async #call(session: string, exportIndex: number, input: Uint8Array, signals?: SignalCallContext): Promise<Called> {
    let attempt = await this.#attempt(session, exportIndex, input, signals);
    if ('retry' in attempt) attempt = await this.#attempt(session, exportIndex, input, signals);
    if ('retry' in attempt) return { fault: this.#record(session, { type: 'fault', fault: hookFault('load', 'the worker died twice before the call ran') }) };
    if ('budget' in attempt) return { fault: { type: 'fault', fault: attempt.fault } };
    if ('fault' in attempt) return { fault: this.#record(session, { type: 'fault', fault: attempt.fault }) };
    return attempt;
  }

  /** Creates the session's instance now (in parallel with the session's first model call), not at its first hook call. */
  prepareSession(session: SessionInfo): void {
    if (this.#closed || this.quarantined) return;
    try {
      this.#instances.for(session.id);
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
    this.#instances.clear();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#instances.clear();
  }

  async #attempt(session: string, exportIndex: number, input: Uint8Array, signals?: SignalCallContext): Promise<Attempt | { retry: true }> {
    let record: InstanceRecord;
    try {
      record = this.#instances.for(session);
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
        this.#instances.forget(session, record, true, record.lost);
        if (record.lost) return { retry: true };
        return record.refused ? { fault: loadFault, budget: true } : { fault: loadFault };
      }
      const gate = () => (refusal = budget.run(record.budget)) === undefined;
      const result = await record.handle.call(record.id, exportIndex, input, this.#callTimeoutMs, gate, 'normal', signals);
      if ('refused' in result) {
        return { fault: hookFault('memory', budgetRefusalMessage('call', refusal as BudgetRefusal)), budget: true };
      }
      if ('timedOut' in result) {
        this.#instances.forget(session, record);
        return { fault: hookFault('timeout', `no answer within ${this.#callTimeoutMs} ms; the worker was terminated`) };
      }
      this.#log(session, result.logs);
      this.#instances.applyVars(session, result.vars);
      if (result.discard === true) this.#instances.forget(session, record, false);
      memoryBytes = result.memoryBytes;
      return { reply: result };
    } catch (error) {
      if (!(error instanceof WorkerGoneError)) throw error;
      // A worker that died under this very call was killed by it (heap limit, crash): that is this hook's fault.
      const own = error.inFlight && error.reason !== 'terminated';
      this.#instances.forget(session, record, true, !own);
      if (own) {
        return { fault: hookFault(error.reason === 'memory' ? 'memory' : 'trap', `the worker died during the call: ${error.message}`) };
      }
      return { retry: true };
    } finally {
      // Back to its reported size, unpinned (a no-op when the instance was dropped above).
      budget.settle(record.budget, memoryBytes);
    }
  }

  /**
   * A call's deadline: the hook's timeout, plus each granted signal's (a signal runs at most once
   * per event, and its run is the operator's program's time, not the hook's).
   */
  get #callTimeoutMs(): number {
    return Object.values(this.#init.signals ?? {}).reduce((sum, spec) => sum + spec.timeoutMs, this.#init.timeoutMs);
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
