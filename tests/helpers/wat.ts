/**
 * Compiles the hostile plugin corpus (`tests/security/corpus/*.wat`) to wasm
 * with wabt from npm, so tests never depend on checked-in binaries.
 *
 * Compiled bytes are cached per process; every caller gets its own copy, so a
 * test that corrupts bytes (e.g. for a sha256 mismatch) cannot poison others.
 */
import { readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the corpus directory. */
export const CORPUS_DIR = fileURLToPath(new URL('../security/corpus/', import.meta.url));

/**
 * Post-MVP features the corpus may use. Node 20's V8 runs all of them by
 * default; bulk memory is needed for `memory.fill` (the memory bombs).
 */
const FEATURES = {
  bulk_memory: true,
  mutable_globals: true,
  sign_extension: true,
  sat_float_to_int: true,
  multi_value: true,
} as const;

const NAME = /^[a-z0-9][a-z0-9-]*$/;

type Wabt = Awaited<ReturnType<typeof import('wabt')>>;
let wabtReady: Promise<Wabt> | undefined;
const compiled = new Map<string, Promise<Uint8Array>>();

function loadWabt(): Promise<Wabt> {
  wabtReady ??= import('wabt').then((mod) => mod.default());
  return wabtReady;
}

/** Names of every corpus plugin (file names without `.wat`), sorted. */
export function listCorpus(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.wat'))
    .map((file) => file.slice(0, -'.wat'.length))
    .sort();
}

/**
 * Absolute path of a corpus plugin's `.wat` source.
 * @throws Error when the name is not a plain kebab-case corpus name.
 */
export function corpusPath(name: string): string {
  if (!NAME.test(name)) throw new Error(`not a corpus plugin name: ${JSON.stringify(name)}`);
  return join(CORPUS_DIR, `${name}.wat`);
}

/**
 * Compiles WAT text to validated wasm bytes.
 * @param filename used in wabt's error messages only
 * @param features wabt features beyond the corpus set (e.g. `tail_call`, `threads`, `exceptions`)
 * @throws Error naming the file when wabt rejects the text
 */
export async function compileWatSource(source: string, filename = 'inline.wat', features: Record<string, boolean> = {}): Promise<Uint8Array> {
  const wabt = await loadWabt();
  let module: ReturnType<Wabt['parseWat']> | undefined;
  try {
    module = wabt.parseWat(filename, source, { ...FEATURES, ...features });
    module.resolveNames();
    module.validate();
    // Copy out of wabt's heap: the view it returns is not ours to keep.
    return new Uint8Array(module.toBinary({}).buffer);
  } catch (cause) {
    throw new Error(`wabt could not compile ${filename}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  } finally {
    module?.destroy();
  }
}

/**
 * Compiles `tests/security/corpus/<name>.wat` (cached) and returns a fresh
 * copy of the wasm bytes.
 */
export async function compileWat(name: string): Promise<Uint8Array> {
  let pending = compiled.get(name);
  if (pending === undefined) {
    const path = corpusPath(name);
    pending = readFile(path, 'utf8').then((source) => compileWatSource(source, path));
    // A failed compile is not cached: the next call reports the error again.
    pending.catch(() => compiled.delete(name));
    compiled.set(name, pending);
  }
  return (await pending).slice();
}

/**
 * Compiles a corpus plugin and writes it to `<dir>/<name>.wasm` (creating
 * `dir`), e.g. for CLI tests. Returns the written file's path.
 */
export async function writeCorpusWasm(name: string, dir: string): Promise<string> {
  const bytes = await compileWat(name);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.wasm`);
  await writeFile(path, bytes);
  return path;
}
