/**
 * Bundles a hook's entry with esbuild into one classic script (iife, ES2020)
 * that QuickJS evaluates at pre-initialization. A generated wrapper imports
 * the entry and publishes its export table as `globalThis.__hookbox_exports`.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { BuildError } from '../../host/errors.ts';

const COLLECT_EXPORTS = join(PACKAGE_ROOT, 'pdk', 'runtime', 'collect-exports.ts');

/**
 * Globals js-pdk provides that come from npm packages, not from the engine: each is injected
 * (esbuild's `inject`) only into a bundle that names it. Injecting adds an init call to every
 * module, which would cost a hook that never uses them ~1 KB of bundle and ~10 KB of snapshot.
 * A free reference to a global is always its name as a word in the code; a mention in a string
 * only costs the size.
 */
const BUILD_GLOBALS = [
  { name: /\bBuffer\b/, module: join(PACKAGE_ROOT, 'pdk', 'runtime', 'buffer-global.ts') },
  { name: /\bURLPattern\b/, module: join(PACKAGE_ROOT, 'pdk', 'runtime', 'urlpattern-global.ts') },
];

/**
 * `buffer`, `buffer/` and `node:buffer` are hookbox's Buffer module (pdk/runtime/buffer.ts, the npm
 * `buffer` package with `base64url`), the same one behind the injected `Buffer` global
 * (buffer-global.ts): a dependency's `require('buffer')` gets the class the hook sees. Marked free
 * of side effects, so that only what uses it keeps it.
 */
const BUFFER_MODULE = join(PACKAGE_ROOT, 'pdk', 'runtime', 'buffer.ts');
function bufferPlugin(): esbuild.Plugin {
  return {
    name: 'hookbox-buffer',
    setup(build) {
      build.onResolve({ filter: /^(node:)?buffer\/?$/ }, () => ({ path: BUFFER_MODULE, sideEffects: false }));
      build.onResolve({ filter: /^buffer\/index\.js$/ }, async (args) => {
        if (args.importer !== BUFFER_MODULE) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'hookbox-buffer' });
        return { ...found, sideEffects: false };
      });
    },
  };
}

/** The bundle and its source map (sources relative to `mapDir`). */
export interface HookBundle {
  code: string;
  map: string;
  mapDir: string;
}

function location(message: esbuild.Message, workDir: string): string {
  const loc = message.location;
  return loc ? `${resolve(workDir, loc.file)}:${loc.line}:${loc.column + 1}: ` : '';
}

/**
 * esbuild marks each module with a `// relative/path.ts` comment. Through a
 * symlinked dependency (a hook project's `node_modules/hookbox`) that path
 * depends on where the checkout lives, and the bundle ends up in the
 * snapshot: keep only the file name, on the same line, so that builds stay
 * byte-identical across machines and line numbers still match the map.
 */
function stripPathComments(code: string): string {
  return code.replace(/^(\s*)\/\/ (?:[^\s/]*\/)+([^\s/]+\.[cm]?[jt]sx?)$/gm, '$1// $2');
}

/** The namespace of files loaded as CommonJS whatever their package's `"type"` says (see {@link commonJsPlugin}). */
export const CJS_NAMESPACE = 'hookbox-cjs';

/**
 * js-pdk plugins are CommonJS (`module.exports = { greet }`), and inside a
 * `"type": "module"` package esbuild takes such a `.js` file for ESM, leaving
 * `module` an undefined global. The files esbuild warned about are loaded
 * from a namespace of their own, where no package.json applies and esbuild
 * sees their syntax for what it is. Paths stay relative to `workDir` so that
 * the bundle does not depend on where it was built.
 */
function commonJsPlugin(files: ReadonlySet<string>, workDir: string): esbuild.Plugin {
  return {
    name: 'hookbox-commonjs',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === CJS_NAMESPACE || args.namespace === CJS_NAMESPACE && args.kind === 'entry-point') return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: CJS_NAMESPACE });
        if (resolved.errors.length > 0 || !files.has(resolved.path)) return resolved;
        return { path: relative(workDir, resolved.path).split('\\').join('/'), namespace: CJS_NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: CJS_NAMESPACE }, async (args) => {
        const file = resolve(workDir, args.path);
        return { contents: await readFile(file, 'utf8'), loader: 'js', resolveDir: dirname(file) };
      });
    },
  };
}

/** Bundles `entry` (absolute path); esbuild errors become one BuildError naming file:line:col. */
export async function bundleHook(entry: string, prologue = ''): Promise<HookBundle> {
  const workDir = dirname(entry);
  const first = await bundleOnce(entry, { commonJs: new Set(), prologue, inject: [] });
  // Files that use `module`/`exports` although their package says ESM: bundle again, loading them as CommonJS.
  const commonJs = new Set(
    first.warnings.filter((w) => w.id === 'commonjs-variable-in-esm' && w.location).map((w) => resolve(workDir, (w.location as esbuild.Location).file)),
  );
  const inject = BUILD_GLOBALS.filter(({ name }) => name.test(first.bundle.code)).map(({ module }) => module);
  return commonJs.size === 0 && inject.length === 0 ? first.bundle : (await bundleOnce(entry, { commonJs, prologue, inject })).bundle;
}

/**
 * `prologue`: script run before the entry is evaluated (host-functions.ts's table). It is the
 * bundle's banner, not a statement of the wrapper: imports are hoisted, so a statement before
 * `import * as entry` would run after the entry's top level (where js-pdk's own examples call
 * `Host.getFunctions()`).
 */
async function bundleOnce(
  entry: string,
  { commonJs, prologue, inject }: { commonJs: ReadonlySet<string>; prologue: string; inject: readonly string[] },
): Promise<{ bundle: HookBundle; warnings: esbuild.Message[] }> {
  const workDir = dirname(entry);
  const importPath = (path: string) => JSON.stringify(`./${relative(workDir, path).split('\\').join('/')}`);
  const wrapper =
    `import * as entry from ${importPath(entry)};\n` +
    `import { collectExports } from ${importPath(COLLECT_EXPORTS)};\n` +
    `globalThis.__hookbox_exports = collectExports(entry);\n`;
  try {
    const result = await esbuild.build({
      plugins: [bufferPlugin(), ...(commonJs.size === 0 ? [] : [commonJsPlugin(commonJs, workDir)])],
      ...(inject.length > 0 && { inject: [...inject] }),
      stdin: { contents: wrapper, resolveDir: workDir, sourcefile: '<hookbox-entry>', loader: 'js' },
      // Relative paths in comments and the map: the bundle must not depend on where it was built from.
      absWorkingDir: workDir,
      bundle: true,
      ...(prologue !== '' && { banner: { js: prologue } }),
      // `hookbox/…` is the PDK of the hookbox that builds (the same files through a project's node_modules/hookbox,
      // and found when the hook project does not install hookbox itself, e.g. under a global install).
      alias: { hookbox: PACKAGE_ROOT },
      format: 'iife',
      target: 'es2020',
      platform: 'neutral',
      // A package's browser build before its Node one: the engine is a web-like sandbox with no Node
      // built-ins (react-dom/server's Node build needs `stream` and `util`, its browser build nothing).
      // esbuild adds `import` or `require` by how each module is imported: `require('buffer-crc32')`
      // must get the package's CommonJS build, not its ESM one (whose default export it would miss).
      mainFields: ['browser', 'module', 'main'],
      conditions: ['browser'],
      // Libraries branch on it (React picks its production build); the engine has no `process`.
      define: { 'process.env.NODE_ENV': '"production"' },
      outfile: join(workDir, 'hook.js'),
      sourcemap: 'external',
      sourcesContent: false,
      legalComments: 'none',
      charset: 'utf8',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
    if (!code || !map) throw new BuildError(`esbuild produced no bundle for ${entry}`);
    return { bundle: { code: stripPathComments(code.text), map: map.text, mapDir: workDir }, warnings: result.warnings };
  } catch (error) {
    if (error instanceof BuildError) throw error;
    const failure = error as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw new BuildError(`bundling ${entry} failed`, { cause: error });
    const lines = failure.errors.map((m) => `${location(m, workDir)}${m.text}`);
    throw new BuildError(`bundling failed:\n${lines.join('\n')}`, { cause: error });
  }
}
