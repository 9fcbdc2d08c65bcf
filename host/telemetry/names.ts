/**
 * Every name hookbox gives OpenTelemetry: the instrumentation scope, span
 * names, metric names and attribute keys. The README's "OpenTelemetry"
 * section lists the same names; `tests/unit/telemetry-names.spec.ts` keeps
 * the two in step.
 *
 * Span and metric names are low-cardinality constants: the seam, the hook
 * and the outcome travel as attributes. No attribute ever carries text a
 * hook produced (reasons, contexts, fault messages): only the operator's
 * hook names, digests, and values from closed sets (seams, actions,
 * outcomes, fault kinds).
 */

/** The instrumentation scope of hookbox's tracer and meter. */
export const TELEMETRY_SCOPE = 'hookbox';

/** Span names. */
export const SPAN = {
  /** One turn of a session (`Session.runTurn`): the root of its dispatches. */
  turn: 'hookbox.turn',
  /** One seam dispatch on the bus: every listener for the seam, composed. */
  dispatch: 'hookbox.dispatch',
  /** One hook call (one listener invocation), a child of its dispatch. */
  hookCall: 'hookbox.hook',
} as const;

/** Metric names. */
export const METRIC = {
  /** Counter: hook calls, by hook, seam and outcome. */
  hookCalls: 'hookbox.hook.calls',
  /** Counter: hook faults, by hook, seam and fault kind. */
  hookFaults: 'hookbox.hook.faults',
  /** Histogram (µs): how long each hook call took, by hook and seam. */
  hookDuration: 'hookbox.hook.duration',
} as const;

/** Attribute keys, all in the `hookbox.*` namespace. */
export const ATTR = {
  sessionId: 'hookbox.session.id',
  turn: 'hookbox.turn',
  turnEndReason: 'hookbox.turn.end_reason',
  turnSteps: 'hookbox.turn.steps',
  seam: 'hookbox.seam',
  /** The dispatch's final decision action (absent on notify seams, whose decisions have none). */
  decisionAction: 'hookbox.decision.action',
  /** How many listeners the dispatch invoked. */
  hookCount: 'hookbox.dispatch.hooks',
  hookName: 'hookbox.hook.name',
  hookDigest: 'hookbox.hook.digest',
  hookSandbox: 'hookbox.hook.sandbox',
  /** `decision`, `no-opinion` or `fault`. */
  outcome: 'hookbox.hook.outcome',
  /** The action the seam took from this hook after the fault policy (absent for no opinion). */
  appliedAction: 'hookbox.hook.action',
  faultKind: 'hookbox.fault.kind',
  durationUs: 'hookbox.hook.duration_us',
} as const;

/** Histogram bucket bounds for hook durations, in µs: from a warm native call to a timed-out hook. */
export const DURATION_BUCKETS_US: readonly number[] = [
  50, 100, 200, 350, 500, 750, 1_000, 2_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 5_000_000,
];
