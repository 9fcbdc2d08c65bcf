/**
 * OpenTelemetry from a scripted session with real wasm hooks: guard-bash
 * (the example hook, built from source) denies `rm -rf` and allows `echo`,
 * and the corpus's `trap` hook faults on post-execute. An in-memory span
 * exporter and metric exporter see the exact spans (turn → dispatch → hook
 * call, with their attributes) and metric points, and the figures agree with
 * the session log's `hook/invoke` audit records.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadedHook, loadHooks, loadOperatorConfig } from '../../host/config/index.ts';
import type { SessionEvent } from '../../host/log/index.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { ATTR, METRIC, SPAN, TelemetryRecorder, setTelemetry } from '../../host/telemetry/index.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { type TestWorkspace, events, makeWorkspace, startSession } from '../helpers/session.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

type HookInvoke = Extract<SessionEvent, { type: 'hook/invoke' }>;

/** A span with its children, volatile fields (ids, times, digest, µs) left out: compared exactly. */
interface SpanNode {
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly status?: { code: SpanStatusCode; message?: string };
  readonly children: SpanNode[];
}

const VOLATILE = new Set<string>([ATTR.durationUs, ATTR.hookDigest, ATTR.sessionId]);

function tree(spans: readonly ReadableSpan[]): SpanNode[] {
  const byStart = [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const node = (span: ReadableSpan): SpanNode => ({
    name: span.name,
    attributes: Object.fromEntries(Object.entries(span.attributes).filter(([key]) => !VOLATILE.has(key))),
    ...(span.status.code !== SpanStatusCode.UNSET && { status: { code: span.status.code, ...(span.status.message !== undefined && { message: span.status.message }) } }),
    children: byStart.filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId).map(node),
  });
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  return byStart.filter((span) => span.parentSpanContext === undefined || !ids.has(span.parentSpanContext.spanId)).map(node);
}

const dispatch = (seam: string, hooks: number, action: string | undefined, children: SpanNode[] = []): SpanNode => ({
  name: SPAN.dispatch,
  attributes: { [ATTR.seam]: seam, [ATTR.hookCount]: hooks, ...(action !== undefined && { [ATTR.decisionAction]: action }) },
  children,
});

const call = (id: string, command: string) => ({ id, name: 'bash', arguments: { command } });

let workspace: TestWorkspace;
let runner: HookRunner;
let hooks: LoadedHook[];
let spanExporter: InMemorySpanExporter;
let metricExporter: InMemoryMetricExporter;
let tracerProvider: BasicTracerProvider;
let meterProvider: MeterProvider;
let reader: PeriodicExportingMetricReader;
let sessionId: string;
let invokes: HookInvoke[];
let spansAfterOff: number;

beforeAll(async () => {
  workspace = makeWorkspace('hookbox-telemetry-');
  const trap = await writeCorpusWasm('trap', join(workspace.dir, 'hooks'));
  const configPath = join(workspace.dir, 'hookbox.config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      hooks: [
        // Generous timeouts: a loaded machine must not turn an instantiation into a load error.
        { name: 'guard-bash', manifest: exampleManifest('guard-bash'), tools: ['bash'], timeoutMs: 30_000 },
        { name: 'trap', wasm: trap, seams: ['tools/post-execute'], timeoutMs: 30_000 },
      ],
    }),
  );
  const config = loadOperatorConfig(configPath);
  runner = await HookRunner.start(config.runner);
  hooks = await loadHooks(config, runner);

  spanExporter = new InMemorySpanExporter();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // The interval is never reached: the test collects with forceFlush.
  reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  meterProvider = new MeterProvider({ readers: [reader] });

  const previous = setTelemetry(new TelemetryRecorder(tracerProvider.getTracer('hookbox'), meterProvider.getMeter('hookbox')));
  try {
    const session = await startSession(workspace, {
      hooks,
      script: { steps: [{ toolCalls: [call('c1', 'sudo rm -rf --no-preserve-root /')] }, { toolCalls: [call('c2', 'echo hi')] }, { text: 'done' }] },
    });
    try {
      sessionId = session.id;
      expect(await session.prompt('tidy up')).toEqual({ turn: 1, reason: 'completed', steps: 3 });
    } finally {
      await session.close();
    }
  } finally {
    setTelemetry(previous);
  }
  invokes = events(workspace).filter((event): event is HookInvoke => event.type === 'hook/invoke');
  spansAfterOff = spanExporter.getFinishedSpans().length;

  // Telemetry off again: a second session records nothing.
  const quiet = await startSession({ ...workspace, logPath: join(workspace.dir, 'quiet.jsonl') }, { hooks, script: { steps: [{ toolCalls: [call('c3', 'echo quiet')] }, { text: 'ok' }] } });
  try {
    await quiet.prompt('again');
  } finally {
    await quiet.close();
  }
  await tracerProvider.forceFlush();
  await reader.forceFlush();
}, 120_000);

afterAll(async () => {
  await Promise.all((hooks ?? []).map((hook) => hook.close()));
  await runner?.close();
  await tracerProvider?.shutdown();
  await meterProvider?.shutdown();
  workspace?.dispose();
});

describe('spans of a session with real wasm hooks', () => {
  it('are exactly: session-start dispatch, then the turn → its dispatches → each hook call, then session-end dispatch', () => {
    const guard = (action: string): SpanNode => ({
      name: SPAN.hookCall,
      attributes: { [ATTR.hookName]: 'guard-bash', [ATTR.seam]: 'tools/pre-execute', [ATTR.outcome]: 'decision', [ATTR.hookSandbox]: 'wasm', [ATTR.appliedAction]: action },
      children: [],
    });
    expect(tree(spanExporter.getFinishedSpans())).toEqual([
      dispatch('agent/session-start', 0, undefined),
      {
        name: SPAN.turn,
        attributes: { [ATTR.turn]: 1, [ATTR.turnEndReason]: 'completed', [ATTR.turnSteps]: 3 },
        children: [
          dispatch('agent/prompt-submit', 0, 'allow'),
          dispatch('tools/pre-execute', 1, 'deny', [guard('deny')]),
          dispatch('tools/pre-execute', 1, 'allow', [guard('allow')]),
          dispatch('tools/post-execute', 1, 'block', [
            {
              name: SPAN.hookCall,
              attributes: {
                [ATTR.hookName]: 'trap',
                [ATTR.seam]: 'tools/post-execute',
                [ATTR.outcome]: 'fault',
                [ATTR.hookSandbox]: 'wasm',
                [ATTR.faultKind]: 'trap',
                [ATTR.appliedAction]: 'block',
              },
              status: { code: SpanStatusCode.ERROR, message: 'trap' },
              children: [],
            },
          ]),
          dispatch('agent/turn-continuation', 0, 'stop'),
        ],
      },
      dispatch('agent/session-end', 0, undefined),
    ]);
  });

  it('all belong to one trace per root, carry the session id, and nothing is recorded once telemetry is off', () => {
    const spans = spanExporter.getFinishedSpans();
    expect(spans).toHaveLength(spansAfterOff);
    const turn = spans.find((span) => span.name === SPAN.turn);
    expect(turn?.attributes[ATTR.sessionId]).toBe(sessionId);
    const inTurn = spans.filter((span) => span.spanContext().traceId === turn?.spanContext().traceId);
    expect(inTurn).toHaveLength(spans.length - 2); // all but the session-start and session-end dispatches
  });

  it('hook-call spans carry the audit log digest and µs, and last exactly that long', () => {
    const calls = spanExporter.getFinishedSpans().filter((span) => span.name === SPAN.hookCall);
    expect(calls.map((span) => span.attributes[ATTR.hookName])).toEqual(invokes.map((event) => event.hook));
    calls.forEach((span, index) => {
      const logged = invokes[index] as HookInvoke;
      expect(span.attributes[ATTR.hookDigest]).toBe(logged.digest);
      expect(span.attributes[ATTR.hookDigest]).toMatch(/^[0-9a-f]{64}$/);
      expect(span.attributes[ATTR.durationUs]).toBe(logged.durationUs);
      const durationNs = span.duration[0] * 1e9 + span.duration[1];
      expect(Math.abs(durationNs - logged.durationUs * 1000)).toBeLessThanOrEqual(1000);
    });
  });

  it('never carry text a hook produced (reasons, fault messages)', () => {
    const reasons = invokes.flatMap((event) => [event.fault?.message, (event.applied as { reason?: string } | null)?.reason]).filter((text): text is string => text !== undefined);
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    const values = JSON.stringify(spanExporter.getFinishedSpans().map((span) => [span.attributes, span.status, span.events]));
    for (const reason of reasons) expect(values).not.toContain(reason);
  });
});

describe('metrics of the same session', () => {
  const points = (name: string): DataPoint<unknown>[] => {
    const last = metricExporter.getMetrics().at(-1);
    const metric = last?.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
    return (metric?.dataPoints ?? []) as DataPoint<unknown>[];
  };

  it('count hook calls by hook, seam and outcome', () => {
    expect(points(METRIC.hookCalls).map((p) => ({ ...p.attributes, value: p.value }))).toEqual([
      { [ATTR.hookName]: 'guard-bash', [ATTR.seam]: 'tools/pre-execute', [ATTR.outcome]: 'decision', value: 2 },
      { [ATTR.hookName]: 'trap', [ATTR.seam]: 'tools/post-execute', [ATTR.outcome]: 'fault', value: 1 },
    ]);
  });

  it('count faults by kind', () => {
    expect(points(METRIC.hookFaults).map((p) => ({ ...p.attributes, value: p.value }))).toEqual([
      { [ATTR.hookName]: 'trap', [ATTR.seam]: 'tools/post-execute', [ATTR.faultKind]: 'trap', value: 1 },
    ]);
  });

  it('histogram each hook’s latency in µs, summing to the audit log’s durations', () => {
    const sum = (hook: string) => invokes.filter((event) => event.hook === hook).reduce((total, event) => total + event.durationUs, 0);
    expect(points(METRIC.hookDuration).map((p) => ({ ...p.attributes, count: (p.value as Histogram).count, sum: (p.value as Histogram).sum }))).toEqual([
      { [ATTR.hookName]: 'guard-bash', [ATTR.seam]: 'tools/pre-execute', count: 2, sum: sum('guard-bash') },
      { [ATTR.hookName]: 'trap', [ATTR.seam]: 'tools/post-execute', count: 1, sum: sum('trap') },
    ]);
  });
});
