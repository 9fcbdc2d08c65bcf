/**
 * What OpenTelemetry costs on the hot path: the same pre-tool dispatch
 * (`SeamBus.dispatch`, one hook) with telemetry off — the default, one branch
 * per dispatch and per hook call — and on, reporting to the SDK with in-memory
 * exporters (batch span processor, as `hookbox run` sets it up, and a metric
 * reader), for a native hook (where the bus's own cost shows most) and the
 * guard-bash wasm hook through the runner.
 *
 * With `--telemetry-before <checkout>` (a checkout of hookbox from before the
 * instrumentation, with its node_modules), the same dispatch also runs
 * through that checkout's bus in the same process — the "before" rows — so
 * off ÷ before is measured side by side:
 *
 *   mkdir /tmp/hookbox-before && git archive <commit> host | tar -x -C /tmp/hookbox-before
 *   ln -s "$PWD/node_modules" /tmp/hookbox-before/ && cp package.json /tmp/hookbox-before/
 *   npm run bench -- --only telemetry --telemetry-before /tmp/hookbox-before
 *
 * Rows are interleaved per round; the "on" rows run last in each round and
 * the recorder is disposed after them, so its AsyncLocalStorage (whose
 * promise hooks slow every await while enabled) never touches an "off" row.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { SeamBus, type SeamListener, nativeHook } from '../host/events/index.ts';
import type { HookRunner } from '../host/runner/index.ts';
import { TelemetryRecorder, setTelemetry } from '../host/telemetry/index.ts';
import { EXPECTED_ACTION, PAYLOAD, SESSION, guardDecision, type BenchHook } from './fixtures.ts';
import { type Summary, summarize } from './harness.ts';
import { fmtUs } from './report.ts';

export type TelemetryMode = 'before' | 'off' | 'on';

export interface TelemetryRow {
  readonly hook: 'native' | 'wasm';
  readonly mode: TelemetryMode;
  readonly summary: Summary;
}

export interface TelemetryRatio {
  readonly hook: 'native' | 'wasm';
  readonly what: 'off ÷ before' | 'on ÷ off';
  readonly p50: number;
  readonly mean: number;
}

export interface TelemetryFigures {
  readonly rows: readonly TelemetryRow[];
  readonly ratios: readonly TelemetryRatio[];
  /** Spans the in-memory exporter received in the "on" rows (a check that they really recorded). */
  readonly spansExported: number;
  /**
   * Spans the "on" rows made (a dispatch and a hook call per call). More than
   * exported: back-to-back native calls never yield to a timer, so the batch
   * processor's queue (2048) fills and drops spans, as it would in any burst
   * that outpaces its export.
   */
  readonly spansMade: number;
}

export interface TelemetryOptions {
  readonly rounds: number;
  readonly scale: number;
  readonly timeoutMs: number;
  /** A pre-instrumentation checkout of hookbox, for the "before" rows. */
  readonly beforeCheckout?: string;
  readonly onProgress: (message: string) => void;
}

interface BusLike {
  use(listener: SeamListener): unknown;
  dispatch(seam: 'tools/pre-execute', payload: typeof PAYLOAD, session: typeof SESSION): Promise<{ decision: { action: string } }>;
}

/**
 * The SDK as the CLI sets it up, with in-memory exporters; `stop` disposes
 * everything, AsyncLocalStorage included, and returns how many spans arrived.
 */
function startInMemoryTelemetry(): { stop(): Promise<number> } {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA), exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const recorder = new TelemetryRecorder(tracerProvider.getTracer('hookbox'), meterProvider.getMeter('hookbox'));
  const previous = setTelemetry(recorder);
  return {
    async stop() {
      setTelemetry(previous);
      recorder.dispose();
      await tracerProvider.forceFlush();
      const exported = spans.getFinishedSpans().length;
      // Shutting the exporter down also empties it.
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
      return exported;
    },
  };
}

/** Calls `fn` back to back for `timeMs` (at least `min` times) after `warmup` calls; samples in ms. */
async function timeLoop(fn: () => Promise<unknown>, timeMs: number, min: number, warmup: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  const until = performance.now() + timeMs;
  while (samples.length < min || performance.now() < until) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Times the rows in interleaved rounds and returns them with their ratios. */
export async function measureTelemetry(runner: HookRunner, guardBash: BenchHook, options: TelemetryOptions): Promise<TelemetryFigures> {
  const native = nativeHook({
    name: 'guard-bash-native',
    tools: ['bash'],
    handlers: { 'tools/pre-execute': (payload, context) => guardDecision(payload, context.session.cwd) },
  });
  const wasm = await runner.load({ name: 'guard-bash-telemetry', wasm: guardBash.bytes, limits: { timeoutMs: options.timeoutMs } });
  try {
    const buses: Partial<Record<'before' | 'now', typeof SeamBus>> = { now: SeamBus };
    if (options.beforeCheckout !== undefined) {
      const events = (await import(pathToFileURL(join(options.beforeCheckout, 'host', 'events', 'index.ts')).href)) as { SeamBus: typeof SeamBus };
      buses.before = events.SeamBus;
    }
    const busFor = (Bus: typeof SeamBus, listener: SeamListener): BusLike => {
      const bus = new Bus();
      bus.use(listener);
      return bus as unknown as BusLike;
    };
    type Key = `${'native' | 'wasm'}:${TelemetryMode}`;
    const rows: { key: Key; hook: 'native' | 'wasm'; mode: TelemetryMode; bus: BusLike }[] = [];
    for (const [hook, listener] of [['native', native], ['wasm', wasm]] as const) {
      if (buses.before !== undefined) rows.push({ key: `${hook}:before`, hook, mode: 'before', bus: busFor(buses.before, listener) });
      rows.push({ key: `${hook}:off`, hook, mode: 'off', bus: busFor(SeamBus, listener) });
      rows.push({ key: `${hook}:on`, hook, mode: 'on', bus: busFor(SeamBus, listener) });
    }
    let onCalls = 0;
    const call = (bus: BusLike, mode: TelemetryMode) => async () => {
      if (mode === 'on') onCalls += 1;
      const { decision } = await bus.dispatch('tools/pre-execute', PAYLOAD, SESSION);
      if (decision.action !== EXPECTED_ACTION) throw new Error(`telemetry bench decided ${decision.action}, expected ${EXPECTED_ACTION}`);
    };
    const budget = { native: { timeMs: 300, min: 1000, warmup: 300 }, wasm: { timeMs: 600, min: 200, warmup: 50 } };
    const samples = new Map<Key, number[]>(rows.map((row) => [row.key, []]));
    let spansExported = 0;
    const ordered = [...rows.filter((row) => row.mode !== 'on'), ...rows.filter((row) => row.mode === 'on')];
    for (let round = 0; round < options.rounds; round++) {
      options.onProgress(`telemetry round ${round + 1}/${options.rounds}`);
      let telemetry: ReturnType<typeof startInMemoryTelemetry> | undefined;
      try {
        for (const row of ordered) {
          if (row.mode === 'on' && telemetry === undefined) telemetry = startInMemoryTelemetry();
          const b = budget[row.hook];
          const n = (value: number) => Math.max(1, Math.round(value * options.scale));
          samples.get(row.key)?.push(...(await timeLoop(call(row.bus, row.mode), b.timeMs * options.scale, n(b.min), n(b.warmup))));
        }
      } finally {
        if (telemetry !== undefined) spansExported += await telemetry.stop();
      }
    }
    if (spansExported === 0) throw new Error('telemetry bench: the "on" rows exported no spans');

    const out: TelemetryRow[] = rows.map((row) => ({ hook: row.hook, mode: row.mode, summary: summarize(samples.get(row.key) ?? []) }));
    const find = (hook: 'native' | 'wasm', mode: TelemetryMode) => out.find((row) => row.hook === hook && row.mode === mode)?.summary;
    const ratios: TelemetryRatio[] = [];
    for (const hook of ['native', 'wasm'] as const) {
      const [before, off, on] = [find(hook, 'before'), find(hook, 'off'), find(hook, 'on')];
      if (before !== undefined && off !== undefined) ratios.push({ hook, what: 'off ÷ before', p50: off.p50Us / before.p50Us, mean: off.meanUs / before.meanUs });
      if (off !== undefined && on !== undefined) ratios.push({ hook, what: 'on ÷ off', p50: on.p50Us / off.p50Us, mean: on.meanUs / off.meanUs });
    }
    return { rows: out, ratios, spansExported, spansMade: onCalls * 2 };
  } finally {
    await wasm.close();
  }
}

const MODE_LABEL: Record<TelemetryMode, string> = {
  before: 'before instrumentation',
  off: 'telemetry off',
  on: 'on, in-memory exporters',
};

/** The section's table. */
export function formatTelemetry(figures: TelemetryFigures): string {
  const lines = ['', 'telemetry: one pre-tool SeamBus.dispatch (one hook), OpenTelemetry off vs on', ''];
  lines.push(`  ${'hook'.padEnd(8)} ${'mode'.padEnd(26)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'mean'.padStart(9)} ${'samples'.padStart(8)}`);
  for (const row of figures.rows) {
    const s = row.summary;
    lines.push(`  ${row.hook.padEnd(8)} ${MODE_LABEL[row.mode].padEnd(26)} ${fmtUs(s.p50Us).padStart(9)} ${fmtUs(s.p99Us).padStart(9)} ${fmtUs(s.meanUs).padStart(9)} ${String(s.samples).padStart(8)}`);
  }
  lines.push('');
  for (const ratio of figures.ratios) lines.push(`  ${ratio.hook.padEnd(8)} ${ratio.what.padEnd(14)} p50 ×${ratio.p50.toFixed(3)}  mean ×${ratio.mean.toFixed(3)}`);
  if (!figures.rows.some((row) => row.mode === 'before')) lines.push('  (before-instrumentation rows: --telemetry-before <checkout>; see bench/telemetry.ts)');
  const dropped = figures.spansMade - figures.spansExported;
  lines.push(`  spans made by the "on" rows: ${figures.spansMade}, exported: ${figures.spansExported}${dropped > 0 ? ` (${dropped} dropped by the batch processor's full queue)` : ''}`);
  return `${lines.join('\n')}\n`;
}
