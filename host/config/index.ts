export { describeIssues, jsonPath, parseJsonText, readJsonFile } from './json-file.ts';
export { loadHookFile, loadHooks, loadManifest, specForEntry } from './load-hooks.ts';
export type { HookFileOverrides, LoadedHook } from './load-hooks.ts';
export { CapabilitiesSchema, HookLimitsSchema, HookManifestSchema, HookProtocolSchema } from './manifest.ts';
export type { Capabilities, HookLimits, HookManifest, HookProtocol } from './manifest.ts';
export { OperatorConfigSchema, OperatorHookSchema, loadOperatorConfig, resolveGrantPaths } from './operator-config.ts';
export type { OperatorConfig, OperatorHook, ResolvedConfig, ResolvedHookEntry } from './operator-config.ts';
export { intersectCapabilities } from './capabilities.ts';
