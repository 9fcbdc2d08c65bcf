import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { HookFault } from '../seams/fault.ts';
import {
  type CallReply,
  type FromWorker,
  HEADER_BYTES,
  RespStatus,
  type ResponseExtras,
  Slot,
  type ToWorker,
} from './channel.ts';
import { waitAsync } from './wasm-api.ts';
import type { InstanceOptions } from './extism-adapter.ts';
import type { LogLine } from './log-sink.ts';

/** The worker died or was terminated before (or while) serving the request; the caller may retry elsewhere. */
export class WorkerGoneError extends Error {
  override name = 'WorkerGoneError';
  constructor(
    message: string,
    /** Whether the request was already running on the worker (then it may be what killed it). */
    readonly inFlight = false,
    /** Why the worker went: ran out of its heap limit, crashed, or was terminated (deadline, close). */
    readonly reason: 'memory' | 'crash' | 'terminated' = 'terminated',
  ) {
    super(message);
  }
}

export interface WorkerTuning {
  /** Size of the shared data region; bigger calls fall back to postMessage. */
  readonly dataBytes: number;
  /** Main-thread spin per call before sleeping in `Atomics.waitAsync` (keep it to tens of µs). */
  readonly mainSpinUs: number;
  /** Worker-side polling after each call before it sleeps. */
  readonly workerSpinUs: number;
}

/** A call's result, or the deadline passed (the worker is then being terminated). */
export type CallResult = CallReply | { readonly timedOut: true };

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);
const decoder = new TextDecoder();

/**
 * The main-thread side of one worker: a serial queue (one request in flight,
 * so no plugin instance is ever re-entered), the shared-memory channel, and
 * the deadline that terminates the worker when a guest does not return.
 */
export class WorkerHandle {
  readonly ready: Promise<void>;
  /** Live instances on this worker (the pool places new ones on the least loaded worker). */
  instanceCount = 0;
  /** Called once when the worker dies for any reason (the pool replaces it). */
  onDeath: ((handle: WorkerHandle) => void) | undefined;

  readonly #worker: Worker;
  readonly #ctrl: Int32Array;
  readonly #data: Uint8Array;
  readonly #tuning: WorkerTuning;
  #isReady = false;
  #dead = false;
  #deathReason: WorkerGoneError['reason'] = 'terminated';
  #seq = 0;
  #busy = false;
  readonly #queue: (() => void)[] = [];
  readonly #waiters = new Map<string, { resolve: (message: FromWorker) => void; reject: (error: Error) => void }>();
  readonly #early = new Map<string, FromWorker>();
  readonly #modules = new Set<string>();

  constructor(tuning: WorkerTuning) {
    this.#tuning = tuning;
    const sab = new SharedArrayBuffer(HEADER_BYTES + tuning.dataBytes);
    this.#ctrl = new Int32Array(sab, 0, HEADER_BYTES / 4);
    this.#data = new Uint8Array(sab, HEADER_BYTES);
    this.#worker = new Worker(BOOTSTRAP, {
      workerData: { sab, spinUs: tuning.workerSpinUs },
      execArgv: ['--disable-warning=ExperimentalWarning'],
      // Guests see no host environment; granted variables are passed explicitly per instance.
      env: {},
      // The guest's linear memory is capped per module; this bounds the worker's own JS heap.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
      stdout: false,
      stderr: false,
    });
    this.#worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.#expect('ready').then(() => {
        this.#isReady = true;
        resolve();
      }, reject);
    });
    this.ready.catch(() => undefined);
    this.#worker.on('message', (message: FromWorker) => this.#onMessage(message));
    this.#worker.on('error', (error: Error & { code?: string }) =>
      this.#die(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash', error.message),
    );
    this.#worker.on('exit', () => this.#die('crash', 'the worker exited'));
  }

  get dead(): boolean {
    return this.#dead;
  }

  /** Instantiates a plugin on this worker, under a deadline (a start function may never return). */
  create(
    id: number,
    moduleKey: string,
    modules: { guest: WebAssembly.Module; wrapper: WebAssembly.Module },
    options: Omit<InstanceOptions, 'guest' | 'wrapper'>,
    timeoutMs: number,
  ): Promise<{ fault?: HookFault; logs: readonly LogLine[] } | { timedOut: true }> {
    return this.#serial(async () => {
      const started = performance.now();
      const send = !this.#modules.has(moduleKey);
      this.#modules.add(moduleKey);
      const reply = this.#expect(`created:${id}`);
      this.#post({ op: 'create', id, moduleKey, ...(send && { modules }), options });
      const result = await this.#deadline(reply, started, timeoutMs);
      if ('timedOut' in result) return result;
      const created = result as Extract<FromWorker, { op: 'created' }>;
      return { ...(created.fault !== undefined && { fault: created.fault }), logs: created.logs };
    });
  }

  /** Calls an export of an instance on this worker. Rejects with `WorkerGoneError` if the worker is gone. */
  call(id: number, exportIndex: number, input: Uint8Array, timeoutMs: number): Promise<CallResult> {
    return this.#serial(() => this.#call(id, exportIndex, input, timeoutMs));
  }

  dispose(id: number): void {
    if (!this.#dead) this.#post({ op: 'dispose', id });
  }

  async terminate(): Promise<void> {
    this.#die('terminated', 'worker terminated');
    await this.#worker.terminate().catch(() => undefined);
  }

  async #call(id: number, exportIndex: number, input: Uint8Array, timeoutMs: number): Promise<CallResult> {
    const started = performance.now();
    const seq = (this.#seq = (this.#seq + 1) | 0);
    if (input.byteLength > this.#data.byteLength) {
      const reply = this.#expect(`reply:${seq}`);
      this.#post({ op: 'call', seq, id, exportIndex, input });
      const result = await this.#deadline(reply, started, timeoutMs);
      return 'timedOut' in result ? result : (result as Extract<FromWorker, { op: 'reply' }>).reply;
    }
    const ctrl = this.#ctrl;
    this.#data.set(input, 0);
    ctrl[Slot.reqLen] = input.byteLength;
    ctrl[Slot.instanceId] = id;
    ctrl[Slot.exportIndex] = exportIndex;
    Atomics.store(ctrl, Slot.reqSeq, seq);
    Atomics.notify(ctrl, Slot.reqSeq);
    // Bounded spin: a typical hook answers within it, and the main thread never spins longer.
    const spinUntil = started + this.#tuning.mainSpinUs / 1000;
    while (Atomics.load(ctrl, Slot.respSeq) !== seq && performance.now() < spinUntil);
    if (Atomics.load(ctrl, Slot.respSeq) === seq) return this.#readReply(seq);
    return this.#deadline(this.#awaitResponse(seq), started, timeoutMs);
  }

  async #awaitResponse(seq: number): Promise<CallReply> {
    for (;;) {
      const current = Atomics.load(this.#ctrl, Slot.respSeq);
      if (current === seq) return this.#readReply(seq);
      if (this.#dead) throw new WorkerGoneError(this.#deathMessage, true, this.#deathReason);
      const wait = waitAsync(this.#ctrl, Slot.respSeq, current);
      if (wait.async) await wait.value;
    }
  }

  #readReply(seq: number): CallReply | Promise<CallReply> {
    const ctrl = this.#ctrl;
    const status = ctrl[Slot.respStatus];
    if (status === RespStatus.spilled) {
      return this.#expect(`reply:${seq}`).then((m) => (m as Extract<FromWorker, { op: 'reply' }>).reply);
    }
    const outLen = ctrl[Slot.respOutLen] as number;
    const extraLen = ctrl[Slot.respExtraLen] as number;
    const output = outLen < 0 ? null : this.#data.slice(0, outLen);
    if (extraLen === 0) return { output, logs: [] };
    const start = Math.max(outLen, 0);
    const extras = JSON.parse(decoder.decode(this.#data.subarray(start, start + extraLen))) as ResponseExtras;
    return {
      output,
      ...(extras.fault !== undefined && { fault: extras.fault }),
      ...(extras.exit !== undefined && { exit: extras.exit }),
      ...(extras.discard !== undefined && { discard: extras.discard }),
      logs: extras.logs ?? [],
    };
  }

  /** Resolves with the work, or with `timedOut` at the deadline, after which this worker is terminated. */
  #deadline<T>(work: Promise<T> | T, started: number, timeoutMs: number): Promise<T | { timedOut: true }> {
    return new Promise((resolve, reject) => {
      const remaining = Math.max(0, timeoutMs - (performance.now() - started));
      const timer = setTimeout(() => {
        resolve({ timedOut: true });
        void this.terminate();
      }, remaining);
      Promise.resolve(work).then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** Runs tasks one at a time; the fast path skips the queue when idle. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    if (this.#dead) return Promise.reject(new WorkerGoneError('worker terminated'));
    const run = async (): Promise<T> => {
      this.#busy = true;
      try {
        if (!this.#isReady) await this.ready;
        if (this.#dead) throw new WorkerGoneError('worker terminated');
        return await task();
      } finally {
        this.#busy = false;
        this.#queue.shift()?.();
      }
    };
    if (!this.#busy) return run();
    return new Promise<T>((resolve, reject) => this.#queue.push(() => void run().then(resolve, reject)));
  }

  #post(message: ToWorker): void {
    this.#worker.postMessage(message);
  }

  #expect(key: string): Promise<FromWorker> {
    const early = this.#early.get(key);
    if (early !== undefined) {
      this.#early.delete(key);
      return Promise.resolve(early);
    }
    if (this.#dead) return Promise.reject(new WorkerGoneError('worker terminated'));
    return new Promise((resolve, reject) => this.#waiters.set(key, { resolve, reject }));
  }

  #onMessage(message: FromWorker): void {
    const key =
      message.op === 'ready' ? 'ready' : message.op === 'created' ? `created:${message.id}` : `reply:${message.seq}`;
    const waiter = this.#waiters.get(key);
    if (waiter === undefined) {
      this.#early.set(key, message);
      return;
    }
    this.#waiters.delete(key);
    waiter.resolve(message);
  }

  #deathMessage = 'worker terminated';

  #die(reason: WorkerGoneError['reason'], message: string): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#deathReason = reason;
    this.#deathMessage = message;
    // Wake our own waitAsync so it sees `dead` and settles.
    Atomics.notify(this.#ctrl, Slot.respSeq);
    // Waiters are requests already posted to the worker: in flight.
    const gone = new WorkerGoneError(message, true, reason);
    for (const waiter of this.#waiters.values()) waiter.reject(gone);
    this.#waiters.clear();
    for (const next of this.#queue.splice(0)) next();
    this.onDeath?.(this);
  }
}
