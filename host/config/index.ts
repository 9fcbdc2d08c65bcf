export { loadHookFile, loadHooks, loadManifest, specForEntry } from './load-hooks.ts';
export type { HookFileOverrides, LoadedHook } from './load-hooks.ts';
export { HookManifestSchema, HookProtocolSchema } from './manifest.ts';
export type { HookManifest, HookProtocol } from './manifest.ts';
export { OperatorConfigSchema, OperatorHookSchema, loadOperatorConfig, resolveGrantPaths } from './operator-config.ts';
export type { OperatorConfig, OperatorHook, ResolvedConfig, ResolvedHookEntry } from './operator-config.ts';
export { intersectCapabilities } from './capabilities.ts';
export type { CapabilitySources } from './capabilities.ts';
