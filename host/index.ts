/**
 * hookbox as a library: run untrusted WebAssembly hooks (and native or shell
 * hooks) at the five interception seams of your own agent loop, or run
 * hookbox's loop.
 *
 * Everything not listed here is private. `import … from 'hookbox'`;
 * hook authors import `hookbox/pdk`.
 *
 * @example
 * ```ts
 * import { HookRunner, SeamBus, loadHooks, loadOperatorConfig } from 'hookbox';
 *
 * const runner = await HookRunner.start();
 * try {
 *   const bus = new SeamBus();
 *   for (const hook of await loadHooks(loadOperatorConfig('hookbox.config.json'), runner)) bus.use(hook);
 *   const { decision } = await bus.dispatch(
 *     'tools/pre-execute',
 *     { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf /' } },
 *     { id: 'session-1', turn: 1, step: 1, cwd: process.cwd() },
 *   );
 *   if (decision.action !== 'allow') console.log(decision.action, decision.reason);
 * } finally {
 *   await runner.close();
 * }
 * ```
 *
 * @packageDocumentation
 */

// The sandbox.
export { DEFAULT_LIMITS, HookRunner, hookboxCodec } from './runner/index.ts';
export type {
  Capabilities,
  ExportReply,
  HookCodec,
  HookLimits,
  HookLogEntry,
  HookRunnerOptions,
  WasmHook,
  WasmHookSpec,
} from './runner/index.ts';

// The seam bus and listeners.
export { NO_OPINION, SeamBus, checkDecision, invokeListener, nativeHook } from './events/index.ts';
export type {
  DispatchResult,
  HookInvocation,
  ListenerOutcome,
  NativeContext,
  NativeHandler,
  NativeHandlers,
  NativeHookOptions,
  SeamCall,
  SeamListener,
} from './events/index.ts';

// Configuration: hook manifests and the operator config, one file or its layers (organisation › user › project).
export { explainConfig, loadHookFile, loadHooks, loadLayeredConfig, loadOperatorConfig } from './config/index.ts';
export type { ConfigExplanation, HookFileOverrides, HookManifest, HookProtocol, LayeredConfig, LoadedHook, ResolvedConfig, ResolvedHookEntry } from './config/index.ts';

// The seam contract.
export { SEAMS, SEAM_IDS, isSeamId } from './seams/index.ts';
export type {
  ContinuationDecision,
  DecisionOf,
  FailPolicy,
  HookFault,
  HookFaultKind,
  PayloadOf,
  PostToolDecision,
  PostToolPayload,
  PreToolDecision,
  PreToolPayload,
  PromptDecision,
  PromptSubmitPayload,
  SeamId,
  SessionInfo,
  SessionStartDecision,
  SessionStartPayload,
  TurnContinuationPayload,
} from './seams/index.ts';

// hookbox's own agent loop.
export { LOOP_DEFAULTS, Session } from './loop/index.ts';
export type { ModelProvider, PermissionPrompter, SessionOptions, Tool, ToolContext, TurnOutcome } from './loop/index.ts';

// OpenTelemetry: report turns, dispatches and hook calls to the embedding program's own tracer and meter.
export { ATTR, METRIC, SPAN, TelemetryRecorder, currentTelemetry, setTelemetry } from './telemetry/index.ts';

// Errors hookbox throws for bad configuration and host bugs (never for what a hook does).
export { ConfigError, HookLoadError, HostError } from './errors.ts';

export { HOOKBOX_VERSION } from './package.ts';
