import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../host/errors.ts';
import { telemetrySettings } from '../../host/telemetry/index.ts';

const ENDPOINT = 'http://127.0.0.1:4318';

describe('telemetrySettings: which OTEL_* variables turn OpenTelemetry on', () => {
  it.each([
    ['nothing set', {}],
    ['only a service name', { OTEL_SERVICE_NAME: 'x' }],
    ['an empty endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }],
    ['OTEL_SDK_DISABLED=true beats an endpoint', { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
    ['OTEL_SDK_DISABLED=TRUE (case-insensitive)', { OTEL_SDK_DISABLED: ' TRUE ', OTEL_TRACES_EXPORTER: 'otlp' }],
    ['both exporters none', { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
  ])('off: %s', (_name, env) => {
    expect(telemetrySettings(env)).toBeUndefined();
  });

  it('an OTLP endpoint turns on both signals with the spec defaults', () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'false' })).toEqual({
      traces: true,
      metrics: true,
      metricExportIntervalMs: 60_000,
      metricExportTimeoutMs: 30_000,
      logLevel: 'warn',
      notes: [],
    });
  });

  it.each([
    ['a traces endpoint: traces only', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` }, true, false],
    ['a metrics endpoint: metrics only', { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${ENDPOINT}/v1/metrics` }, false, true],
    ['OTEL_TRACES_EXPORTER=otlp with no endpoint (the exporter default)', { OTEL_TRACES_EXPORTER: 'otlp' }, true, false],
    ['an endpoint with metrics turned off', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_METRICS_EXPORTER: 'none' }, true, false],
    ['a list naming otlp', { OTEL_METRICS_EXPORTER: 'none, OTLP' }, false, true],
  ])('%s', (_name, env, traces, metrics) => {
    expect(telemetrySettings(env)).toMatchObject({ traces, metrics });
  });

  it('reads the metric interval, timeout and log level', () => {
    expect(
      telemetrySettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_METRIC_EXPORT_INTERVAL: '500', OTEL_METRIC_EXPORT_TIMEOUT: '200', OTEL_LOG_LEVEL: 'DEBUG' }),
    ).toMatchObject({ metricExportIntervalMs: 500, metricExportTimeoutMs: 200, logLevel: 'debug' });
  });

  it('http/protobuf is sent as JSON, with one note', () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })?.notes).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: hookbox sends OTLP/HTTP as JSON (http/json), which OTLP/HTTP receivers such as the OpenTelemetry Collector accept too',
    ]);
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'console' }, 'OTEL_TRACES_EXPORTER=console: hookbox exports "otlp" (OTLP/HTTP) or "none", not "console"'],
    [{ OTEL_METRICS_EXPORTER: 'otlp,prometheus' }, 'OTEL_METRICS_EXPORTER=otlp,prometheus: hookbox exports "otlp" (OTLP/HTTP) or "none", not "prometheus"'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc: hookbox exports OTLP over HTTP only; expected "http/json" or "http/protobuf" (point the endpoint at the receiver\'s OTLP/HTTP port, usually 4318)',
    ],
    [
      { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=grpc: hookbox exports OTLP over HTTP only; expected "http/json" or "http/protobuf" (point the endpoint at the receiver\'s OTLP/HTTP port, usually 4318)',
    ],
    [{ OTEL_METRICS_EXPORTER: 'otlp', OTEL_METRIC_EXPORT_INTERVAL: '1.5s' }, 'OTEL_METRIC_EXPORT_INTERVAL=1.5s: expected a whole number of milliseconds ≥ 1'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_LOG_LEVEL: 'loud' }, 'OTEL_LOG_LEVEL=loud: expected one of none, error, warn, info, debug, verbose, all'],
  ])('refuses what it cannot honour, naming the variable: %j', (env, message) => {
    expect(() => telemetrySettings(env)).toThrow(new ConfigError(message));
  });

  it('a variable for a signal that stays off is not checked', () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ENDPOINT, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc' })).toMatchObject({ traces: true, metrics: false });
  });
});
