import type { TelemetryRecorder } from './recorder.ts';

/**
 * The process's telemetry recorder, or `undefined` while telemetry is off
 * (the default). The bus and the loop read it once per turn, dispatch and
 * hook call: off, that is one load and one well-predicted branch, and no
 * OpenTelemetry code runs at all.
 */
let current: TelemetryRecorder | undefined;

/** The recorder in use, or `undefined` when telemetry is off. */
export function currentTelemetry(): TelemetryRecorder | undefined {
  return current;
}

/**
 * Turns telemetry on with `recorder` (or off with `undefined`); returns the
 * recorder it replaces, so a caller can put it back.
 */
export function setTelemetry(recorder: TelemetryRecorder | undefined): TelemetryRecorder | undefined {
  const previous = current;
  current = recorder;
  return previous;
}
