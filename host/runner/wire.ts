// `msgpackr/pack` is msgpackr's plain-JS entry (Packr and Unpackr both): the main entry
// also looks for the optional native string extractor (msgpackr-extract, through
// node-gyp-build's probing), which cost a fresh process ~25-45 ms of CPU to load, while a
// decision (under 140 bytes) is decoded in JS either way; big strings go through TextDecoder.
import { Packr, Unpackr } from 'msgpackr/pack';
import { checkDecision } from '../events/check-decision.ts';
import type { ListenerOutcome, SeamCall } from '../events/listener.ts';
import {
  type DecisionOf,
  type Envelope,
  PROTOCOL_VERSION,
  type PayloadOf,
  type SeamId,
  type SessionInfo,
  hookFault,
} from '../seams/index.ts';
import type { CallReply } from './channel.ts';
import { packInput } from './input-lease.ts';

// Plain maps only: no msgpackr records or other extensions on the wire, and
// `undefined` as nil so a stray optional key never becomes an extension type.
const packr = new Packr({ useRecords: false, encodeUndefinedAsNil: true, variableMapSize: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

/**
 * The msgpack input of one export call: `{v, seam, session, payload, next}`,
 * the caller's own (see `packInput`). Packed into a retained buffer: msgpackr
 * reserves 3 bytes per character of a string before writing it and, when its
 * buffer is short, allocates four times the need and copies, so a 4 MiB tool
 * output meant a fresh ~48 MiB buffer every few calls. A big envelope is not
 * copied out of that buffer but lent with it: give it back with
 * `releaseInput` once nothing reads it (`WasmHook` does after the call), or
 * let it be collected, buffer and all.
 */
export function encodeEnvelope<S extends SeamId>(
  seam: S,
  session: SessionInfo,
  payload: PayloadOf<S>,
  next: DecisionOf<S> | null,
): Uint8Array {
  const envelope: Envelope<PayloadOf<S>, DecisionOf<S>> = { v: PROTOCOL_VERSION, seam, session, payload, next };
  // A Buffer: msgpackr writes strings with its `utf8Write`.
  return packInput((buffer) => {
    packr.useBuffer(buffer);
    return packr.pack(envelope);
  });
}

/**
 * Turns a plugin's output bytes into an outcome: empty = no opinion, else
 * one msgpack value → the seam's decision schema (`checkDecision`, the only
 * check of it on the way in). Untrusted bytes never throw.
 */
export function decodeDecision<S extends SeamId>(seam: S, bytes: Uint8Array | null): ListenerOutcome<DecisionOf<S>> {
  if (bytes === null || bytes.byteLength === 0) return { type: 'no-opinion' };
  let value: unknown;
  try {
    value = unpackr.unpack(bytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { type: 'fault', fault: hookFault('decode', `output is not one msgpack value (${bytes.byteLength} bytes): ${reason}`) };
  }
  return checkDecision(seam, value);
}

/** What a hook's export answered, as a codec reads it. */
export type ExportReply = Pick<CallReply, 'output' | 'fault' | 'exit'>;

/**
 * How a hook's calls cross the sandbox boundary: a seam call → the export's
 * input bytes, and the export's reply → an outcome whose decisions are
 * already checked against the seam's schema. The runner ships hookbox's own
 * msgpack codec ({@link hookboxCodec}); agent protocols are codecs from
 * `host/bridges`, chosen by `host/config` from the hook's declared protocol.
 */
export interface HookCodec {
  /** The protocol's name, for messages: `hookbox`, `claude-code`, … */
  readonly name: string;
  encode<S extends SeamId>(call: SeamCall<S>): Uint8Array;
  decode<S extends SeamId>(seam: S, reply: ExportReply): ListenerOutcome<DecisionOf<S>>;
}

/** hookbox's own wire: the msgpack envelope in, one msgpack decision (or nothing) out. */
export const hookboxCodec: HookCodec = {
  name: 'hookbox',
  encode: (call) => encodeEnvelope(call.seam, call.session, call.payload, call.next),
  decode: (seam, reply) => (reply.fault !== undefined ? { type: 'fault', fault: reply.fault } : decodeDecision(seam, reply.output)),
};
