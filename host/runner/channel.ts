/**
 * The shared-memory call channel between the main thread and one worker.
 * postMessage costs ~39 µs p50 per round trip; a SharedArrayBuffer with a
 * short bounded spin on both sides costs ~0.6 µs (measured: README.md). One call is in
 * flight per worker at a time (the main thread queues per worker). An idle
 * worker sleeps in a blocking `Atomics.wait` on `bell`, which main bumps for
 * requests and for messages alike, so one word wakes it for either.
 *
 * Layout: 16 int32 header slots, then a data region. The request's input
 * bytes and the response's output bytes (+ JSON extras) share the region:
 * the worker is done with the input before it writes the response.
 *
 * The buffer is a growable SharedArrayBuffer: a call too big for the region
 * grows it (either side may, up to `maxDataBytes`) instead of travelling by
 * postMessage, whose structured clone lands in freshly allocated memory on
 * the other side every time. First-touch page faults made that the biggest
 * cost of a big call (~3.5 ms per MiB measured on the 2-core bench VM, against
 * ~0.05 ms per MiB to copy into pages already touched); a grown region stays
 * touched. Both sides view the region through length-tracking views.
 */
/// <reference lib="es2024.sharedmemory" />
import type { MessagePort } from 'node:worker_threads';
import type { HookFault } from '../seams/fault.ts';
import type { CallExit, InstanceOptions } from './extism-adapter.ts';
import type { LogLine } from './log-sink.ts';
import type { VarChange } from './var-mirror.ts';

export const Slot = {
  /** Main bumps it to post a request; the worker waits on it. */
  reqSeq: 0,
  /** The worker sets it to the request's seq when the response is written; main waits on it. */
  respSeq: 1,
  reqLen: 2,
  instanceId: 3,
  exportIndex: 4,
  /** 0 output, 1 fault, 2 spilled (the response comes by postMessage). */
  respStatus: 5,
  /** Output byte length, or -1 for no output. */
  respOutLen: 6,
  /** Length of the JSON extras (fault, discard, logs) after the output. */
  respExtraLen: 7,
  /** How long the worker spent serving the call, in µs (main sizes its spin from it). */
  respServeUs: 8,
  /** Bumped by main after every request and every postMessage: the word a sleeping worker waits on. */
  bell: 9,
  /** Bumped by main after every postMessage: the worker must turn its event loop to receive it. */
  msgSeq: 10,
  /** Calls queued behind the one just posted: the worker keeps polling for the next one when > 0. */
  queued: 11,
  /** The instance's linear memory after the call, in 64 KiB pages (-1: unknown): the runner's memory budget. */
  respMemPages: 12,
} as const;

export const RespStatus = { output: 0, fault: 1, spilled: 2 } as const;

export const HEADER_BYTES = 64;
/** Data region a channel starts with. */
export const DEFAULT_DATA_BYTES = 1 << 20;
/** Largest the data region grows to; calls with bigger inputs or outputs fall back to postMessage. */
export const DEFAULT_MAX_DATA_BYTES = 64 << 20;

/** A channel buffer: header, then a data region of `dataBytes` that may grow to `maxDataBytes`. */
export function channelBuffer(dataBytes: number, maxDataBytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + dataBytes, { maxByteLength: HEADER_BYTES + Math.max(dataBytes, maxDataBytes) });
}

/**
 * Makes room for `bytes` in the data region (to the next power of two, so a
 * session's growing payloads grow it a few times, not at every call).
 * `false` when that is past the buffer's maximum: the call goes by postMessage.
 */
export function ensureDataBytes(sab: SharedArrayBuffer, bytes: number): boolean {
  const need = HEADER_BYTES + bytes;
  if (need <= sab.byteLength) return true;
  if (need > sab.maxByteLength) return false;
  sab.grow(Math.min(sab.maxByteLength, HEADER_BYTES + 2 ** Math.ceil(Math.log2(bytes))));
  return true;
}

/** Wasm export names by index (generated from SEAMS, in its order), so a call names its export with one int. */
export { SEAM_EXPORTS as EXPORT_NAMES } from '../../pdk/generated/seam-names.ts';

/** JSON extras appended after the output bytes. */
export interface ResponseExtras {
  readonly fault?: HookFault;
  readonly exit?: CallExit;
  readonly discard?: boolean;
  readonly logs?: readonly LogLine[];
  readonly vars?: readonly VarChange[];
}

/** What the worker answers for one call, wherever it travelled. */
export interface CallReply {
  readonly output: Uint8Array | null;
  readonly fault?: HookFault;
  /** The export's return code / `error_set` text, when it failed on its own terms. */
  readonly exit?: CallExit;
  readonly discard?: boolean;
  readonly logs: readonly LogLine[];
  /** The instance's linear memory in bytes after the call (absent: unknown or discarded). */
  readonly memoryBytes?: number;
  /** What the call changed in the instance's Vars (the main thread keeps a copy: var-mirror.ts). */
  readonly vars?: readonly VarChange[];
}

/** Messages the main thread posts to a worker. */
export type ToWorker =
  | {
      readonly op: 'create';
      readonly id: number;
      readonly moduleKey: string;
      /** Sent the first time this worker sees the module key; cached by the worker after that. */
      readonly modules?: { readonly guest: WebAssembly.Module; readonly wrapper: WebAssembly.Module };
      readonly options: Omit<InstanceOptions, 'guest' | 'wrapper'>;
    }
  | { readonly op: 'dispose'; readonly id: number }
  | { readonly op: 'call'; readonly seq: number; readonly id: number; readonly exportIndex: number; readonly input: Uint8Array };

/** Messages a worker posts to the main thread. */
export type FromWorker =
  | { readonly op: 'ready' }
  | { readonly op: 'created'; readonly id: number; readonly fault?: HookFault; readonly logs: readonly LogLine[]; readonly memoryBytes?: number }
  | { readonly op: 'reply'; readonly seq: number; readonly reply: CallReply }
  /** A guest asked for a signal (signal-calls.ts): answer on `port`, then set `state[0]` and notify it. */
  | { readonly op: 'signal'; readonly name: unknown; readonly port: MessagePort; readonly state: Int32Array };
