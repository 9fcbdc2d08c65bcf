/**
 * `buildHook`: TypeScript/JavaScript hook source → a plain Extism plugin.
 *
 * type-check (TypeScript API) → bundle (esbuild, iife, ES2020) → pre-
 * initialize the QuickJS engine with the bundle (Wizer) → add one wasm export
 * per hook function (add-exports.ts) → write the wasm and `hook.json` beside it.
 * The output imports only `extism:host/env` and `wasi_snapshot_preview1`,
 * and the same source always gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { BuildError } from '../../host/errors.ts';
import { seamForExport, type SeamId } from '../../host/seams/index.ts';
import { ensureEngine } from '../engine/build.ts';
import { addExports } from './add-exports.ts';
import { addHostFunctions, hostFunctionTable } from './host-functions.ts';
import { checkDeclaredExports, pluginInterfaceFiles, readPluginInterface, type PluginInterface } from './plugin-interface.ts';
import { bundleHook } from './bundle.ts';
import { locateExport } from './locate-export.ts';
import { writeManifest } from './manifest.ts';
import { type HookRequests, readHookRequests } from './hook-requests.ts';
import { preinitialize } from './preinit.ts';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { typecheckOnThread } from './typecheck-thread.ts';
import { SOURCE_MAP_SECTION } from '../../host/runner/source-map.ts';
import { SIGNAL_FUNCTION } from '../../host/runner/signal-calls.ts';
import { portableSourceMap, withCustomSection } from './source-map.ts';

/** The PDK's TypeScript sources (they ship beside dist/, and esbuild bundles them into each hook). */
const PDK_DIR = join(PACKAGE_ROOT, 'pdk');

/** Options of {@link buildHook}. */
export interface BuildHookOptions {
  /** The hook's entry file (`.ts` or `.js`), whose exports become wasm exports. */
  entry: string;
  /** Where to write the wasm; default `<entry dir>/dist/<entry name>.wasm`. `hook.json` goes beside it. */
  outFile?: string;
  /** Type-check before bundling (default true). */
  typecheck?: boolean;
  /** Progress lines (engine build, steps); default: silent. */
  onProgress?: (message: string) => void;
  /** Cache root for the engine (default `$HOOKBOX_CACHE_DIR` or `<repo>/.cache`). */
  cacheDir?: string;
}

/** What {@link buildHook} produced. */
export interface BuildHookResult {
  wasmPath: string;
  /** `hook.json` beside the wasm; `undefined` when the module exports no seam (a plain Extism plugin). */
  manifestPath: string | undefined;
  /** Hex sha256 of the wasm bytes (also pinned in hook.json). */
  sha256: string;
  /** Wasm export names, in order. */
  exports: string[];
  /** Seams handled (exports named after a seam). */
  seams: SeamId[];
  sizeBytes: number;
}

/**
 * Builds a hook. Errors are `BuildError`s whose message names file and line:
 * TypeScript errors, bundling errors, an export that is not a function, a
 * top-level throw during pre-initialization.
 *
 * @example
 * ```ts
 * const { wasmPath, seams } = await buildHook({ entry: 'examples-hooks/guard-bash/hook.ts' });
 * // seams: ['tools/pre-execute']
 * ```
 */
export async function buildHook(options: BuildHookOptions): Promise<BuildHookResult> {
  const entry = resolve(options.entry);
  if (!existsSync(entry)) throw new BuildError(`no such file: ${entry}`);
  const progress = options.onProgress ?? (() => {});
  const wasmPath = resolve(options.outFile ?? join(dirname(entry), 'dist', `${basename(entry, extname(entry))}.wasm`));

  // The check runs on its own thread while this one builds; nothing is written until it passed.
  const checked = options.typecheck === false ? undefined : typecheckOnThread(entry, pluginInterfaceFiles(entry), options.cacheDir);
  checked?.catch(() => {}); // awaited below, after the main path, whichever fails first
  if (checked) progress('type-checking');
  const plugin = readPluginInterface(entry);
  const compiled = compile(entry, plugin, options.cacheDir, progress).then((result) => {
    // Progress as steps (bench/pdk.ts times them): what is left of the check is a step of its own.
    if (checked) progress('awaiting the type-check');
    return result;
  });
  // Reading the requests loads TypeScript on this thread (~1 s on a loaded 2-core machine): done
  // while esbuild and Wizer, which are processes of their own, work.
  const requested = new Promise<HookRequests>((resolvePromise, reject) =>
    setImmediate(() => {
      try {
        resolvePromise(readHookRequests(entry));
      } catch (error) {
        reject(error as Error);
      }
    }),
  );
  const [check, built, requests] = await Promise.allSettled([checked, compiled, requested]);
  // A type error explains a failure further down (an export that is not a function…): it comes first.
  if (check.status === 'rejected') throw check.reason;
  if (built.status === 'rejected') throw built.reason;
  if (requests.status === 'rejected') throw requests.reason;
  const { wasm, exportNames } = built.value;

  const sha256 = createHash('sha256').update(wasm).digest('hex');
  await mkdir(dirname(wasmPath), { recursive: true });
  const tmp = `${wasmPath}.${process.pid}.tmp`;
  await writeFile(tmp, wasm);
  await rename(tmp, wasmPath);

  const seams = exportNames.map(seamForExport).filter((s): s is SeamId => s !== undefined);
  const manifestPath = seams.length > 0 ? await writeManifest({ entry, wasmPath, sha256, seams, requests: requests.value }) : undefined;
  return { wasmPath, manifestPath, sha256, exports: exportNames, seams, sizeBytes: wasm.length };
}

/** Bundle, pre-initialize and add the exports: the wasm to write, and its export names. */
async function compile(entry: string, declared: PluginInterface, cacheDir: string | undefined, progress: (m: string) => void): Promise<{ wasm: Uint8Array; exportNames: string[] }> {
  const enginePath = await ensureEngine({ cacheDir, onProgress: progress });
  let plugin = declared;
  progress('bundling');
  let bundle = await bundleHook(entry, plugin.hostFunctions.length > 0 ? hostFunctionTable(plugin.hostFunctions) : '');
  // A hook whose bundle kept the PDK's signal() (tree-shaking drops it otherwise) imports the host's signal function.
  if (new RegExp(`["'\`]${SIGNAL_FUNCTION}["'\`]`).test(bundle.code) && !plugin.hostFunctions.some((fn) => fn.name === SIGNAL_FUNCTION)) {
    plugin = { ...plugin, hostFunctions: [...plugin.hostFunctions, { name: SIGNAL_FUNCTION, params: ['i64'], result: 'i64' }] };
    bundle = await bundleHook(entry, hostFunctionTable(plugin.hostFunctions));
  }
  progress('pre-initializing');
  const snapshot = await preinitialize(enginePath, bundle, PDK_DIR).catch((error: unknown) => {
    throw withExportLocation(error, entry);
  });
  checkDeclaredExports(plugin, snapshot.exportNames);
  progress('adding exports');
  let wasm = addExports(snapshot.wasm, snapshot.exportNames, { keepHostDispatch: plugin.hostFunctions.length > 0 });
  if (plugin.hostFunctions.length > 0) {
    progress(`adding ${plugin.hostFunctions.length} host function import(s)`);
    wasm = await addHostFunctions(wasm, plugin.hostFunctions);
  }
  // The host maps a plugin error's `hook.js:LINE` frames back to the author's files with it.
  wasm = withCustomSection(wasm, SOURCE_MAP_SECTION, portableSourceMap(bundle.map));
  return { wasm, exportNames: snapshot.exportNames };
}

/** An error about one export ("not a function", …) names where the entry declares it. */
function withExportLocation(error: unknown, entry: string): unknown {
  if (!(error instanceof BuildError)) return error;
  const name = /export "([^"]+)" (?:\(CommonJS: module.exports\) )?(?:is not|clashes)/.exec(error.message)?.[1];
  const where = name === undefined ? undefined : locateExport(entry, name);
  if (where === undefined) return error;
  const detail = error.message.replace(/^pre-initialization failed: /, '').split('\n')[0];
  return new BuildError(`${where}: ${detail}`, { cause: error });
}
