/**
 * The main thread's wait for one reply on the shared channel: a short bounded
 * spin where it pays, else a sleep in `Atomics.waitAsync`, then the reply read
 * out of the data region. Spinning only pays when the reply lands within it;
 * otherwise it holds the core the worker (on 2 cores) or the other sessions'
 * work needs, so the spin is adaptive: none for an instance whose recent calls
 * took longer, none for a while after repeated misses (`spin-backoff.ts`), and
 * deferred to an idle event loop while the main thread has other work.
 */
import { type CallReply, RespStatus, type ResponseExtras, Slot } from './channel.ts';
import { performance } from 'node:perf_hooks';
import { waitAsync } from './wasm-api.ts';
import { SpinBackoff } from './spin-backoff.ts';

/** Weight of the newest sample in an instance's serve-time average. */
const SERVE_EWMA_WEIGHT = 0.25;

/** The reply did not fit the channel: it comes by postMessage instead. */
export const SPILLED = Symbol('spilled');
export type ChannelReply = CallReply | typeof SPILLED;

const decoder = new TextDecoder();

export class ReplyWait {
  readonly #ctrl: Int32Array;
  /** Length-tracking: follows the buffer when either side grows it. */
  readonly #data: Uint8Array;
  readonly #mainSpinUs: number;
  /** Why the worker is gone, once it is: a sleeping wait settles with it instead of waiting on. */
  readonly #gone: () => Error | undefined;
  /** Recent serve time per instance (µs, as the worker measured it): a hook slower than the spin is not spun for. */
  readonly #serveUs = new Map<number, number>();
  readonly #backoff = new SpinBackoff();

  constructor(ctrl: Int32Array, data: Uint8Array, mainSpinUs: number, gone: () => Error | undefined) {
    this.#ctrl = ctrl;
    this.#data = data;
    this.#mainSpinUs = mainSpinUs;
    this.#gone = gone;
  }

  /**
   * Waits for the reply to request `seq` of instance `id`. A reply caught by the spin is returned
   * as it is (no promise, no event-loop turn); otherwise a promise, which the caller holds to the
   * call's deadline. `mainBusy`: other calls are in flight or queued, so the main thread likely has
   * work of its own (a reply to decode and validate, the next hook to encode) to do before spinning.
   */
  reply(seq: number, id: number, mainBusy: boolean): ChannelReply | Promise<ChannelReply> {
    const spinUs = this.#spinBudget(id);
    if (spinUs > 0 && mainBusy) return this.#deferredSpin(seq, id, spinUs);
    if (spinUs > 0 && this.#spin(seq, performance.now() + spinUs / 1000)) return this.#read(id);
    return this.#sleep(seq, id);
  }

  /** Drops an instance's serve-time average (the instance was disposed). */
  forget(id: number): void {
    this.#serveUs.delete(id);
  }

  async #deferredSpin(seq: number, id: number, spinUs: number): Promise<ChannelReply> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.#gone() === undefined && this.#spin(seq, performance.now() + spinUs / 1000)) return this.#read(id);
    return this.#sleep(seq, id);
  }

  /** Bounded spin for the reply (the main thread never spins longer); backs off after repeated misses. */
  #spin(seq: number, until: number): boolean {
    const ctrl = this.#ctrl;
    while (Atomics.load(ctrl, Slot.respSeq) !== seq && performance.now() < until);
    const hit = Atomics.load(ctrl, Slot.respSeq) === seq;
    this.#backoff.record(hit);
    return hit;
  }

  /** How long to spin for this call (see the module comment). */
  #spinBudget(id: number): number {
    const max = this.#mainSpinUs;
    if (max <= 0 || !this.#backoff.shouldSpin()) return 0;
    const recent = this.#serveUs.get(id);
    return recent !== undefined && recent > max ? 0 : max;
  }

  async #sleep(seq: number, id: number): Promise<ChannelReply> {
    for (;;) {
      const current = Atomics.load(this.#ctrl, Slot.respSeq);
      if (current === seq) return this.#read(id);
      const gone = this.#gone();
      if (gone !== undefined) throw gone;
      const wait = waitAsync(this.#ctrl, Slot.respSeq, current);
      if (wait.async) await wait.value;
    }
  }

  #read(id: number): ChannelReply {
    const ctrl = this.#ctrl;
    const served = ctrl[Slot.respServeUs] as number;
    const recent = this.#serveUs.get(id);
    this.#serveUs.set(id, recent === undefined ? served : recent + (served - recent) * SERVE_EWMA_WEIGHT);
    if (ctrl[Slot.respStatus] === RespStatus.spilled) return SPILLED;
    const outLen = ctrl[Slot.respOutLen] as number;
    const extraLen = ctrl[Slot.respExtraLen] as number;
    const output = outLen < 0 ? null : this.#data.slice(0, outLen);
    const pages = ctrl[Slot.respMemPages] as number;
    const memory = pages < 0 ? {} : { memoryBytes: pages * 65_536 };
    if (extraLen === 0) return { output, logs: [], ...memory };
    const start = Math.max(outLen, 0);
    const extras = JSON.parse(decoder.decode(this.#data.subarray(start, start + extraLen))) as ResponseExtras;
    return {
      output,
      ...(extras.fault !== undefined && { fault: extras.fault }),
      ...(extras.exit !== undefined && { exit: extras.exit }),
      ...(extras.discard !== undefined && { discard: extras.discard }),
      logs: extras.logs ?? [],
      ...(extras.vars !== undefined && { vars: extras.vars }),
      ...memory,
    };
  }
}
