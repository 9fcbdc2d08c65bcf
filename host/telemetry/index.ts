// The SDK (./sdk.ts) is deliberately not exported here: importing it loads the
// OpenTelemetry SDK, which the CLI does dynamically and only when OTEL_* turns it on.
export { currentTelemetry, setTelemetry } from './active.ts';
export { telemetrySettings } from './env.ts';
export type { DiagLevelName, TelemetrySettings } from './env.ts';
export { ATTR, DURATION_BUCKETS_US, METRIC, SPAN, TELEMETRY_SCOPE } from './names.ts';
export { TelemetryRecorder } from './recorder.ts';
export type { DispatchRecord, HookCallRecord, TurnRecord } from './recorder.ts';
