/**
 * The recorder's edges with native hooks on the real bus: concurrent
 * sessions keep their own parenthood, hostile text stays out of attributes,
 * a host bug marks the span by class name only, and the bus works unchanged
 * with telemetry on.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SpanStatusCode } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_OPINION, SeamBus, type SeamListener, nativeHook } from '../../host/events/index.ts';
import { ATTR, SPAN, TelemetryRecorder, currentTelemetry, setTelemetry } from '../../host/telemetry/index.ts';

const HOSTILE = '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 \u202e';

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
let meters: MeterProvider;
let previous: TelemetryRecorder | undefined;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  meters = new MeterProvider();
  previous = setTelemetry(new TelemetryRecorder(provider.getTracer('hookbox'), meters.getMeter('hookbox')));
});
afterEach(async () => {
  setTelemetry(previous);
  await provider.shutdown();
  await meters.shutdown();
});

const session = (id: string) => ({ id, turn: 1, step: 1, cwd: '/tmp' });
const parentName = (span: ReadableSpan, all: readonly ReadableSpan[]) =>
  all.find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId)?.attributes[ATTR.sessionId];

describe('TelemetryRecorder', () => {
  it('setTelemetry returns what it replaces, and undefined is off', () => {
    const recorder = currentTelemetry();
    expect(recorder).toBeInstanceOf(TelemetryRecorder);
    expect(setTelemetry(undefined)).toBe(recorder);
    expect(currentTelemetry()).toBeUndefined();
    setTelemetry(recorder);
  });

  it('concurrent turns of two sessions each parent their own dispatches and hook calls', async () => {
    const slow = nativeHook({
      name: 'slow',
      handlers: {
        // Interleaves the two sessions' calls on the event loop.
        'tools/pre-execute': async (payload) => {
          await sleep(payload.toolName === 'a' ? 20 : 5);
          return { action: 'allow' };
        },
      },
    });
    const bus = new SeamBus();
    bus.use(slow);
    const recorder = currentTelemetry() as TelemetryRecorder;
    const turn = (id: string, tool: string) =>
      recorder.turn(id, 1, async () => {
        for (let i = 0; i < 3; i++) await bus.dispatch('tools/pre-execute', { toolCallId: `${id}${i}`, toolName: tool, arguments: {} }, session(id));
        return { reason: 'completed', steps: 3 };
      });
    await Promise.all([turn('session-a', 'a'), turn('session-b', 'b')]);
    const spans = exporter.getFinishedSpans();
    const dispatches = spans.filter((span) => span.name === SPAN.dispatch);
    expect(dispatches).toHaveLength(6);
    for (const dispatch of dispatches) {
      const [call] = spans.filter((span) => span.parentSpanContext?.spanId === dispatch.spanContext().spanId);
      expect(call?.name).toBe(SPAN.hookCall);
      expect(call?.spanContext().traceId).toBe(dispatch.spanContext().traceId);
    }
    const owners = dispatches.map((dispatch) => parentName(dispatch, spans));
    expect(owners.filter((owner) => owner === 'session-a')).toHaveLength(3);
    expect(owners.filter((owner) => owner === 'session-b')).toHaveLength(3);
  });

  it('keeps hook text out of every attribute and escapes an outside session id', async () => {
    const liar = nativeHook({ name: 'liar', handlers: { 'tools/pre-execute': () => ({ action: 'ask', reason: HOSTILE }) } });
    const thrower: SeamListener = {
      name: 'thrower',
      seams: ['tools/pre-execute'],
      invoke: () => Promise.reject(new Error(HOSTILE)),
    };
    const bus = new SeamBus();
    bus.use(liar);
    bus.use(thrower);
    const recorder = currentTelemetry() as TelemetryRecorder;
    const result = await recorder.turn(`evil${HOSTILE}`, 1, async () => {
      await bus.dispatch('tools/pre-execute', { toolCallId: 'c', toolName: 'bash', arguments: {} }, session('s'));
      return { reason: 'completed', steps: 1 };
    });
    expect(result.reason).toBe('completed');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.attributes[ATTR.hookName] ?? span.name)).toEqual(['liar', 'thrower', SPAN.dispatch, SPAN.turn]);
    // Only the session id (the caller's, escaped) may quote outside text.
    const text = JSON.stringify(spans.map((span) => [span.name, { ...span.attributes, [ATTR.sessionId]: undefined }, span.status]));
    expect(text).not.toContain('\\u001b');
    expect(text).not.toContain('\u202e');
    expect(text).not.toContain('evil.example');
    const turn = spans.find((span) => span.name === SPAN.turn);
    expect(turn?.attributes[ATTR.sessionId]).toBe('evil\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07 \\u{202e}');
    // The thrower's fault is recorded by kind: a throw is a plugin-error, closed policy denies.
    const thrown = spans.find((span) => span.attributes[ATTR.hookName] === 'thrower');
    expect(thrown?.attributes[ATTR.faultKind]).toBe('plugin-error');
    expect(thrown?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'plugin-error' });
  });

  it('a host bug inside a span ends it as an error named by class, and is rethrown', async () => {
    const recorder = currentTelemetry() as TelemetryRecorder;
    class LogWriteError extends Error {
      override name = 'LogWriteError';
    }
    await expect(recorder.dispatch('tools/pre-execute', 's', () => Promise.reject(new LogWriteError(HOSTILE)))).rejects.toThrow(LogWriteError);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe(SPAN.dispatch);
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'LogWriteError' });
    expect(span?.ended).toBe(true);
  });

  it('with telemetry on, the bus decides exactly as with it off', async () => {
    const bus = new SeamBus();
    bus.use(nativeHook({ name: 'quiet', handlers: { 'tools/pre-execute': () => NO_OPINION } }));
    bus.use(nativeHook({ name: 'asker', handlers: { 'tools/pre-execute': () => ({ action: 'ask', reason: 'sure?' }) } }));
    const payload = { toolCallId: 'c', toolName: 'bash', arguments: {} };
    const on = await bus.dispatch('tools/pre-execute', payload, session('s'));
    const recorder = setTelemetry(undefined);
    const off = await bus.dispatch('tools/pre-execute', payload, session('s'));
    setTelemetry(recorder);
    const strip = (result: typeof on) => ({ ...result, invocations: result.invocations.map(({ durationUs: _d, ...rest }) => rest) });
    expect(strip(on)).toEqual(strip(off));
    expect(on.decision).toEqual({ action: 'ask', reason: 'sure?' });
  });
});
