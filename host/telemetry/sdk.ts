/**
 * The OpenTelemetry SDK with OTLP/HTTP exporters, started from the `OTEL_*`
 * variables. Only the CLI imports this file, dynamically, and only when
 * `telemetrySettings()` says a signal is on: with telemetry off no SDK code
 * is loaded. Nothing here touches OpenTelemetry's global providers, so an
 * embedding program's own setup is left alone.
 */
import { format } from 'node:util';
import { DiagLogLevel, type DiagLogger, diag, metrics, trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HOOKBOX_VERSION } from '../package.ts';
import { setTelemetry } from './active.ts';
import type { DiagLevelName, TelemetrySettings } from './env.ts';
import { TELEMETRY_SCOPE } from './names.ts';
import { TelemetryRecorder } from './recorder.ts';

/** A running SDK: `shutdown` turns telemetry off and flushes what is buffered. */
export interface TelemetrySdk {
  shutdown(): Promise<void>;
}

const DIAG_LEVEL: Record<DiagLevelName, DiagLogLevel> = {
  none: DiagLogLevel.NONE,
  error: DiagLogLevel.ERROR,
  warn: DiagLogLevel.WARN,
  info: DiagLogLevel.INFO,
  debug: DiagLogLevel.DEBUG,
  verbose: DiagLogLevel.VERBOSE,
  all: DiagLogLevel.ALL,
};

/** Every SDK diagnostic to stderr: stdout may be a protocol (`hookbox acp`, `run --json`). */
function stderrLogger(): DiagLogger {
  const line =
    (level: string) =>
    (message: string, ...args: unknown[]): void => {
      process.stderr.write(`hookbox: opentelemetry ${level}: ${format(message, ...args)}\n`);
    };
  return { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug'), verbose: line('verbose') };
}

/**
 * Starts exporting what `settings` turns on and installs the recorder the
 * bus and the loop report to. The exporters read their endpoint, headers
 * and timeout from the standard variables themselves
 * (`OTEL_EXPORTER_OTLP_[TRACES_|METRICS_]ENDPOINT`, `…_HEADERS`, `…_TIMEOUT`),
 * and the resource honours `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
 */
export function startTelemetrySdk(settings: TelemetrySettings): TelemetrySdk {
  if (settings.logLevel !== 'none') diag.setLogger(stderrLogger(), DIAG_LEVEL[settings.logLevel]);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'hookbox', 'service.version': HOOKBOX_VERSION }))
    .merge(detectResources({ detectors: [envDetector] }));
  const tracerProvider = settings.traces
    ? new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] })
    : undefined;
  const meterProvider = settings.metrics
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter(),
            exportIntervalMillis: settings.metricExportIntervalMs,
            exportTimeoutMillis: Math.min(settings.metricExportTimeoutMs, settings.metricExportIntervalMs),
          }),
        ],
      })
    : undefined;
  // A signal that is off gets the API's no-op (no global provider is registered here).
  const tracer = tracerProvider?.getTracer(TELEMETRY_SCOPE, HOOKBOX_VERSION) ?? trace.getTracer(TELEMETRY_SCOPE, HOOKBOX_VERSION);
  const meter = meterProvider?.getMeter(TELEMETRY_SCOPE, HOOKBOX_VERSION) ?? metrics.getMeter(TELEMETRY_SCOPE, HOOKBOX_VERSION);
  const recorder = new TelemetryRecorder(tracer, meter);
  const previous = setTelemetry(recorder);
  return {
    async shutdown() {
      setTelemetry(previous);
      recorder.dispose();
      // Each provider flushes on shutdown; one failing export does not keep the other's back.
      await Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
      diag.disable();
    },
  };
}
