import { Packr, Unpackr } from 'msgpackr';
import { type ListenerOutcome, type SeamCall, checkDecision } from '../events/index.ts';
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

// Plain maps only: no msgpackr records or other extensions on the wire, and
// `undefined` as nil so a stray optional key never becomes an extension type.
const packr = new Packr({ useRecords: false, encodeUndefinedAsNil: true, variableMapSize: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

/** The msgpack input of one export call: `{v, seam, session, payload, next}`. */
export function encodeEnvelope<S extends SeamId>(
  seam: S,
  session: SessionInfo,
  payload: PayloadOf<S>,
  next: DecisionOf<S> | null,
): Uint8Array {
  const envelope: Envelope<PayloadOf<S>, DecisionOf<S>> = { v: PROTOCOL_VERSION, seam, session, payload, next };
  return packr.pack(envelope);
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
