/**
 * Builds `engine.wasm` — QuickJS plus our glue (`src/`) — with `@yowasp/clang`
 * (clang compiled to wasm, from npm: no system toolchain needed).
 *
 * QuickJS's source comes from the `qjsc` package at build time; the few
 * adaptations it needs for wasm32-wasi are text patches applied here, in
 * memory (see `quickjs-patches.ts`). The result is cached outside git under
 * `<repo>/.cache/engine/` (or `$HOOKBOX_CACHE_DIR/engine/`), keyed by a hash
 * of every input, and is byte-identical across builds. Object files are cached
 * too, so a glue change does not recompile quickjs.c (~50 s).
 *
 * Only a development checkout compiles the engine. `npm pack` (the build's
 * `prepack`) copies it into the package as `dist/engine/engine.wasm`, with its
 * key and sha256 in `dist/engine/engine.json`; an installed package loads that
 * file, read-only and checked against the digest, and needs neither clang nor
 * QuickJS's sources (both are devDependencies).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { BuildError } from '../../host/errors.ts';
import { IS_CHECKOUT, PACKAGE_ROOT } from '../../host/package.ts';
import { cacheProblem } from '../../host/cache-trust.ts';
import { checkCachedEngine, engineRecordOf, refuseForeignEngineCache, writeEngineRecord } from './engine-record.ts';
import { patchLibregexp, patchQuickjs } from './quickjs-patches.ts';

// From package.json, not from this file: the C glue ships as source beside the built dist/.
const HERE = join(PACKAGE_ROOT, 'pdk', 'engine');
const REPO_ROOT = PACKAGE_ROOT;
const GLUE_DIR = join(HERE, 'src');
const QUICKJS_VERSION = '2021-03-27';

/** Linear memory cap declared by the engine (the host may lower it per hook). */
export const ENGINE_MAX_MEMORY_BYTES = 64 * 1024 * 1024;

const COMPILE_FLAGS = [
  '--target=wasm32-wasip1',
  '-O2',
  '-D_GNU_SOURCE',
  `-DCONFIG_VERSION="${QUICKJS_VERSION}"`,
  '-DCONFIG_BIGNUM',
  '-funsigned-char',
  '-Wno-everything',
  '-Iquickjs',
  '-Iglue',
];
const LINK_FLAGS = [
  '--target=wasm32-wasip1',
  '-nostartfiles',
  '-Wl,--no-entry',
  '-Wl,-z,stack-size=1048576',
  '-Wl,--strip-all',
  `-Wl,--max-memory=${ENGINE_MAX_MEMORY_BYTES}`,
];
const QUICKJS_UNITS = ['quickjs.c', 'libregexp.c', 'libunicode.c', 'cutils.c', 'libbf.c'];

/** Options for {@link ensureEngine} and {@link buildEngine}. */
export interface EngineOptions {
  /** Cache root; the engine goes to `<cacheDir>/engine/`. Default {@link cacheRoot}'s. */
  cacheDir?: string;
  /** Progress lines; default writes them to stderr. */
  onProgress?: (message: string) => void;
}

/**
 * The cache root: `$HOOKBOX_CACHE_DIR`, else `<repo>/.cache` in a development
 * checkout, else the user's cache folder (`$XDG_CACHE_HOME/hookbox`, or
 * `~/.cache/hookbox`) — never inside an installed package's `node_modules`.
 */
export function cacheRoot(override?: string): string {
  if (override !== undefined) return resolve(override);
  if (process.env.HOOKBOX_CACHE_DIR) return resolve(process.env.HOOKBOX_CACHE_DIR);
  if (IS_CHECKOUT) return join(REPO_ROOT, '.cache');
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg !== '' ? resolve(xdg) : join(homedir(), '.cache'), 'hookbox');
}

/** Where the packed package holds its engine (see the module's doc). */
export const SHIPPED_ENGINE_DIR = join(PACKAGE_ROOT, 'dist', 'engine');

/** `dist/engine/engine.json`: what the packed engine is. Every field required: a record without its digest checks nothing. */
export const ShippedEngineSchema = z.object({
  /** The engine's cache key (a hash of every input; see {@link buildEngine}). */
  key: z.string().min(1),
  /** sha256 of `engine.wasm`, hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
  bytes: z.number().int().nonnegative(),
});
export type ShippedEngine = z.infer<typeof ShippedEngineSchema>;

let shippedChecked: string | undefined;

/**
 * The engine an installed package ships, after checking its bytes against the
 * digest recorded beside it (once per process). Throws a BuildError naming the
 * file when it is missing, when `engine.json` is not a whole record (its
 * digest missing included), or when the bytes do not match: an installed
 * package never compiles one.
 */
export function shippedEngine(dir = SHIPPED_ENGINE_DIR): string {
  const wasmPath = join(dir, 'engine.wasm');
  const metaPath = join(dir, 'engine.json');
  if (shippedChecked === wasmPath) return wasmPath;
  const read = <T>(file: string, how: (file: string) => T): T => {
    try {
      return how(file);
    } catch (error) {
      throw new BuildError(`${file}: hookbox's JS engine is missing or unreadable in the installed package (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): reinstall hookbox`, { cause: error });
    }
  };
  const text = read(metaPath, (file) => readFileSync(file, 'utf8'));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BuildError(`${metaPath}: not JSON (${(error as Error).message}): the package is damaged; reinstall hookbox`, { cause: error });
  }
  const parsed = ShippedEngineSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new BuildError(`${metaPath}: ${issues}: the package is damaged; reinstall hookbox`);
  }
  const meta = parsed.data;
  const bytes = read(wasmPath, (file) => readFileSync(file));
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== meta.sha256) {
    throw new BuildError(`${wasmPath}: sha256 ${actual} does not match the ${meta.sha256} recorded in engine.json: the package is damaged; reinstall hookbox`);
  }
  shippedChecked = wasmPath;
  return wasmPath;
}

interface EngineInputs {
  /** Virtual source tree for clang: `quickjs/…` (patched) and `glue/…` (ours + generated prelude.h). */
  tree: { quickjs: Record<string, Uint8Array>; glue: Record<string, Uint8Array> };
  units: { dir: 'quickjs' | 'glue'; file: string }[];
  clangVersion: string;
  key: string;
}

function sha256(...parts: (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(typeof part === 'string' ? `${part.length}:${part}` : part);
  return hash.digest('hex');
}

async function readDir(dir: string, pick: (name: string) => boolean): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const name of (await readdir(dir)).filter(pick).sort()) files[name] = await readFile(join(dir, name));
  return files;
}

/** The prelude as a C array, so the engine embeds it without a runtime file. */
function preludeHeader(source: Uint8Array): Uint8Array {
  const bytes = source.join(',');
  return new TextEncoder().encode(
    `/* Generated from prelude*.js by pdk/engine/build.ts. */\n` +
      `const char HB_PRELUDE[] = {${bytes},0};\nconst unsigned HB_PRELUDE_LEN = ${source.length};\n`,
  );
}

async function collectInputs(): Promise<EngineInputs> {
  const require = createRequire(import.meta.url);
  const quickjsDir = join(dirname(require.resolve('qjsc/package.json')), 'deps', `quickjs_${QUICKJS_VERSION.replaceAll('-', '_')}`);
  const quickjs = await readDir(quickjsDir, (n) => n.endsWith('.h') || QUICKJS_UNITS.includes(n));
  quickjs['quickjs.c'] = patchQuickjs(quickjs['quickjs.c'] as Uint8Array);
  quickjs['libregexp.c'] = patchLibregexp(quickjs['libregexp.c'] as Uint8Array);
  const glue = await readDir(GLUE_DIR, (n) => /\.(c|h|js)$/.test(n));
  // prelude.js first, then prelude-*.js in name order; each is its own script over `__hb`, removed after the last.
  const preludes = Object.keys(glue).filter((n) => /^prelude(-[a-z-]+)?\.js$/.test(n)).sort((a, b) => (a === 'prelude.js' ? -1 : b === 'prelude.js' ? 1 : a < b ? -1 : 1));
  const prelude = [...preludes.map((n) => new TextDecoder().decode(glue[n])), 'delete globalThis.__hb;\n'].join('\n');
  glue['prelude.c'] = preludeHeader(new TextEncoder().encode(prelude));
  for (const n of preludes) delete glue[n];
  const units = [
    ...QUICKJS_UNITS.map((file) => ({ dir: 'quickjs' as const, file })),
    ...Object.keys(glue)
      .filter((n) => n.endsWith('.c'))
      .map((file) => ({ dir: 'glue' as const, file })),
  ];
  // The package exports no package.json: read it beside its entry (gen/bundle.js).
  const clangPackage = join(dirname(require.resolve('@yowasp/clang')), '..', 'package.json');
  const clangVersion = (JSON.parse(await readFile(clangPackage, 'utf8')) as { version: string }).version;
  const parts: (string | Uint8Array)[] = [clangVersion, JSON.stringify(COMPILE_FLAGS), JSON.stringify(LINK_FLAGS)];
  for (const [dir, files] of Object.entries({ quickjs, glue })) {
    for (const [name, data] of Object.entries(files)) parts.push(`${dir}/${name}`, data);
  }
  return { tree: { quickjs, glue }, units, clangVersion, key: sha256(...parts).slice(0, 24) };
}

type Tree = { [name: string]: Tree | string | Uint8Array };
type RunClang = (args: string[], files: Tree, options: Record<string, unknown>) => Promise<Tree>;

let clangPromise: Promise<RunClang> | undefined;

/** Loads @yowasp/clang once, fetching its resources quietly (its default prints to stdout). */
function loadClang(progress: (m: string) => void): Promise<RunClang> {
  clangPromise ??= (async () => {
    const mod = (await import('@yowasp/clang')) as unknown as { runClang: RunClang & ((a: null, f: Tree, o: object) => Promise<unknown>) };
    let lastTenth = -1;
    await mod.runClang(null, {}, {
      fetchProgress: ({ totalLength, doneLength }: { totalLength: number; doneLength: number }) => {
        const tenth = Math.floor((10 * doneLength) / Math.max(totalLength, 1));
        if (tenth !== lastTenth && tenth % 5 === 0) progress(`loading clang (${tenth * 10}%)`);
        lastTenth = tenth;
      },
    });
    return mod.runClang;
  })();
  return clangPromise;
}

async function clang(runClang: RunClang, args: string[], files: Tree, what: string): Promise<Tree> {
  const chunks: Uint8Array[] = [];
  const capture = (bytes: Uint8Array | null) => {
    if (bytes) chunks.push(new Uint8Array(bytes));
  };
  try {
    return await runClang(['clang', ...args], files, { decodeASCII: false, stdout: capture, stderr: capture });
  } catch (error) {
    const output = Buffer.concat(chunks).toString('utf8').trim();
    throw new BuildError(`engine build: clang failed on ${what}${output ? `:\n${output}` : ''}`, { cause: error });
  }
}

function pick(tree: Tree, path: string): Uint8Array {
  let node: Tree | string | Uint8Array | undefined = tree;
  for (const part of path.split('/')) node = typeof node === 'object' && !(node instanceof Uint8Array) ? node[part] : undefined;
  if (!(node instanceof Uint8Array)) throw new BuildError(`engine build: clang produced no ${path}`);
  return node;
}

/** Writes through a temporary file and a rename, so concurrent builders never see a torn file. */
async function writeAtomic(path: string, data: Uint8Array): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/**
 * Where the engine for the current sources is (or will be) cached, without building it.
 *
 * @example
 * ```ts
 * const path = await engineCachePath(); // <repo>/.cache/engine/engine-<key>.wasm
 * ```
 */
export async function engineCachePath(options: Pick<EngineOptions, 'cacheDir'> = {}): Promise<string> {
  const inputs = await collectInputs();
  return join(cacheRoot(options.cacheDir), 'engine', `engine-${inputs.key}.wasm`);
}

/** Result of {@link buildEngine}. */
export interface EngineBuild {
  wasmPath: string;
  /** Hash of every input (sources, patches, flags, clang version). */
  key: string;
  /** Whether the engine was already in the cache. */
  cached: boolean;
  durationMs: number;
}

/**
 * Builds the engine into the cache unless it is there already. Safe to run
 * from several processes at once: each unit is written atomically and a lock
 * file makes later builders wait for the first instead of compiling again.
 */
export async function buildEngine(options: EngineOptions = {}): Promise<EngineBuild> {
  const started = performance.now();
  const progress = options.onProgress ?? ((m: string) => process.stderr.write(`hookbox: ${m}\n`));
  const root = cacheRoot(options.cacheDir);
  const dir = join(root, 'engine');
  const inputs = await collectInputs();
  const wasmPath = join(dir, `engine-${inputs.key}.wasm`);
  const done = (cached: boolean): EngineBuild => ({ wasmPath, key: inputs.key, cached, durationMs: performance.now() - started });
  // Cached bytes are code: a cache others can write is refused, and an engine is used only as recorded (engine-record.ts).
  refuseForeignEngineCache([root, dir]);
  const packedRecord = join(SHIPPED_ENGINE_DIR, 'engine.json');
  if (existsSync(wasmPath) && checkCachedEngine(wasmPath, inputs.key, packedRecord)) return done(true);

  await mkdir(join(dir, 'obj'), { recursive: true });
  const release = await acquireLock(join(dir, `engine-${inputs.key}.lock`), wasmPath, progress);
  try {
    if (existsSync(wasmPath) && checkCachedEngine(wasmPath, inputs.key, packedRecord)) return done(true);
    progress('building the JS engine (first use; about a minute on 2 cores)');
    const runClang = await loadClang(progress);
    const objects: Record<string, Uint8Array> = {};
    for (const [i, unit] of inputs.units.entries()) {
      const source = inputs.tree[unit.dir][unit.file] as Uint8Array;
      const objKey = sha256(inputs.clangVersion, JSON.stringify(COMPILE_FLAGS), unit.dir, unit.file, source, ...headerParts(inputs));
      const objPath = join(dir, 'obj', `${unit.file.replace(/\.c$/, '')}-${objKey.slice(0, 24)}.o`);
      const objName = `${unit.dir}-${unit.file.replace(/\.c$/, '.o')}`;
      // An object file someone else wrote is compiled again, not linked in.
      if (existsSync(objPath) && cacheProblem(objPath) === undefined) {
        objects[objName] = await readFile(objPath);
        continue;
      }
      progress(`compiling ${unit.dir}/${unit.file} (${i + 1}/${inputs.units.length})`);
      const out = await clang(
        runClang,
        [...COMPILE_FLAGS, '-c', `${unit.dir}/${unit.file}`, '-o', `out/${objName}`],
        { quickjs: inputs.tree.quickjs, glue: inputs.tree.glue, out: {} },
        `${unit.dir}/${unit.file}`,
      );
      objects[objName] = pick(out, `out/${objName}`);
      await writeAtomic(objPath, objects[objName]);
    }
    progress('linking engine.wasm');
    const names = Object.keys(objects).sort();
    const linked = await clang(runClang, [...LINK_FLAGS, ...names.map((n) => `obj/${n}`), '-o', 'out/engine.wasm'], { obj: objects, out: {} }, 'link');
    const wasm = pick(linked, 'out/engine.wasm');
    // The record first: whoever sees the engine sees its record.
    writeEngineRecord(wasmPath, engineRecordOf(inputs.key, wasm));
    await writeAtomic(wasmPath, wasm);
    const result = done(false);
    progress(`engine ready in ${(result.durationMs / 1000).toFixed(1)} s: ${wasmPath}`);
    return result;
  } finally {
    await release();
  }
}

function headerParts(inputs: EngineInputs): (string | Uint8Array)[] {
  const parts: (string | Uint8Array)[] = [];
  for (const [dir, files] of Object.entries(inputs.tree)) {
    for (const [name, data] of Object.entries(files)) if (name.endsWith('.h')) parts.push(`${dir}/${name}`, data);
  }
  return parts;
}

const LOCK_STALE_MS = 10 * 60 * 1000;

/** A lock file created exclusively; a holder that died leaves a stale lock, taken over after 10 minutes. */
async function acquireLock(lockPath: string, wasmPath: string, progress: (m: string) => void): Promise<() => Promise<void>> {
  let announced = false;
  for (;;) {
    try {
      await writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (existsSync(wasmPath)) return async () => {};
    const age = await stat(lockPath).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > LOCK_STALE_MS) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (!announced) progress('waiting for another process building the JS engine');
    announced = true;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The engine's path, building it first if it is not cached (progress on
 * stderr). Called by the compiler and by the test suite's global setup;
 * safe to call concurrently from several processes.
 *
 * @example
 * ```ts
 * const enginePath = await ensureEngine();
 * ```
 */
export async function ensureEngine(options: EngineOptions = {}): Promise<string> {
  if (!IS_CHECKOUT) return shippedEngine();
  return (await buildEngine(options)).wasmPath;
}

/**
 * Copies the engine for the current sources (built or cached) into `dir` as
 * `engine.wasm` + `engine.json`: what `npm pack` ships. Same bytes as the cache.
 */
export async function packEngine(dir: string, options: EngineOptions = {}): Promise<ShippedEngine> {
  const built = await buildEngine(options);
  const bytes = await readFile(built.wasmPath);
  const meta: ShippedEngine = { key: built.key, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  await mkdir(dir, { recursive: true });
  await writeAtomic(join(dir, 'engine.wasm'), bytes);
  await writeAtomic(join(dir, 'engine.json'), new TextEncoder().encode(`${JSON.stringify(meta, null, 2)}\n`));
  return meta;
}

// `tsx pdk/engine/build.ts`: build (or find) the engine and print its path.
// No top-level await: CommonJS callers (tsx -e, require) load this module too.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildEngine().then(
    (result) => process.stdout.write(`${result.wasmPath}${result.cached ? ' (cached)' : ''}\n`),
    (error: unknown) => {
      process.stderr.write(`hookbox: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
