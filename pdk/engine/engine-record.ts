/**
 * The digest recorded for each engine in a checkout's cache, checked before
 * the engine is used: every hook is built on these bytes, so a changed byte
 * (an agent's write, a restored cache) would run in every hook. The build
 * writes `engine-<key>.json` beside `engine-<key>.wasm` (`{key, sha256,
 * bytes}`, the shape of the package's `dist/engine/engine.json`); an engine
 * cached before records were written is checked against `dist/engine/engine.json`
 * when its key matches (what `npm run build` packed), and recorded then.
 * The folder and files must be the user's own (host/cache-trust.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cacheProblem } from '../../host/cache-trust.ts';
import { BuildError } from '../../host/errors.ts';

/** What is recorded of one built engine. */
export interface EngineRecord {
  /** The engine's cache key (a hash of every input). */
  readonly key: string;
  /** sha256 of the wasm bytes, hex. */
  readonly sha256: string;
  readonly bytes: number;
}

/** `engine-<key>.json` beside `engine-<key>.wasm`. */
export function engineRecordPath(wasmPath: string): string {
  return join(dirname(wasmPath), basename(wasmPath).replace(/\.wasm$/, '.json'));
}

export function engineRecordOf(key: string, bytes: Uint8Array): EngineRecord {
  return { key, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

/** Writes the record through a temporary file and a rename. */
export function writeEngineRecord(wasmPath: string, record: EngineRecord): void {
  const file = engineRecordPath(wasmPath);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(tmp, file);
}

/**
 * Refuses a cache others can write: the root, the engine folder, the
 * engine and its record must each be the user's own. Throws a BuildError
 * naming the path and what is wrong.
 */
export function refuseForeignEngineCache(paths: readonly string[]): void {
  for (const path of paths) {
    const problem = cacheProblem(path);
    if (problem !== undefined) {
      throw new BuildError(
        `${path} ${problem}: hookbox builds every hook on the cached JS engine and will not take one from a cache someone else can write; make it yours (chown, chmod go-w) or point HOOKBOX_CACHE_DIR at a folder of your own`,
      );
    }
  }
}

function readRecord(file: string): EngineRecord | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<EngineRecord>;
    return typeof value.key === 'string' && typeof value.sha256 === 'string' && typeof value.bytes === 'number' ? (value as EngineRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a cached engine against its recorded digest: `true` when it
 * matches (recording it beside the engine if only the packed record held
 * it), `false` when nothing records it (the caller builds it again). Throws
 * a BuildError naming the file when the bytes differ from the record.
 */
export function checkCachedEngine(wasmPath: string, key: string, packedRecord: string): boolean {
  const own = engineRecordPath(wasmPath);
  refuseForeignEngineCache([wasmPath, own]);
  const beside = readRecord(own);
  const packed = beside === undefined && cacheProblem(packedRecord) === undefined ? readRecord(packedRecord) : undefined;
  const record = beside?.key === key ? beside : packed?.key === key ? packed : undefined;
  if (record === undefined) return false;
  const actual = engineRecordOf(key, readFileSync(wasmPath));
  if (actual.sha256 !== record.sha256 || actual.bytes !== record.bytes) {
    throw new BuildError(
      `${wasmPath}: sha256 ${actual.sha256} (${actual.bytes} bytes) does not match the ${record.sha256} (${record.bytes} bytes) recorded in ${record === beside ? own : packedRecord}: the cached JS engine was changed after it was built; delete it and build again`,
    );
  }
  if (record !== beside) writeEngineRecord(wasmPath, record);
  return true;
}
