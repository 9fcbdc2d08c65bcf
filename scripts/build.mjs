#!/usr/bin/env node
// `npm run build` (also run by `prepare` and `prepack`): compiles host/ and
// pdk/ to dist/ (JS + .d.ts), copies the worker bootstrap beside the compiled
// worker, and writes dist/.build-stamp — the time the build started — which
// host/cli/hookbox.mjs compares with the sources' mtimes to never run a stale
// build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const startedAt = Date.now();

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

mkdirSync(join(dist, 'host', 'runner'), { recursive: true });
copyFileSync(join(root, 'host', 'runner', 'worker-bootstrap.mjs'), join(dist, 'host', 'runner', 'worker-bootstrap.mjs'));
copyFileSync(join(root, 'host', 'runner', 'http-helper.mjs'), join(dist, 'host', 'runner', 'http-helper.mjs'));
writeFileSync(join(dist, '.build-stamp'), `${JSON.stringify({ startedAt })}\n`);
console.log(`built dist/ in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
