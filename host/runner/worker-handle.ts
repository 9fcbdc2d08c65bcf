import nodeModule from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { HookFault } from '../seams/fault.ts';
import { type CallReply, type FromWorker, HEADER_BYTES, Slot, type ToWorker, channelBuffer, ensureDataBytes } from './channel.ts';
import type { InstanceOptions } from './extism-adapter.ts';
import type { LogLine } from './log-sink.ts';
import { type ChannelReply, ReplyWait, SPILLED } from './reply-wait.ts';
import { type Priority, TaskQueue } from './task-queue.ts';
import { type SignalCallContext, answerSignal } from './signal-board.ts';

export type { Priority } from './task-queue.ts';

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
  /** Initial size of the shared data region. */
  readonly dataBytes: number;
  /** Largest the data region grows to for a big call; bigger calls fall back to postMessage. */
  readonly maxDataBytes: number;
  /**
   * Longest main-thread spin per call before sleeping in `Atomics.waitAsync` (keep it to tens of µs).
   * Adaptive below it: none for an instance whose recent calls took longer, none for a while after
   * repeated misses (back-off), and deferred to an idle event loop while other calls are in flight.
   */
  readonly mainSpinUs: number;
  /** Worker-side polling after each call before it sleeps, when nothing more is queued for it. */
  readonly workerSpinUs: number;
  /** Worker-side polling after a call when main had more calls queued for that worker. */
  readonly workerQueuedSpinUs: number;
}

/** Calls posted to any worker of this process and not answered yet: the main thread likely has other work when > 1. */
let callsInFlight = 0;
/** A call's result, or the deadline passed (the worker is then being terminated). */
export type CallResult = CallReply | { readonly timedOut: true };

/**
 * Asked when the worker is about to start a queued task; `false` skips it (it resolves
 * `{refused: true}`). The runner's memory budget charges a call when it runs, not while it waits.
 */
export type StartGate = () => boolean;

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);

/** The main thread's compile cache folder (Node 22+, when the bin enabled one): the worker enables the same. */
function compileCacheDir(): string | undefined {
  return (nodeModule as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
}

/**
 * The main-thread side of one worker: its lifecycle (start, messages, death),
 * the shared-memory channel, and the deadline that terminates the worker when
 * a guest does not return. Tasks run one at a time (`task-queue.ts`); a call's
 * reply is waited for by `reply-wait.ts`.
 */
export class WorkerHandle {
  readonly ready: Promise<void>;
  /** Live instances on this worker (the pool places new ones on the least loaded worker). */
  instanceCount = 0;
  /** Synthetic warm-up calls this worker has served, across hooks (see `warm-up.ts`). */
  warmUpCalls = 0;
  /** Called once when the worker dies for any reason (the pool replaces it). */
  onDeath: ((handle: WorkerHandle) => void) | undefined;

  readonly #worker: Worker;
  readonly #sab: SharedArrayBuffer;
  readonly #ctrl: Int32Array;
  /** Length-tracking: follows the buffer when either side grows it. */
  readonly #data: Uint8Array;
  #isReady = false;
  #dead = false;
  #deathReason: WorkerGoneError['reason'] = 'terminated';
  #seq = 0;
  readonly #tasks = new TaskQueue();
  readonly #replies: ReplyWait;
  readonly #waiters = new Map<string, { resolve: (message: FromWorker) => void; reject: (error: Error) => void }>();
  readonly #early = new Map<string, FromWorker>();
  readonly #modules = new Set<string>();
  /** The signals of the call running now (signal-board.ts). */
  #signals: SignalCallContext | undefined;

  constructor(tuning: WorkerTuning) {
    const sab = (this.#sab = channelBuffer(tuning.dataBytes, tuning.maxDataBytes));
    this.#ctrl = new Int32Array(sab, 0, HEADER_BYTES / 4);
    this.#data = new Uint8Array(sab, HEADER_BYTES);
    this.#replies = new ReplyWait(this.#ctrl, this.#data, tuning.mainSpinUs, () =>
      this.#dead ? new WorkerGoneError(this.#deathMessage, true, this.#deathReason) : undefined,
    );
    this.#worker = new Worker(BOOTSTRAP, {
      workerData: { sab, spinUs: tuning.workerSpinUs, queuedSpinUs: tuning.workerQueuedSpinUs, compileCacheDir: compileCacheDir() },
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
    gate?: StartGate,
    priority: Priority = 'normal',
  ): Promise<{ fault?: HookFault; logs: readonly LogLine[]; memoryBytes?: number } | { timedOut: true } | { refused: true }> {
    return this.#serial(priority, async () => {
      if (gate !== undefined && !gate()) return { refused: true } as const;
      const started = performance.now();
      const send = !this.#modules.has(moduleKey);
      this.#modules.add(moduleKey);
      const reply = this.#expect(`created:${id}`);
      this.#post({ op: 'create', id, moduleKey, ...(send && { modules }), options });
      const result = await this.#deadline(reply, started, timeoutMs);
      if ('timedOut' in result) return result;
      const created = result as Extract<FromWorker, { op: 'created' }>;
      return {
        ...(created.fault !== undefined && { fault: created.fault }),
        logs: created.logs,
        ...(created.memoryBytes !== undefined && { memoryBytes: created.memoryBytes }),
      };
    });
  }

  /** Calls an export of an instance on this worker. Rejects with `WorkerGoneError` if the worker is gone. */
  call(
    id: number,
    exportIndex: number,
    input: Uint8Array,
    timeoutMs: number,
    gate?: StartGate,
    priority: Priority = 'normal',
    signals?: SignalCallContext,
  ): Promise<CallResult | { refused: true }> {
    return this.#serial<CallResult | { refused: true }>(priority, async () => {
      if (gate !== undefined && !gate()) return { refused: true };
      // One call at a time per worker: a signal request arriving now belongs to this call.
      this.#signals = signals;
      try {
        return await this.#call(id, exportIndex, input, timeoutMs);
      } finally {
        this.#signals = undefined;
      }
    });
  }

  dispose(id: number): void {
    this.#replies.forget(id);
    if (!this.#dead) this.#post({ op: 'dispose', id });
  }

  async terminate(): Promise<void> {
    this.#die('terminated', 'worker terminated');
    await this.#worker.terminate().catch(() => undefined);
  }

  async #call(id: number, exportIndex: number, input: Uint8Array, timeoutMs: number): Promise<CallResult> {
    callsInFlight++;
    try {
      return await this.#dispatch(id, exportIndex, input, timeoutMs);
    } finally {
      callsInFlight--;
    }
  }

  async #dispatch(id: number, exportIndex: number, input: Uint8Array, timeoutMs: number): Promise<CallResult> {
    const started = performance.now();
    const seq = (this.#seq = (this.#seq + 1) | 0);
    if (!ensureDataBytes(this.#sab, input.byteLength)) {
      const reply = this.#expect(`reply:${seq}`);
      // Exact-size: a structured clone copies a view's whole buffer.
      this.#post({ op: 'call', seq, id, exportIndex, input: input.byteLength === input.buffer.byteLength ? input : input.slice() });
      const result = await this.#deadline(reply, started, timeoutMs);
      return 'timedOut' in result ? result : (result as Extract<FromWorker, { op: 'reply' }>).reply;
    }
    const ctrl = this.#ctrl;
    this.#data.set(input, 0);
    ctrl[Slot.reqLen] = input.byteLength;
    ctrl[Slot.instanceId] = id;
    ctrl[Slot.exportIndex] = exportIndex;
    ctrl[Slot.queued] = this.#tasks.waiting;
    Atomics.store(ctrl, Slot.reqSeq, seq);
    this.#ring();
    const waited = this.#replies.reply(seq, id, this.#tasks.waiting > 0 || callsInFlight > 1);
    if (waited instanceof Promise) return this.#deadline(waited.then((reply) => this.#unspill(reply, seq)), started, timeoutMs);
    return this.#unspill(waited, seq);
  }

  /** A reply too big for the channel follows by postMessage. */
  #unspill(reply: ChannelReply, seq: number): CallReply | Promise<CallReply> {
    if (reply !== SPILLED) return reply;
    return this.#expect(`reply:${seq}`).then((m) => (m as Extract<FromWorker, { op: 'reply' }>).reply);
  }

  /** Wakes the worker if it sleeps (it waits on the bell for requests and messages alike). */
  #ring(): void {
    Atomics.add(this.#ctrl, Slot.bell, 1);
    Atomics.notify(this.#ctrl, Slot.bell);
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

  /** Runs a task in its turn (`task-queue.ts`), once the worker is ready; refused once it is gone. */
  #serial<T>(priority: Priority, task: () => Promise<T>): Promise<T> {
    if (this.#dead) return Promise.reject(new WorkerGoneError('worker terminated'));
    return this.#tasks.run(priority, async () => {
      if (!this.#isReady) await this.ready;
      if (this.#dead) throw new WorkerGoneError('worker terminated');
      return task();
    });
  }

  #post(message: ToWorker): void {
    this.#worker.postMessage(message);
    // A worker asleep in Atomics.wait does not turn its event loop: tell it a message is there.
    Atomics.add(this.#ctrl, Slot.msgSeq, 1);
    this.#ring();
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
    if (message.op === 'signal') {
      void answerSignal(this.#signals, message.name).then((answer) => {
        message.port.postMessage(answer);
        message.port.close();
        Atomics.store(message.state, 0, 1);
        Atomics.notify(message.state, 0);
      });
      return;
    }
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
    this.#tasks.flush();
    this.onDeath?.(this);
  }
}
