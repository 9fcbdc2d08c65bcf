import {
  type DecisionOf,
  type PayloadOf,
  type SeamId,
  type SessionInfo,
  seamDefinition,
} from '../seams/index.ts';
// active.ts alone: the switch, without the recorder and the OpenTelemetry API it loads.
import { currentTelemetry } from '../telemetry/active.ts';
import type { DispatchResult, InvocationObserver, SeamListener } from './listener.ts';
import type { DispatchOptions } from './invoke.ts';
import { runNotify } from './notify.ts';
import { runRewriteRounds } from './rewrite-rounds.ts';
import { compileToolMatcher } from './tool-matcher.ts';
import { runWaterfall } from './waterfall.ts';

interface Registered {
  readonly listener: SeamListener;
  readonly matchesTool: (toolName: string) => boolean;
}

/**
 * The typed seam bus. Listeners run in registration order (the operator's
 * configured order); each seam dispatches by its kind.
 */
export class SeamBus {
  readonly #registered: Registered[] = [];
  readonly #observers: InvocationObserver[] = [];

  /** Adds a listener after those already registered; returns a function that removes it. */
  use(listener: SeamListener): () => void {
    const entry: Registered = { listener, matchesTool: compileToolMatcher(listener.tools) };
    this.#registered.push(entry);
    return () => {
      const index = this.#registered.indexOf(entry);
      if (index >= 0) this.#registered.splice(index, 1);
    };
  }

  /** Observes every listener invocation (the audit log subscribes here). */
  observe(observer: InvocationObserver): () => void {
    this.#observers.push(observer);
    return () => {
      const index = this.#observers.indexOf(observer);
      if (index >= 0) this.#observers.splice(index, 1);
    };
  }

  /**
   * Tells every listener that a session started (the loop calls it as it
   * opens a session, before the first model call), so per-session work such
   * as instantiating a wasm hook runs in parallel with the model, not on the
   * first hook call. A hint: nothing is decided here and nothing throws.
   */
  sessionStarted(session: SessionInfo): void {
    for (const { listener } of this.#registered) {
      try {
        listener.prepareSession?.(session);
      } catch {
        // A hint only: the session's first call reports whatever is wrong.
      }
    }
  }

  /** The listeners that would run for this seam and payload, in order. */
  listenersFor<S extends SeamId>(seam: S, payload: PayloadOf<S>): SeamListener[] {
    const toolName = seamDefinition(seam).toolScoped ? (payload as { toolName: string }).toolName : undefined;
    return this.#registered
      .filter(({ listener, matchesTool }) => {
        if (!listener.seams.includes(seam)) return false;
        return toolName === undefined || matchesTool(toolName);
      })
      .map(({ listener }) => listener);
  }

  /**
   * Dispatches one seam call by the seam's kind. `initial` is the decision
   * before any listener (the loop's default); it defaults to the seam's own.
   * A seam with `rewriteRounds` (pre-tool) re-asks hooks until each decided on
   * the final payload (`runRewriteRounds`).
   */
  dispatch<S extends SeamId>(
    seam: S,
    payload: PayloadOf<S>,
    session: SessionInfo,
    initial?: DecisionOf<S>,
    options: DispatchOptions<S> = {},
  ): Promise<DispatchResult<S>> {
    // Telemetry off (the default): one branch, nothing else.
    const telemetry = currentTelemetry();
    if (telemetry === undefined) return this.#dispatch(seam, payload, session, initial, options);
    return telemetry.dispatch(seam, session.id, () => this.#dispatch(seam, payload, session, initial, options));
  }

  async #dispatch<S extends SeamId>(
    seam: S,
    payload: PayloadOf<S>,
    session: SessionInfo,
    initial: DecisionOf<S> | undefined,
    options: DispatchOptions<S>,
  ): Promise<DispatchResult<S>> {
    const definition = seamDefinition(seam);
    const listeners = this.listenersFor(seam, payload);
    const start = initial ?? definition.defaultDecision(payload);
    let result: DispatchResult<S>;
    if (definition.kind === 'notify') result = await runNotify(seam, listeners, payload, session);
    else if (definition.rewriteRounds !== undefined) result = await runRewriteRounds(seam, listeners, payload, start, session, options);
    else result = await runWaterfall(seam, listeners, payload, start, session, options);
    // A quiet listener's "no opinion" is not an event (hookbox's self-protection runs on every tool call).
    const quiet = new Set(listeners.filter((listener) => listener.quiet === true).map((listener) => listener.name));
    const invocations = quiet.size === 0 ? result.invocations : result.invocations.filter((invocation) => !(invocation.outcome === 'no-opinion' && quiet.has(invocation.hook)));
    for (const invocation of invocations) {
      for (const observer of this.#observers) observer(invocation);
    }
    return invocations === result.invocations ? result : { ...result, invocations };
  }
}
