// Test helpers for hook projects (plain Node, no build step): the compiler
// and the sandbox runner, from hookbox's build (dist/) when it is fresh, else
// from the TypeScript sources through tsx. Used by the test `hookbox init`
// scaffolds:
//   import { buildHook, HookRunner } from 'hookbox/pdk/testing.mjs';
import { freshBuild } from '../host/fresh-build.mjs';

const build = freshBuild();
let compiler;
let runner;
if (build !== undefined) {
  compiler = await import(new URL('pdk/compiler/index.js', build).href);
  runner = await import(new URL('host/runner/index.js', build).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  compiler = await import('./compiler/index.ts');
  runner = await import('../host/runner/index.ts');
}

export const { buildHook } = compiler;
export const { HookRunner } = runner;
