/** The hook compiler: TypeScript/JavaScript source → Extism wasm + hook.json. */
export { buildHook } from './build-hook.ts';
export type { BuildHookOptions, BuildHookResult } from './build-hook.ts';
export { DEFAULT_HOOK_LIMITS } from './manifest.ts';
