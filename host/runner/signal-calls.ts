/**
 * The `hookbox_signal` host function (`extism:host/user`), in a worker: the
 * guest passes a signal's name; the main thread (signal-board.ts) checks the
 * grant, runs the signal at most once per event and answers; the worker
 * waits for that answer synchronously, as the guest's call is synchronous.
 * A hook granted no signal gets a function that refuses every name without
 * asking anyone. Output comes back as a JSON block the PDK's `signal()`
 * reads; a signal that timed out or could not start ends the call in a
 * fault (thrown through the guest, mapped by the adapter).
 */
import { MessageChannel, parentPort, receiveMessageOnPort } from 'node:worker_threads';
import type { HookFaultKind } from '../seams/fault.ts';
import type { LogSink } from './log-sink.ts';
import type { SignalAnswer } from './signal-board.ts';

/** The import name the PDK's `signal()` calls (pdk/signal.ts) and the compiler adds. */
export const SIGNAL_FUNCTION = 'hookbox_signal';
/** Longest signal name read from the guest: a name is at most 64 characters (signal-spec.ts). */
const MAX_NAME_BYTES = 256;

/** What an instance granted signals needs: how long to wait for an answer at most (the main thread's deadline ends it sooner). */
export interface SignalGrant {
  readonly waitMs: number;
}

/** Thrown through the guest when a signal faults; the adapter maps it to its kind and drops the instance. */
export class SignalFaultError extends Error {
  constructor(
    readonly kind: Extract<HookFaultKind, 'timeout' | 'plugin-error'>,
    message: string,
  ) {
    super(message);
  }
}

interface KernelContext {
  read(addr: bigint): { bytes(): Uint8Array; string(): string } | null;
  store(input: string | Uint8Array): bigint;
}

/** Asks the main thread and blocks until it answers (or `waitMs` passes). */
function ask(name: string, waitMs: number): SignalAnswer {
  if (parentPort === null) return { ok: false, code: 'not-granted', message: 'signals are served only inside a runner worker' };
  const { port1, port2 } = new MessageChannel();
  const state = new Int32Array(new SharedArrayBuffer(4));
  try {
    parentPort.postMessage({ op: 'signal', name, port: port2, state }, [port2]);
    if (Atomics.wait(state, 0, 0, waitMs) === 'timed-out') {
      return { ok: false, fault: 'timeout', message: `signal "${name}" had no answer within ${waitMs} ms` };
    }
    const reply = receiveMessageOnPort(port1) as { message: SignalAnswer } | undefined;
    return reply?.message ?? { ok: false, fault: 'plugin-error', message: `signal "${name}": the answer was lost` };
  } finally {
    port1.close();
  }
}

/** The host function for one instance; `grant` undefined = granted nothing. */
export function signalFunctions(grant: SignalGrant | undefined, sink: LogSink): Record<typeof SIGNAL_FUNCTION, (context: KernelContext, nameAddr: bigint) => bigint> {
  return {
    hookbox_signal: (context, nameAddr) => {
      const block = context.read(nameAddr);
      const bytes = block?.bytes();
      let answer: SignalAnswer;
      if (bytes === undefined || bytes.byteLength === 0 || bytes.byteLength > MAX_NAME_BYTES) {
        answer = { ok: false, code: 'not-granted', message: `a signal name is 1 to 64 characters (got ${bytes?.byteLength ?? 0} bytes)` };
      } else if (grant === undefined) {
        answer = { ok: false, code: 'not-granted', message: `signal ${JSON.stringify(block?.string().slice(0, 80))} is not granted: the operator granted this hook no signal` };
      } else {
        answer = ask(block?.string() as string, grant.waitMs);
      }
      if (!answer.ok && 'fault' in answer) throw new SignalFaultError(answer.fault, answer.message);
      if (!answer.ok) sink.note('warn', `signal refused: ${answer.message}`);
      return context.store(JSON.stringify(answer));
    },
  };
}
