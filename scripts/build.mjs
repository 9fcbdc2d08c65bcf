#!/usr/bin/env node
// `npm run build` (also run by `prepare` and `prepack`). Three outputs, the
// first two built side by side:
// - dist/host, dist/pdk: host/ and pdk/ compiled by tsc (JS + .d.ts), the
//   package's library entries (`hookbox`, `hookbox/pdk`) and pdk/testing.mjs;
//   the worker bootstrap and the HTTP helper copied beside the compiled worker.
// - dist/bin: the `hookbox` CLI bundled by esbuild (./bundle-cli.mjs), what
//   host/cli/hookbox.mjs runs: one file per command instead of hundreds.
// - dist/catalog/: the built-in policies — one module holding every policy's rules (policies.wasm,
//   from examples-hooks/policies/hook.ts) and a <name>/hook.json per policy pointing at it, built with
//   the compiled PDK compiler once the engine is packed; the package ships them.
// - dist/engine: the JS engine for hooks (engine.wasm + engine.json, its key and
//   sha256), compiled from npm packages into .cache/ on first use and copied
//   here, so an installed package never compiles it (pdk/engine/build.ts).
// Then dist/.build-stamp: the time the build started and the source files the
// bundle was made from, which host/fresh-build.mjs compares with the
// sources' mtimes to never run a stale build.
// Everything is built into dist.next/ and swapped in at the end, so a process
// running from dist/ meanwhile (a test, a server) never finds half a build.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';
import { buildNative } from './build-native.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const startedAt = Date.now();
const dist = join(root, 'dist.next');

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = new Promise((resolve) => {
  spawn(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', dist], { stdio: 'inherit' }).on('close', (code) => resolve(code ?? 1));
});
const bin = await bundleCli(root, join(dist, 'bin'));
const status = await compiled;
if (status !== 0) process.exit(status);

const { packEngine } = await import(new URL('../dist.next/pdk/engine/build.js', import.meta.url).href);
const engine = await packEngine(join(dist, 'engine'), { onProgress: (m) => console.log(`engine: ${m}`) });

// The catalog's policies, one module for all (examples-hooks/policies/hook.ts), compiled here so an installed package never compiles them.
const { buildHook } = await import(new URL('../dist.next/pdk/compiler/index.js', import.meta.url).href);
const { CATALOG, CATALOG_WASM } = await import(new URL('../dist.next/host/catalog/index.js', import.meta.url).href);
const { writeCatalogManifests } = await import(new URL('../dist.next/host/config/catalog-manifests.js', import.meta.url).href);
await buildHook({ entry: join(root, 'examples-hooks', 'policies', 'hook.ts'), outFile: join(dist, 'catalog', CATALOG_WASM) });
writeCatalogManifests(join(dist, 'catalog'), CATALOG);

mkdirSync(join(dist, 'host', 'runner'), { recursive: true });
copyFileSync(join(root, 'host', 'runner', 'worker-bootstrap.mjs'), join(dist, 'host', 'runner', 'worker-bootstrap.mjs'));
copyFileSync(join(root, 'host', 'runner', 'http-helper.mjs'), join(dist, 'host', 'runner', 'http-helper.mjs'));
buildNative(root, dist);
writeFileSync(join(dist, '.build-stamp'), `${JSON.stringify({ startedAt, binInputs: bin.inputs })}\n`);
const live = join(root, 'dist');
const old = join(root, 'dist.old');
rmSync(old, { recursive: true, force: true });
if (existsSync(live)) renameSync(live, old);
renameSync(dist, live);
rmSync(old, { recursive: true, force: true });
console.log(
  `built dist/ in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (the CLI bundle: ${bin.files} files, ${(bin.bytes / 1024).toFixed(0)} KiB; ` +
    `the engine: ${(engine.bytes / 1024).toFixed(0)} KiB, sha256 ${engine.sha256.slice(0, 12)}…)`,
);
