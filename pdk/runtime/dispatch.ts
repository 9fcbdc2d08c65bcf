import type { HookContext } from '../hook-context.ts';
import type { SessionInfo } from '../types.ts';
import { hookContext } from './context.ts';
import { pdkGlobals } from './globals.ts';
import { decode, encode } from './msgpack.ts';

/** The wire protocol this PDK speaks (`PROTOCOL_VERSION` in host/seams; a literal so no host code is bundled). */
export const PDK_PROTOCOL_VERSION = 1;

interface WireEnvelope {
  v: number;
  seam: string;
  session: SessionInfo;
  payload: unknown;
  next: unknown;
}

/** The hookbox engine's msgpack in C (`globalThis.__hookbox`); absent under other js-pdk engines. */
interface NativeCodec {
  readInput(): unknown;
  writeOutput(value: unknown): boolean;
}

// The C codec when the engine has one (a few µs per call), else the portable
// JS codec over Host.inputBytes/outputBytes (~70 µs for a 2.5 KB envelope).
// Chosen when the module is evaluated (at pre-initialization), so that every
// call, the first one included, runs the same code and spends the same budget.
const native = (globalThis as { __hookbox?: NativeCodec }).__hookbox;
const codec: NativeCodec =
  typeof native === 'object' && native !== null
    ? native
    : {
        readInput: () => decode(new Uint8Array(pdkGlobals().Host.inputBytes())),
        writeOutput: (value) => pdkGlobals().Host.outputBytes(encode(value)),
      };

function readEnvelope(): WireEnvelope {
  const envelope = codec.readInput() as Partial<WireEnvelope> | null;
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw new TypeError('hookbox: the input is not an envelope object');
  }
  if (envelope.v !== PDK_PROTOCOL_VERSION) {
    throw new TypeError(`hookbox: unsupported protocol version ${String(envelope.v)} (this hook speaks ${PDK_PROTOCOL_VERSION})`);
  }
  return envelope as WireEnvelope;
}

function writeDecision(decision: unknown): number {
  if (decision !== undefined && decision !== null) codec.writeOutput(decision);
  return 0;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Wraps a typed handler as an Extism export (`() => 0`): decode the envelope,
 * call the handler, write its decision (nothing for `undefined` = no opinion).
 * An async handler's promise is returned to the engine, which settles it inside
 * the call. Exceptions and rejections propagate: the engine turns them into an
 * Extism error with the JS message and stack.
 */
export function seamExport(handler: (payload: unknown, ctx: HookContext<unknown>) => unknown): () => number | Promise<number> {
  return () => {
    const envelope = readEnvelope();
    const decision = handler(envelope.payload, hookContext(envelope.session, envelope.next ?? null));
    return isThenable(decision) ? Promise.resolve(decision).then(writeDecision) : writeDecision(decision);
  };
}
