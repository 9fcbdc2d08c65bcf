import { performance } from 'node:perf_hooks';
import {
  type DecisionOf,
  type PayloadOf,
  seamDefinition,
  type SeamId,
  type SessionInfo,
  hookFault,
} from '../seams/index.ts';
// active.ts alone: the switch, without the recorder and the OpenTelemetry API it loads.
import { currentTelemetry } from '../telemetry/active.ts';
import { checkDecision } from './check-decision.ts';
import type { HookInvocation, ListenerOutcome, SeamListener } from './listener.ts';

/** What a dispatch may add to the seam's own checks. */
export interface DispatchOptions<S extends SeamId> {
  /**
   * Checks a payload a hook's decision rewrote (pre-tool: the new arguments
   * against the tool's argument schema); a message makes that decision a
   * `schema` fault of the hook that gave it.
   */
  readonly checkRewrite?: (rewritten: PayloadOf<S>) => string | undefined;
}

/** The result of asking one listener, with the fault policy already applied. */
export interface Applied<S extends SeamId> {
  /** The decision the seam takes from this listener, or `null` for no opinion. */
  readonly decision: DecisionOf<S> | null;
  readonly invocation: HookInvocation;
}

/**
 * Asks one listener and turns whatever happens into a value: a throw or a
 * decision that fails the seam's schema becomes a fault (checked here unless
 * the listener checks its own), and a fault becomes
 * the seam's fault decision under the listener's fail policy.
 */
export async function invokeListener<S extends SeamId>(
  listener: SeamListener,
  seam: S,
  payload: PayloadOf<S>,
  next: DecisionOf<S> | null,
  session: SessionInfo,
  options: DispatchOptions<S> = {},
): Promise<Applied<S>> {
  const definition = seamDefinition(seam);
  const started = performance.now();
  let outcome: ListenerOutcome<DecisionOf<S>>;
  let signals: ListenerOutcome<unknown>['signals'];
  try {
    outcome = await listener.invoke({ seam, payload, next, session });
    signals = outcome.signals;
    if (outcome.type === 'decision' && listener.checksDecisions !== true) outcome = checkDecision(seam, outcome.decision);
    if (outcome.type === 'decision' && options.checkRewrite !== undefined) {
      const rewritten = definition.threadPayload(payload, outcome.decision);
      const problem = rewritten === payload ? undefined : options.checkRewrite(rewritten);
      if (problem !== undefined) outcome = { type: 'fault', fault: hookFault('schema', problem) };
    }
  } catch (error) {
    outcome = { type: 'fault', fault: hookFault('plugin-error', error instanceof Error ? error.message : String(error)) };
  }
  const durationUs = Math.round((performance.now() - started) * 1000);

  let decision: DecisionOf<S> | null;
  if (outcome.type === 'decision') decision = outcome.decision;
  else if (outcome.type === 'no-opinion') decision = null;
  else {
    const policy = listener.failPolicy ?? definition.defaultFailPolicy;
    decision = definition.faultDecision(outcome.fault, policy, listener.name);
  }

  const invocation: HookInvocation = {
    hook: listener.name,
    ...(listener.digest !== undefined && { digest: listener.digest }),
    ...(listener.sandbox !== undefined && { sandbox: listener.sandbox }),
    seam,
    durationUs,
    outcome: outcome.type,
    ...(outcome.type === 'decision' && { decision: outcome.decision }),
    ...(outcome.type === 'fault' && { fault: outcome.fault }),
    applied: decision,
    ...(signals !== undefined && { signals }),
  };
  // Telemetry off (the default): one branch, nothing else. A quiet listener's "no opinion" is no hook call
  // (the session log does not record it either: bus.ts).
  if (!(listener.quiet === true && outcome.type === 'no-opinion')) currentTelemetry()?.hookCall(invocation, started);
  return { decision, invocation };
}
