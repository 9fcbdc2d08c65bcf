// The two modules, not the events barrel (the bus): `hookbox call` loads this codec.
import { checkDecision } from '../events/check-decision.ts';
import type { ListenerOutcome } from '../events/listener.ts';
import type { HookCodec } from '../runner/index.ts';
import { type DecisionOf, type SeamId, hookFault } from '../seams/index.ts';
import { protocolInput } from './protocol-input.ts';
import { protocolOutcome } from './protocol-output.ts';
import type { ToolProtocol } from './protocol.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A coding agent's hook protocol spoken by a wasm hook: the input is the
 * agent's JSON (UTF-8, not msgpack); the export's output is stdout, its
 * return code the exit code and its `error_set` text stderr, all mapped by
 * the same code as shell hooks. `error_set` with return code 0 stays a
 * `plugin-error` (Extism: the call failed, and its output is lost), and every
 * other fault stays what it is.
 */
export function protocolCodec(protocol: ToolProtocol): HookCodec {
  return {
    name: protocol,
    encode: (call) => new TextEncoder().encode(JSON.stringify(protocolInput(protocol, call))),
    decode: (seam, reply) => {
      if (reply.fault !== undefined) {
        const exit = reply.exit;
        if (exit === undefined || exit.code === 0) return { type: 'fault', fault: reply.fault };
        return checked(seam, protocolOutcome(protocol, seam, { exitCode: exit.code, stdout: '', stderr: exit.errorText ?? '' }));
      }
      let stdout: string;
      try {
        stdout = reply.output === null ? '' : utf8.decode(reply.output);
      } catch {
        return { type: 'fault', fault: hookFault('decode', `output is not UTF-8 text (${reply.output?.byteLength ?? 0} bytes)`) };
      }
      return checked(seam, protocolOutcome(protocol, seam, { exitCode: 0, stdout, stderr: '' }));
    },
  };
}

/** A codec's decisions reach the bus already checked (the runner marks its hooks so). */
function checked<S extends SeamId>(seam: S, outcome: ListenerOutcome<DecisionOf<S>>): ListenerOutcome<DecisionOf<S>> {
  return outcome.type === 'decision' ? checkDecision(seam, outcome.decision) : outcome;
}
