/**
 * Loads a CommonJS file with a V8 code cache: V8 compiles a script lazily,
 * and for TypeScript's 9 MB compiler the parse and the compilation of the
 * functions a type-check runs cost ~0.4 s in every build process. The cache
 * holds that compiled code; V8 checks it against the source and its own
 * version and flags, and rejects (`cachedDataRejected`) what does not match,
 * so a stale or corrupt cache costs a normal compile and is then rewritten.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** How the cache served a load: used, absent (or unreadable), or refused by V8. */
export type CodeCacheStatus = 'hit' | 'miss' | 'rejected';

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

function readCache(cacheFile: string): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/**
 * Runs the CommonJS file `file` as `require` would (its own `require`, `module`, `__dirname`)
 * with the code cache at `cacheFile`. The file's `require`s of other files are ordinary.
 */
export function requireWithCodeCache(file: string, cacheFile: string): CachedModule {
  const cachedData = readCache(cacheFile);
  const source = readFileSync(file, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const status: CodeCacheStatus = cachedData === undefined ? 'miss' : script.cachedDataRejected === true ? 'rejected' : 'hit';
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    status,
    save() {
      try {
        mkdirSync(dirname(cacheFile), { recursive: true });
        const tmp = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // Not writable: the next process compiles again, as without a cache.
      }
    },
  };
}
