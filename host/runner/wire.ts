import { Packr, Unpackr } from 'msgpackr';
import { type ToolProtocol, protocolInput, protocolOutcome } from '../bridges/index.ts';
import type { ListenerOutcome, SeamCall } from '../events/index.ts';
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

/** The wire a hook speaks: hookbox's msgpack envelope, or a coding agent's JSON protocol. */
export type WireProtocol = 'hookbox' | ToolProtocol;

/** Encodes a seam call for one export and turns the export's reply into an outcome. */
export interface WireCodec {
  encode<S extends SeamId>(call: SeamCall<S>): Uint8Array;
  decode<S extends SeamId>(seam: S, reply: Pick<CallReply, 'output' | 'fault' | 'exit'>): ListenerOutcome<DecisionOf<S>>;
}

const hookboxWire: WireCodec = {
  encode: (call) => encodeEnvelope(call.seam, call.session, call.payload, call.next),
  decode: (seam, reply) => (reply.fault !== undefined ? { type: 'fault', fault: reply.fault } : decodeDecision(seam, reply.output)),
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A tool protocol over wasm: the input is the tool's JSON (UTF-8, not
 * msgpack); the export's output is stdout, its return code the exit code and
 * its `error_set` text stderr, all mapped by the same code as shell hooks.
 * `error_set` with return code 0 stays a `plugin-error` (Extism: the call
 * failed, and its output is lost), and every other fault stays what it is.
 */
function toolWire(protocol: ToolProtocol): WireCodec {
  return {
    encode: (call) => new TextEncoder().encode(JSON.stringify(protocolInput(protocol, call))),
    decode: (seam, reply) => {
      if (reply.fault !== undefined) {
        const exit = reply.exit;
        if (exit === undefined || exit.code === 0) return { type: 'fault', fault: reply.fault };
        return protocolOutcome(protocol, seam, { exitCode: exit.code, stdout: '', stderr: exit.errorText ?? '' });
      }
      let stdout: string;
      try {
        stdout = reply.output === null ? '' : utf8.decode(reply.output);
      } catch {
        return { type: 'fault', fault: hookFault('decode', `output is not UTF-8 text (${reply.output?.byteLength ?? 0} bytes)`) };
      }
      return protocolOutcome(protocol, seam, { exitCode: 0, stdout, stderr: '' });
    },
  };
}

const codecs: Record<WireProtocol, WireCodec> = {
  hookbox: hookboxWire,
  'claude-code': toolWire('claude-code'),
  codex: toolWire('codex'),
};

/** The codec for a hook's declared protocol. */
export function wireCodec(protocol: WireProtocol): WireCodec {
  return codecs[protocol];
}
