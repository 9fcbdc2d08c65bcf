import { ConfigError } from '../errors.ts';

/**
 * What the standard `OTEL_*` variables ask of hookbox. Reading them loads no
 * OpenTelemetry code: the CLI imports the SDK only when this says a signal
 * is on.
 */
export interface TelemetrySettings {
  /** Export spans over OTLP/HTTP. */
  readonly traces: boolean;
  /** Export metrics over OTLP/HTTP. */
  readonly metrics: boolean;
  /** `OTEL_METRIC_EXPORT_INTERVAL`: ms between metric exports (default 60000). */
  readonly metricExportIntervalMs: number;
  /** `OTEL_METRIC_EXPORT_TIMEOUT`: ms one metric export may take (default 30000). */
  readonly metricExportTimeoutMs: number;
  /** `OTEL_LOG_LEVEL`: the SDK's own diagnostics, written to stderr (default `warn`). */
  readonly logLevel: DiagLevelName;
  /** One-line notes for stderr about what was asked and what hookbox does instead. */
  readonly notes: readonly string[];
}

export type DiagLevelName = 'none' | 'error' | 'warn' | 'info' | 'debug' | 'verbose' | 'all';
const DIAG_LEVELS: readonly DiagLevelName[] = ['none', 'error', 'warn', 'info', 'debug', 'verbose', 'all'];

type Signal = 'TRACES' | 'METRICS';
type Env = Readonly<Record<string, string | undefined>>;

/** A variable's value, trimmed; unset and empty are alike (as the OpenTelemetry spec has it). */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** `OTEL_<SIGNAL>_EXPORTER`: `otlp` or `none` (a comma list); anything else is refused rather than ignored. */
function exporterAsked(env: Env, signal: Signal): boolean | undefined {
  const name = `OTEL_${signal}_EXPORTER`;
  const value = read(env, name);
  if (value === undefined) return undefined;
  const exporters = value.split(',').map((item) => item.trim().toLowerCase()).filter((item) => item !== '');
  const unsupported = exporters.filter((item) => item !== 'otlp' && item !== 'none');
  if (unsupported.length > 0) {
    throw new ConfigError(`${name}=${value}: hookbox exports "otlp" (OTLP/HTTP) or "none", not ${unsupported.map((item) => `"${item}"`).join(', ')}`);
  }
  return exporters.includes('otlp');
}

/** A signal is on when its exporter says `otlp`, or, with no exporter named, when an OTLP endpoint is set. */
function signalOn(env: Env, signal: Signal): boolean {
  const asked = exporterAsked(env, signal);
  if (asked !== undefined) return asked;
  return read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined || read(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`) !== undefined;
}

/** hookbox ships the OTLP/HTTP JSON exporters only: http/protobuf gets JSON with a note, grpc is refused. */
function checkProtocol(env: Env, signal: Signal, notes: string[]): void {
  const name = read(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`) !== undefined ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL` : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = read(env, name);
  if (protocol === undefined || protocol === 'http/json') return;
  if (protocol === 'http/protobuf') {
    const note = `${name}=http/protobuf: hookbox sends OTLP/HTTP as JSON (http/json), which OTLP/HTTP receivers such as the OpenTelemetry Collector accept too`;
    if (!notes.includes(note)) notes.push(note);
    return;
  }
  throw new ConfigError(`${name}=${protocol}: hookbox exports OTLP over HTTP only; expected "http/json" or "http/protobuf" (point the endpoint at the receiver's OTLP/HTTP port, usually 4318)`);
}

function milliseconds(env: Env, name: string, fallback: number): number {
  const value = read(env, name);
  if (value === undefined) return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1) throw new ConfigError(`${name}=${value}: expected a whole number of milliseconds ≥ 1`);
  return ms;
}

function logLevel(env: Env): DiagLevelName {
  const value = read(env, 'OTEL_LOG_LEVEL');
  if (value === undefined) return 'warn';
  const level = value.toLowerCase() as DiagLevelName;
  if (!DIAG_LEVELS.includes(level)) throw new ConfigError(`OTEL_LOG_LEVEL=${value}: expected one of ${DIAG_LEVELS.join(', ')}`);
  return level;
}

/**
 * Reads the `OTEL_*` variables: `undefined` when telemetry stays off
 * (`OTEL_SDK_DISABLED=true`, or no signal turned on), else which signals to
 * export and how.
 * @throws ConfigError naming the variable when a value cannot be honoured
 */
export function telemetrySettings(env: Env = process.env): TelemetrySettings | undefined {
  if (read(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const traces = signalOn(env, 'TRACES');
  const metrics = signalOn(env, 'METRICS');
  if (!traces && !metrics) return undefined;
  const notes: string[] = [];
  if (traces) checkProtocol(env, 'TRACES', notes);
  if (metrics) checkProtocol(env, 'METRICS', notes);
  return {
    traces,
    metrics,
    metricExportIntervalMs: milliseconds(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000),
    metricExportTimeoutMs: milliseconds(env, 'OTEL_METRIC_EXPORT_TIMEOUT', 30_000),
    logLevel: logLevel(env),
    notes,
  };
}
