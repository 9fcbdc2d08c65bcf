// Test helpers for hook projects (plain Node, no build step): registers the
// TypeScript loader hookbox runs on, then re-exports the compiler and the
// sandbox runner. Used by the test `hookbox init` scaffolds:
//   import { buildHook, HookRunner } from 'hookbox/pdk/testing.mjs';
import { register } from 'tsx/esm/api';

register();
const { buildHook } = await import('./compiler/index.ts');
const { HookRunner } = await import('../host/runner/index.ts');

export { buildHook, HookRunner };
