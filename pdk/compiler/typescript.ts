/**
 * The TypeScript compiler API, loaded with `require`: importing its 9 MB
 * CommonJS file as an ES module makes Node scan it for named exports, which
 * cost ~0.5 s per build process; `require` takes ~0.2 s. Loaded on first use.
 * With {@link useTypescriptCodeCache}, it is loaded through a V8 code cache
 * (code-cache.ts) keyed by the TypeScript and Node versions.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type TypeScript from 'typescript';
import { requireWithCodeCache, type CachedModule } from './code-cache.ts';

let loaded: typeof TypeScript | undefined;
let cacheDir: string | undefined;
let cached: CachedModule | undefined;

/**
 * Loads TypeScript through a V8 code cache under `<cacheDir>/typescript/` from now on (call it before the
 * first {@link typescript}); {@link saveTypescriptCodeCache} writes the cache when it was missing or refused.
 */
export function useTypescriptCodeCache(dir: string): void {
  cacheDir = dir;
}

/** This process's Node options but the code of `node -e`/`-p`, which sets no flag (and would give each script a 4 MB file). */
function nodeOptions(): string[] {
  const kept: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i] as string;
    if (/^(?:-e|-p|--eval|--print)$/.test(arg)) i++;
    else if (!/^--(?:eval|print)=/.test(arg)) kept.push(arg);
  }
  return [...kept, process.env.NODE_OPTIONS ?? ''];
}

/**
 * V8 refuses a cache made under other V8 flags (`--max-old-space-size`…), and the refused cache is
 * rewritten: one file shared by processes with other flags (a user's NODE_OPTIONS, a test run) would be
 * refused and rewritten by each in turn. Each set of Node options has its own file.
 */
function flagsSuffix(): string {
  const flags = nodeOptions().join('\0');
  return flags === '' ? '' : `-flags-${createHash('sha256').update(flags).digest('hex').slice(0, 12)}`;
}

/** The cache file for this TypeScript (version, size, mtime) under this Node (version, arch, options): another of any is another file. */
function cacheFile(dir: string, file: string): string {
  const { version } = createRequire(import.meta.url)('typescript/package.json') as { version: string };
  const { size, mtimeMs } = statSync(file);
  return join(dir, 'typescript', `typescript-${version}-${size}-${Math.floor(mtimeMs)}-node-${process.version}-${process.arch}${flagsSuffix()}.v8cache`);
}

/** The `typescript` module. */
export function typescript(): typeof TypeScript {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  if (cacheDir === undefined) {
    loaded = require('typescript') as typeof TypeScript;
  } else {
    const file = require.resolve('typescript');
    cached = requireWithCodeCache(file, cacheFile(cacheDir, file));
    loaded = cached.exports as typeof TypeScript;
  }
  return loaded;
}

/** Writes TypeScript's code cache if this process compiled it afresh (once: after the first check, so it holds the checker's code too). */
export function saveTypescriptCodeCache(): void {
  if (cached === undefined || cached.status === 'hit') return;
  cached.save();
  cached = { ...cached, status: 'hit' };
}
