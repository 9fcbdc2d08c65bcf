/**
 * The main thread's side of signals: answers a hook's request for a signal
 * by name — refused unless the operator granted that hook that signal — and
 * runs each signal at most once per event. The event is the `SessionInfo`
 * object of the dispatch (the bus makes one per dispatch and hands the same
 * one to every listener), so hooks on different workers share the run, and
 * the memo goes when the dispatch does.
 */
import type { SignalRun } from '../seams/index.ts';
import { type SignalResult, runSignal } from './signal-process.ts';
import type { SignalOutput, SignalSpec } from './signal-spec.ts';

/** What the worker's host function gets back (JSON-cloneable). */
export type SignalAnswer =
  | { readonly ok: true; readonly output: SignalOutput }
  /** A refusal the guest can catch (`SignalError`): the name is not granted to this hook. */
  | { readonly ok: false; readonly code: 'not-granted'; readonly message: string }
  /** The call ends in this fault, under the hook's fail policy. */
  | { readonly ok: false; readonly fault: 'timeout' | 'plugin-error'; readonly message: string };

/** One call's view of the signals: what the hook was granted, the event, and where its runs are recorded. */
export interface SignalCallContext {
  readonly hook: string;
  readonly granted: Readonly<Record<string, SignalSpec>>;
  /** The dispatch's `SessionInfo` object: one memo per event. */
  readonly event: object;
  readonly runs: SignalRun[];
}

const memo = new WeakMap<object, Map<string, Promise<SignalResult>>>();
const decoder = new TextDecoder();

/** The same declaration under the same name (two configs could reuse a name for different commands). */
function memoKey(spec: SignalSpec): string {
  return JSON.stringify([spec.name, spec.argv, spec.cwd, spec.timeoutMs, spec.maxOutputBytes]);
}

/** Answers one request of a call (see {@link SignalAnswer}). Never throws. */
export async function answerSignal(context: SignalCallContext | undefined, name: unknown): Promise<SignalAnswer> {
  if (context === undefined) return { ok: false, code: 'not-granted', message: 'no hook call is running on this worker' };
  const shown = typeof name === 'string' ? JSON.stringify(name.slice(0, 80)) : 'a non-string name';
  const spec = typeof name === 'string' && Object.hasOwn(context.granted, name) ? context.granted[name] : undefined;
  if (spec === undefined) {
    const names = Object.keys(context.granted);
    return { ok: false, code: 'not-granted', message: `signal ${shown} is not granted to hook "${context.hook}" (${names.length === 0 ? 'it is granted none' : `granted: ${names.join(', ')}`})` };
  }
  let runs = memo.get(context.event);
  if (runs === undefined) memo.set(context.event, (runs = new Map()));
  const key = memoKey(spec);
  const earlier = runs.get(key);
  const running = earlier ?? runSignal(spec);
  if (earlier === undefined) runs.set(key, running);
  const result = await running;
  context.runs.push({
    name: spec.name,
    program: spec.argv[0] as string,
    exitCode: result.exitCode,
    durationUs: earlier === undefined ? result.durationUs : 0,
    stdoutBytes: result.stdout.byteLength,
    stderrBytes: result.stderr.byteLength,
    truncated: result.truncated,
    timedOut: result.timedOut,
    ...(result.error !== undefined && { error: result.error }),
    shared: earlier !== undefined,
  });
  if (result.error !== undefined) return { ok: false, fault: 'plugin-error', message: `signal "${spec.name}" (${spec.declaredAt}) failed: ${result.error}` };
  if (result.timedOut) return { ok: false, fault: 'timeout', message: `signal "${spec.name}" (${spec.declaredAt}) did not finish within its ${spec.timeoutMs} ms and was killed` };
  return { ok: true, output: { exitCode: result.exitCode, stdout: decoder.decode(result.stdout), stderr: decoder.decode(result.stderr), truncated: result.truncated } };
}
