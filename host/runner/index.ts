export { HookRunner, RUNNER_DEFAULTS } from './runner.ts';
export type { HookRunnerOptions } from './runner.ts';
export { DEFAULT_LIMITS, DEFAULT_QUARANTINE_AFTER } from './types.ts';
export type { HookLogEntry, WasmHook, WasmHookSpec } from './types.ts';
export type { HookLogLevel } from './log-sink.ts';
export { inspectWasm } from './inspect.ts';
export type { WasmInspection } from './inspect.ts';
