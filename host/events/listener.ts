import type { DecisionOf, FailPolicy, HookFault, PayloadOf, SeamId, SessionInfo, SignalRun } from '../seams/index.ts';

/**
 * What one listener said about one seam call. "No opinion" is explicit, never `undefined`.
 * `signals`: the operator's signals the call read (a wasm hook granted some), for the session log.
 */
export type ListenerOutcome<D> = (
  | { readonly type: 'decision'; readonly decision: D }
  | { readonly type: 'no-opinion' }
  | { readonly type: 'fault'; readonly fault: HookFault }
) & { readonly signals?: readonly SignalRun[] };

/**
 * Where a listener's code runs, for the audit log and the transcript: `wasm`
 * (the sandbox), `native` (in-process TypeScript), `shell` (an unsandboxed
 * command with the user's rights, e.g. an imported Claude Code hook).
 */
export type ListenerSandbox = 'wasm' | 'native' | 'shell';

/** One call of one seam, as a listener sees it. */
export interface SeamCall<S extends SeamId> {
  readonly seam: S;
  readonly payload: PayloadOf<S>;
  /** The decision so far; `null` on notify seams. */
  readonly next: DecisionOf<S> | null;
  readonly session: SessionInfo;
}

/**
 * A seam listener: a native TypeScript hook or a sandboxed wasm hook, alike.
 * `invoke` must not throw for anything the hook does; a throw is treated as a
 * `plugin-error` fault all the same.
 */
export interface SeamListener {
  readonly name: string;
  /** sha256 of the hook's code (wasm), recorded in the audit log. */
  readonly digest?: string;
  /** Which seams this listener handles. */
  readonly seams: readonly SeamId[];
  /** Tool-name matchers (anchored regular expressions) for the tool seams; absent = every tool. */
  readonly tools?: readonly string[];
  /** Overrides the seam's default fail policy. */
  readonly failPolicy?: FailPolicy;
  /** Where the hook's code runs; recorded on every invocation. */
  readonly sandbox?: ListenerSandbox;
  /**
   * `true` when every decision `invoke` returns was already checked against
   * the seam's schema (`checkDecision`), so the bus does not parse it twice.
   * The sandbox runner sets it; leave it unset unless that holds.
   */
  readonly checksDecisions?: boolean;
  /**
   * Its "no opinion" is not recorded (no `hook/invoke`, no transcript line):
   * for hookbox's own checks that run on every call and speak only to refuse.
   */
  readonly quiet?: true;
  invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>>;
  /**
   * A hint that a session has started and will call soon: a listener with
   * per-session state (a wasm instance) may create it now, off the critical
   * path of the session's first call. Never throws; failures surface at the call.
   */
  prepareSession?(session: SessionInfo): void;
}

/** One listener invocation, as the audit log records it (`hook/invoke`). */
export interface HookInvocation {
  readonly hook: string;
  readonly digest?: string;
  /** Copied from the listener: `shell` marks an unsandboxed invocation. */
  readonly sandbox?: ListenerSandbox;
  readonly seam: SeamId;
  readonly durationUs: number;
  readonly outcome: ListenerOutcome<unknown>['type'];
  /** What the listener returned (a decision), when it returned one. */
  readonly decision?: unknown;
  readonly fault?: HookFault;
  /** What the seam took from this listener after the fault policy: a decision, or `null` for no opinion. */
  readonly applied: unknown;
  /** The signals the call read: each run (or the earlier run of the same event it shared). */
  readonly signals?: readonly SignalRun[];
}

export type InvocationObserver = (invocation: HookInvocation) => void;

/** What one seam dispatch produced: the composed decision and every listener invocation, in order. */
export interface DispatchResult<S extends SeamId> {
  /** The decision the seam ends with (for notify seams: what the listeners returned, composed). */
  readonly decision: DecisionOf<S>;
  readonly invocations: readonly HookInvocation[];
  /** Every decision folded into `decision`, in order, attributed to its hook (e.g. all the asks behind an `ask`). */
  readonly decided: readonly Decided<S>[];
  /**
   * The payload the run ended on, every rewrite applied (on pre-tool: the
   * arguments that run). Absent when the seam rewrites nothing it decides on.
   */
  readonly payload?: PayloadOf<S>;
  /** The hooks whose rewrites changed the payload, in the order they first did. */
  readonly rewrittenBy?: readonly string[];
  /**
   * The rewrites did not settle within the seam's passes, so `decision` is
   * its `unsettled` one: the hooks that still changed the payload in the last
   * pass (recorded so replay can fold the same decision back).
   */
  readonly unsettled?: readonly string[];
}

/** One listener's decision as the seam took it (after the fault policy), attributed to the listener. */
export interface Decided<S extends SeamId> {
  readonly hook: string;
  readonly decision: DecisionOf<S>;
}
