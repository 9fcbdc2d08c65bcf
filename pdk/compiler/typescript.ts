/**
 * The TypeScript compiler API, loaded with `require`: importing its 9 MB
 * CommonJS file as an ES module makes Node scan it for named exports, which
 * cost ~0.5 s per build process; `require` takes ~0.2 s. Loaded on first use.
 */
import { createRequire } from 'node:module';
import type TypeScript from 'typescript';

let loaded: typeof TypeScript | undefined;

/** The `typescript` module. */
export function typescript(): typeof TypeScript {
  loaded ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return loaded;
}
