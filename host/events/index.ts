export { SeamBus } from './bus.ts';
export { checkDecision } from './check-decision.ts';
export { invokeListener } from './invoke.ts';
export type { Applied, DispatchOptions } from './invoke.ts';
export { canonicalJson } from './canonical-json.ts';
export type { Decided, DispatchResult, HookInvocation, InvocationObserver, ListenerOutcome, SeamCall, SeamListener } from './listener.ts';
export { NO_OPINION, nativeHook } from './native.ts';
export type { NativeContext, NativeHandler, NativeHandlers, NativeHookOptions, NoOpinion } from './native.ts';
export { compileToolMatcher } from './tool-matcher.ts';
