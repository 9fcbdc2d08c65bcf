/**
 * Loads a CommonJS file with a V8 code cache: V8 compiles a script lazily,
 * and for TypeScript's 9 MB compiler the parse and the compilation of the
 * functions a type-check runs cost ~0.4 s in every build process. The cache
 * holds that compiled code; V8 checks it against the source and its own
 * version and flags, and rejects (`cachedDataRejected`) what does not match,
 * so a stale or corrupt cache costs a normal compile and is then rewritten.
 * But V8's check is weak (it takes cached data made for any script of the
 * same source length), so cached data is code: it is read only from a
 * folder of the user's own with mode 0700 (made so), in a root no one else
 * can write, from a file no one else wrote (host/cache-trust.ts); otherwise
 * the cache is bypassed with one line on stderr and the file compiled.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { cacheProblem, privateCacheDir } from '../../host/cache-trust.ts';

/** How the cache served a load: used, absent (or unreadable), refused by V8, or not trusted (neither read nor written). */
export type CodeCacheStatus = 'hit' | 'miss' | 'rejected' | 'bypassed';

/** A file loaded by {@link requireWithCodeCache}. */
export interface CachedModule {
  readonly exports: unknown;
  readonly status: CodeCacheStatus;
  /**
   * Writes the cache (through a temporary file and a rename, so a reader never sees a torn file).
   * Call it after the module did its work: the cache then holds the functions that ran, too.
   * A failure to write (read-only install) is ignored: the cache only saves time.
   */
  save(): void;
}

/**
 * Writes a cache file through a temporary file and a rename (its folder made if need be), so a
 * process reading it at the same time never sees a torn file. Throws what the file system throws.
 */
export function writeCacheFile(file: string, data: string | NodeJS.ArrayBufferView): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

const prefixed = (file: string, problem: string | undefined): string | undefined => (problem === undefined ? undefined : `${file} ${problem}`);

function readCache(cacheFile: string): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/**
 * The file's text as `require` reads it (a leading BOM dropped). Decoding 9 MB as UTF-8 costs
 * 0.15-0.5 s here; an ASCII file (typescript.js is one) reads the same as latin1 in ~1 ms.
 */
function readSource(file: string): string {
  const bytes = readFileSync(file);
  if (isAscii(bytes)) return bytes.toString('latin1');
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Runs the CommonJS file `file` as `require` would (its own `require`, `module`, `__dirname`)
 * with the code cache at `cacheFile`. The file's `require`s of other files are ordinary.
 */
export function requireWithCodeCache(file: string, cacheFile: string): CachedModule {
  const folder = dirname(cacheFile);
  const problem = privateCacheDir(dirname(folder), folder) ?? prefixed(cacheFile, cacheProblem(cacheFile));
  if (problem !== undefined) process.stderr.write(`hookbox: the V8 code cache is bypassed (the file is compiled): ${problem}\n`);
  const cachedData = problem === undefined ? readCache(cacheFile) : undefined;
  const source = readSource(file);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const status: CodeCacheStatus = problem !== undefined ? 'bypassed' : cachedData === undefined ? 'miss' : script.cachedDataRejected === true ? 'rejected' : 'hit';
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    status,
    save() {
      if (problem !== undefined) return;
      try {
        writeCacheFile(cacheFile, script.createCachedData());
      } catch {
        // Not writable: the next process compiles again, as without a cache.
      }
    },
  };
}
