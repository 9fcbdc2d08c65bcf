/**
 * Synchronous HTTP for a runner worker. A guest's `http_request` is a
 * synchronous host call, and `fetch` is asynchronous, so one helper thread
 * per worker (`http-helper.mjs`) does the request while the worker waits in
 * `Atomics.wait`, never past the call's deadline. The helper is a child of
 * the worker: when the runner terminates the worker at a deadline, the helper
 * and its sockets go with it.
 */
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { waitAsync } from './wasm-api.ts';

const HELPER = new URL('./http-helper.mjs', import.meta.url);
/** Slots of the shared state word array (http-helper.mjs uses the same). */
const READY = 0;
const DONE = 1;
/** `state[READY]` when the helper exited (set here, never by the helper). */
const STOPPED = 2;

/** One request, already checked against the hook's grant. */
export interface HttpExchange {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  /** A longer response body is an error, not read past this. */
  readonly maxBytes: number;
}

/** What came back: the response, or why there is none (`timedOut`: the wait reached the deadline). */
export type HttpAnswer =
  | { readonly ok: true; readonly status: number; readonly headers: Record<string, string>; readonly body: Uint8Array }
  | { readonly ok: false; readonly reason: string; readonly timedOut: boolean };

interface HelperReply {
  readonly seq: number;
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: Uint8Array;
  readonly error?: string;
}

/** The helper thread of this worker and the channel to it. */
class HttpHelper {
  readonly #state = new Int32Array(new SharedArrayBuffer(8));
  readonly #port: MessagePort;
  #seq = 0;
  /** Why the helper thread failed, if it did. */
  #error = '';
  gone = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const worker = new Worker(HELPER, {
      workerData: { state: this.#state, port: port2 },
      transferList: [port2],
      env: {},
      // A response is capped (1 MiB by default); this bounds the helper's own heap.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    // Replies are taken with receiveMessageOnPort while blocked; no listener, so the port never holds the loop open.
    port1.unref();
    worker.on('error', (error: Error) => {
      this.#error = error.message;
    });
    worker.on('exit', () => {
      this.gone = true;
      if (current === this) current = undefined;
      // Wakes a creation still waiting in ready().
      Atomics.store(this.#state, READY, STOPPED);
      Atomics.notify(this.#state, READY);
    });
  }

  /** Settles once the helper listens; rejects if it stopped before that. */
  async ready(): Promise<void> {
    const wait = waitAsync(this.#state, READY, 0);
    if (wait.async) await wait.value;
    if (Atomics.load(this.#state, READY) === STOPPED) throw new Error(`the HTTP helper thread stopped before it listened${this.#error === '' ? '' : `: ${this.#error}`}`);
  }

  /** Blocks this thread until the answer comes or `deadline` (a `performance.now()` time) passes. */
  request(exchange: HttpExchange, deadline: number): HttpAnswer {
    const seq = ++this.#seq;
    const timeoutMs = deadline - performance.now();
    if (timeoutMs <= 0) return { ok: false, reason: 'no time left before the hook\'s deadline', timedOut: true };
    this.#port.postMessage({ seq, ...exchange, timeoutMs: Math.ceil(timeoutMs) });
    for (;;) {
      const reply = this.#take(seq);
      if (reply !== undefined) {
        if (reply.error !== undefined) {
          // The helper aborts its fetch at the same deadline: an abort that beats this thread's own check is still the deadline.
          if (performance.now() >= deadline) return { ok: false, reason: 'no answer before the hook\'s deadline', timedOut: true };
          return { ok: false, reason: reply.error, timedOut: false };
        }
        return { ok: true, status: reply.status ?? 0, headers: reply.headers ?? {}, body: reply.body ?? new Uint8Array(0) };
      }
      const left = deadline - performance.now();
      if (left <= 0 || this.gone) {
        return { ok: false, reason: this.gone ? 'the HTTP helper thread stopped' : 'no answer before the hook\'s deadline', timedOut: !this.gone };
      }
      // Wakes when any request finishes (an earlier, abandoned one too); the loop re-checks.
      const done = Atomics.load(this.#state, DONE);
      if (done !== seq) Atomics.wait(this.#state, DONE, done, left);
      else Atomics.wait(this.#state, DONE, done, Math.min(left, 1));
    }
  }

  /** The reply to `seq` if it has arrived; replies to abandoned requests are dropped. */
  #take(seq: number): HelperReply | undefined {
    for (;;) {
      const message = receiveMessageOnPort(this.#port) as { message: HelperReply } | undefined;
      if (message === undefined) return undefined;
      if (message.message.seq === seq) return message.message;
    }
  }
}

let current: HttpHelper | undefined;

/** This worker's helper thread, started on first use (again if it stopped). */
export function httpHelper(): HttpHelper {
  current ??= new HttpHelper();
  return current;
}
