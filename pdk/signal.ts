/**
 * `signal(name)`: the output of a command the operator declared in the config
 * (`signals`) and granted this hook (`grant.signals`). The hook names the
 * signal; it never chooses what runs. The host runs it at most once per event
 * (every hook of the event that asks gets the same run), and its output is
 * untrusted text: whatever the program printed, capped.
 */
import { pdkGlobals } from './runtime/globals.ts';

/** What a signal's run printed, and how it ended. */
export interface SignalOutput {
  /** The program's exit code (`null` if it was killed by a signal). */
  readonly exitCode: number | null;
  /** stdout and stderr as UTF-8 text, each cut at the signal's `maxOutputBytes`. */
  readonly stdout: string;
  readonly stderr: string;
  /** Whether either stream was cut at the cap. */
  readonly truncated: boolean;
}

/** Why `signal()` refused: the operator did not grant the name, or the hook does not request signals. */
export class SignalError extends Error {
  readonly code: 'not-granted' | 'not-requested';
  constructor(code: 'not-granted' | 'not-requested', message: string) {
    super(message);
    this.name = 'SignalError';
    this.code = code;
  }
}

/** The host function's import name (host/runner/signal-calls.ts); the compiler adds the import when a hook's bundle uses it. */
const SIGNAL_FUNCTION = 'hookbox_signal';

interface SignalGlobals {
  Host: { getFunctions(): Record<string, ((offset: number | bigint) => number | bigint) | undefined> };
  Memory: {
    fromString(text: string): { offset: number | bigint; free(): void };
    find(offset: number | bigint): { readString(): string; free(): void };
  };
}

/**
 * Reads the signal `name`. Throws {@link SignalError} when it is not granted; a signal that
 * times out or cannot start ends the call in a fault instead (under the hook's fail policy).
 *
 * @example
 * ```ts
 * import { accept, defineHook, signal } from '../../pdk/index.ts';
 *
 * export default defineHook({
 *   capabilities: { signals: ['lint'] },
 *   postTool() {
 *     const lint = signal('lint');
 *     if (lint.exitCode !== 0) return accept({ additionalContext: `the linter failed:\n${lint.stdout.slice(0, 2000)}` });
 *   },
 * });
 * ```
 */
export function signal(name: string): SignalOutput {
  const globals = pdkGlobals() as unknown as SignalGlobals;
  const call = globals.Host.getFunctions()[SIGNAL_FUNCTION];
  if (call === undefined) {
    throw new SignalError('not-requested', `signal("${name}"): this hook was built without signals; request them with defineHook({ capabilities: { signals: ["${name}"] } })`);
  }
  const request = globals.Memory.fromString(name);
  const answerBlock = globals.Memory.find(call(request.offset));
  const answer = JSON.parse(answerBlock.readString()) as { ok: true; output: SignalOutput } | { ok: false; code: 'not-granted'; message: string };
  request.free();
  answerBlock.free();
  if (!answer.ok) throw new SignalError(answer.code, answer.message);
  return answer.output;
}
