// The `hookbox` CLI as an esbuild bundle (dist/bin/), so a command starts by
// loading a few files instead of resolving and loading hundreds of modules.
// `main.js` is host/cli/main.ts; each command module stays a lazily imported
// chunk (splitting), so `hookbox --help` loads the catalog and commander only.
// The runner's worker is an entry of the same build (`worker.js`), with the
// worker bootstrap and the HTTP helper copied beside it: the runner starts
// both from a path relative to its own module, which is a chunk in dist/bin/.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

/**
 * Left to Node's resolution at run time: packages that locate files beside
 * themselves (native binaries, wasm), TypeScript (9 MB, loaded with `require`
 * on use), and the loader for stale checkouts. (msgpackr is bundled: the host
 * imports its plain-JS entry, `msgpackr/pack`, not the one that probes for a
 * native addon.)
 */
const EXTERNAL = ['typescript', 'esbuild', 'binaryen', '@bytecodealliance/wizer', '@yowasp/clang', 'qjsc', 'tsx'];

/**
 * commander loads `node:child_process` at import, for executable subcommands
 * (`.command(name, description)` run as a separate program), which hookbox
 * has none of. That load cost ~5–9 ms of every start, `--help` included. In
 * the bundle, commander's module gets it on first use instead: the one
 * statement is rewritten, and the build fails if it is not there as expected
 * (a commander release that changed it needs this looked at again).
 */
const LAZY_CHILD_PROCESS = {
  name: 'hookbox-lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const statement = "const childProcess = require('node:child_process');";
      if (source.split(statement).length !== 2 || /childProcess\.(?!spawn\()/.test(source)) {
        return { errors: [{ text: `${args.path}: expected one "${statement}" and childProcess.spawn(...) as its only use` }] };
      }
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(statement, lazy), loader: 'js' };
    });
  },
};

/** Files copied beside the bundle, loaded by path at run time. */
const COPIED = ['host/runner/worker-bootstrap.mjs', 'host/runner/http-helper.mjs'];

/**
 * Bundles the CLI into `outDir`. Returns the project files it was made from
 * (paths relative to `root`, node_modules excluded) for the freshness check,
 * and the output's size.
 */
export async function bundleCli(root, outDir) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: 'host/cli/main.ts', worker: 'host/runner/worker.ts', 'typecheck-worker': 'pdk/compiler/typecheck-worker.ts' },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // ES module builds first (jsonc-parser's UMD main requires its files by computed paths).
    mainFields: ['module', 'main'],
    external: EXTERNAL,
    // Bundled CommonJS dependencies call `require` for Node's built-ins.
    banner: { js: "import { createRequire as __hookboxRequire } from 'node:module'; const require = __hookboxRequire(import.meta.url);" },
    chunkNames: 'chunk-[hash]',
    plugins: [LAZY_CHILD_PROCESS],
    metafile: true,
    logLevel: 'warning',
  });
  for (const file of COPIED) copyFileSync(join(root, file), join(outDir, file.split('/').pop()));
  const inputs = Object.keys(result.metafile.inputs)
    .filter((file) => !file.startsWith('..') && !file.includes('node_modules/'))
    .concat(COPIED)
    .sort();
  const outputs = Object.values(result.metafile.outputs);
  return { inputs, files: outputs.length + COPIED.length, bytes: outputs.reduce((n, o) => n + o.bytes, 0) };
}

