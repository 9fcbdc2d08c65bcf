import { Packr, Unpackr } from 'msgpackr';
import type { ListenerOutcome } from '../events/index.ts';
import {
  type DecisionOf,
  type Envelope,
  PROTOCOL_VERSION,
  type PayloadOf,
  type SeamId,
  type SessionInfo,
  hookFault,
  seamDefinition,
} from '../seams/index.ts';

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
 * msgpack → the seam's decision schema. Untrusted bytes never throw.
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
  const parsed = seamDefinition(seam).decision.safeParse(value);
  if (parsed.success) return { type: 'decision', decision: parsed.data };
  const issues = parsed.error.issues.map((issue) => {
    const where = issue.path.length === 0 ? 'decision' : `decision.${issue.path.map(String).join('.')}`;
    return `${where}: ${issue.message}`;
  });
  return { type: 'fault', fault: hookFault('schema', `output is not a valid ${seam} decision: ${issues.join('; ')}`) };
}
