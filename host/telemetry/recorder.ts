import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Meter,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  context,
  trace,
} from '@opentelemetry/api';
import { printable } from '../text/index.ts';
import { ATTR, DURATION_BUCKETS_US, METRIC, SPAN } from './names.ts';

/**
 * One hook call as the recorder needs it. The bus's `HookInvocation` has
 * this shape; it is restated here because the telemetry layer sits below the
 * bus and imports nothing of it.
 */
export interface HookCallRecord {
  readonly hook: string;
  readonly digest?: string;
  readonly sandbox?: string;
  readonly seam: string;
  readonly outcome: string;
  readonly durationUs: number;
  readonly fault?: { readonly kind: string };
  /** The decision the seam took from the hook after the fault policy, or `null`. */
  readonly applied: unknown;
}

/** What a finished dispatch reports: the composed decision and the calls made. */
export interface DispatchRecord {
  readonly decision: object;
  readonly invocations: readonly unknown[];
}

/** What a finished turn reports. */
export interface TurnRecord {
  readonly reason: string;
  readonly steps: number;
}

/** Session ids can come from an agent's request (`hookbox serve`): escaped and capped like any outside text. */
const SESSION_ID_MAX = 128;

/** The `action` of a decision, when it has one (notify-seam decisions do not). */
function actionOf(decision: unknown): string | undefined {
  if (typeof decision !== 'object' || decision === null) return undefined;
  const action = (decision as { action?: unknown }).action;
  return typeof action === 'string' ? action : undefined;
}

/**
 * Turns the loop's turns, the bus's dispatches and every hook call into
 * spans and metric points. It exists only while telemetry is on; the bus and
 * the loop ask `currentTelemetry()` and skip it entirely when it is off.
 *
 * Parenthood (turn → dispatch → hook call) travels in an AsyncLocalStorage
 * of this recorder's own, so it works without a global context manager and
 * cannot leak between concurrent sessions; outside any hookbox span the
 * parent is the embedding program's active context, if it has one.
 */
export class TelemetryRecorder {
  readonly #tracer: Tracer;
  readonly #calls: Counter;
  readonly #faults: Counter;
  readonly #duration: Histogram;
  readonly #active = new AsyncLocalStorage<Context>();

  constructor(tracer: Tracer, meter: Meter) {
    this.#tracer = tracer;
    this.#calls = meter.createCounter(METRIC.hookCalls, { description: 'hook calls, by hook, seam and outcome', unit: '{call}' });
    this.#faults = meter.createCounter(METRIC.hookFaults, { description: 'hook faults, by hook, seam and fault kind', unit: '{fault}' });
    this.#duration = meter.createHistogram(METRIC.hookDuration, {
      description: 'duration of one hook call, by hook and seam',
      unit: 'us',
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_US] },
    });
  }

  /**
   * Stops tracking parenthood: while any AsyncLocalStorage is in use, Node
   * runs a hook on every promise of the process. Call it once the recorder
   * is no longer installed (the SDK's shutdown does).
   */
  dispose(): void {
    this.#active.disable();
  }

  #parent(): Context {
    return this.#active.getStore() ?? context.active();
  }

  /** Runs `run` as the child of a new span, which ends when it settles; `finish` adds what the result says. */
  async #inSpan<R>(name: string, attributes: Attributes, run: () => Promise<R>, finish: (span: Span, result: R) => void): Promise<R> {
    const parent = this.#parent();
    const span = this.#tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent);
    try {
      const result = await this.#active.run(trace.setSpan(parent, span), run);
      finish(span, result);
      return result;
    } catch (error) {
      // A host bug, not a hook's doing (the bus turns hook failures into values): the class name only.
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'thrown' });
      throw error;
    } finally {
      span.end();
    }
  }

  /** Runs one turn inside a `hookbox.turn` span. */
  turn<R extends TurnRecord>(sessionId: string, turn: number, run: () => Promise<R>): Promise<R> {
    const attributes = { [ATTR.sessionId]: printable(sessionId, { maxLength: SESSION_ID_MAX }), [ATTR.turn]: turn };
    return this.#inSpan(SPAN.turn, attributes, run, (span, outcome) => {
      span.setAttributes({ [ATTR.turnEndReason]: outcome.reason, [ATTR.turnSteps]: outcome.steps });
      if (outcome.reason === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: 'the turn ended in an error' });
    });
  }

  /**
   * Runs one seam dispatch inside a `hookbox.dispatch` span. It carries the
   * session id too: outside a turn (session-start, every `hookbox serve`
   * decision) the dispatch is a root span.
   */
  dispatch<R extends DispatchRecord>(seam: string, sessionId: string, run: () => Promise<R>): Promise<R> {
    const attributes = { [ATTR.seam]: seam, [ATTR.sessionId]: printable(sessionId, { maxLength: SESSION_ID_MAX }) };
    return this.#inSpan(SPAN.dispatch, attributes, run, (span, result) => {
      span.setAttribute(ATTR.hookCount, result.invocations.length);
      const action = actionOf(result.decision);
      if (action !== undefined) span.setAttribute(ATTR.decisionAction, action);
    });
  }

  /**
   * Records one finished hook call: a `hookbox.hook` span from `startedMs`
   * (a `performance.now()` reading) lasting `durationUs`, under the active
   * dispatch, and its metric points.
   */
  hookCall(call: HookCallRecord, startedMs: number): void {
    const attributes: Attributes = {
      [ATTR.hookName]: call.hook,
      [ATTR.seam]: call.seam,
      [ATTR.outcome]: call.outcome,
      [ATTR.durationUs]: call.durationUs,
    };
    if (call.digest !== undefined) attributes[ATTR.hookDigest] = call.digest;
    if (call.sandbox !== undefined) attributes[ATTR.hookSandbox] = call.sandbox;
    if (call.fault !== undefined) attributes[ATTR.faultKind] = call.fault.kind;
    const applied = actionOf(call.applied);
    if (applied !== undefined) attributes[ATTR.appliedAction] = applied;

    const span = this.#tracer.startSpan(SPAN.hookCall, { kind: SpanKind.INTERNAL, startTime: startedMs, attributes }, this.#parent());
    // The fault kind only: a fault's message is the hook's own text.
    if (call.fault !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: call.fault.kind });
    span.end(startedMs + call.durationUs / 1000);

    this.#calls.add(1, { [ATTR.hookName]: call.hook, [ATTR.seam]: call.seam, [ATTR.outcome]: call.outcome });
    if (call.fault !== undefined) {
      this.#faults.add(1, { [ATTR.hookName]: call.hook, [ATTR.seam]: call.seam, [ATTR.faultKind]: call.fault.kind });
    }
    this.#duration.record(call.durationUs, { [ATTR.hookName]: call.hook, [ATTR.seam]: call.seam });
  }
}
