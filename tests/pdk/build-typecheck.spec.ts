// The type-check runs on a worker thread beside the rest of the build
// (pdk/compiler/typecheck-thread.ts): its errors still fail the build with
// file:line:col, before any other error, and nothing is written; concurrent
// builds share the thread; `hookbox build` keeps TypeScript's code cache
// under the cache root and survives a corrupt one.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../host/errors.ts';
import { cacheRoot } from '../../pdk/engine/build.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { tempDir, writeHookSource } from './support.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(REPO, 'host', 'cli', 'hookbox.mjs');
/** Two or three `hookbox build` processes in one test: each starts Node and TypeScript, ~40 s apiece at load 18. */
const CLI_BUILDS_TIMEOUT = 300_000;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup?.());

const hookSource = (name: string, source: string): Promise<string> => writeHookSource(dir, name, source);

const TYPE_ERROR = `import { defineHook, deny } from PDK;\nexport default defineHook({\n  preTool: (p) => deny(p.toolName.length),\n});\n`;
const FINE = `import { defineHook, deny } from PDK;\nexport default defineHook({\n  preTool: (p) => (p.toolName === 'bash' ? deny('no shell') : undefined),\n});\n`;

async function failure(build: Promise<unknown>): Promise<Error> {
  const error = await build.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BuildError);
  return error as Error;
}

describe('buildHook with the type-check thread', () => {
  it('fails on a type error with file:line:col and writes nothing, not even the output directory', async () => {
    const entry = await hookSource('type-error', TYPE_ERROR);
    const outDir = join(dir, 'out-type-error');
    const error = await failure(buildHook({ entry, outFile: join(outDir, 'hook.wasm') }));
    expect(error.message).toMatch(/^type errors:\n/);
    expect(error.message).toContain(`${entry}:3:24: error TS2345`);
    expect(existsSync(outDir)).toBe(false);
  });

  it('reports the type error first when a later step fails too', async () => {
    // `VERSION` is not a function (pre-initialization fails on it) and is a number passed as a string.
    const entry = await hookSource('both', `export function pre_tool() { return 0; }\nexport const VERSION: number = 'three';\n`);
    const error = await failure(buildHook({ entry, outFile: join(dir, 'out-both', 'hook.wasm') }));
    expect(error.message).toContain(`${entry}:2:14: error TS2322`);
    expect(error.message).not.toContain('is not a function');
  });

  it('builds a hook with a type error when asked not to check', async () => {
    const entry = await hookSource('unchecked', TYPE_ERROR);
    const built = await buildHook({ entry, outFile: join(dir, 'out-unchecked', 'hook.wasm'), typecheck: false });
    expect(built.exports).toContain('pre_tool');
    expect(existsSync(built.wasmPath)).toBe(true);
  });

  it('gives concurrent builds each their own outcome', async () => {
    const bad = await hookSource('concurrent-bad', TYPE_ERROR);
    const good = await hookSource('concurrent-good', FINE);
    const [failed, built, failedAgain] = await Promise.allSettled([
      buildHook({ entry: bad, outFile: join(dir, 'out-c1', 'hook.wasm') }),
      buildHook({ entry: good, outFile: join(dir, 'out-c2', 'hook.wasm') }),
      buildHook({ entry: bad, outFile: join(dir, 'out-c3', 'hook.wasm') }),
    ]);
    expect(failed.status === 'rejected' && String(failed.reason)).toContain(`${bad}:3:24`);
    expect(built.status === 'fulfilled' && built.value.seams).toEqual(['tools/pre-execute']);
    expect(failedAgain.status === 'rejected' && String(failedAgain.reason)).toContain(`${bad}:3:24`);
    expect(existsSync(join(dir, 'out-c1'))).toBe(false);
    expect(existsSync(join(dir, 'out-c3'))).toBe(false);
  });
});

describe('`hookbox build` and the TypeScript code cache', () => {
  /** `hookbox build` in a fresh process, with a cache root of its own that shares the built engine. */
  async function cliBuild(cache: string, entry: string, out: string, nodeOptions = process.env.NODE_OPTIONS): Promise<void> {
    await promisify(execFile)(process.execPath, [BIN, 'build', entry, '-o', out, '--json'], {
      env: { ...process.env, HOOKBOX_CACHE_DIR: cache, NODE_OPTIONS: nodeOptions ?? '' },
      timeout: 120_000,
    });
  }

  /** A cache root of its own that shares the built engine. */
  async function cacheRootWithEngine(name: string): Promise<string> {
    const cache = join(dir, name);
    await mkdir(cache);
    symlinkSync(join(cacheRoot(), 'engine'), join(cache, 'engine'));
    return cache;
  }

  it('writes the cache on the first build, and a corrupt cache is ignored and rewritten', async () => {
    const cache = await cacheRootWithEngine('cache-root');
    const entry = await hookSource('cli-cache', FINE);

    await cliBuild(cache, entry, join(dir, 'out-cli-1', 'hook.wasm'));
    const files = readdirSync(join(cache, 'typescript'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^typescript-.*-node-v\d+.*\.v8cache$/);
    const cacheFile = join(cache, 'typescript', files[0] as string);
    const garbage = Buffer.alloc(readFileSync(cacheFile).length, 0x5a);
    writeFileSync(cacheFile, garbage);

    await cliBuild(cache, entry, join(dir, 'out-cli-2', 'hook.wasm'));
    expect(existsSync(join(dir, 'out-cli-2', 'hook.wasm'))).toBe(true);
    expect(readFileSync(cacheFile).equals(garbage)).toBe(false);
    expect(readdirSync(join(cache, 'typescript'))).toEqual(files);
  }, CLI_BUILDS_TIMEOUT);

  it('keeps one cache per set of Node options, so that a build under other V8 flags does not spoil the usual one', async () => {
    const cache = await cacheRootWithEngine('cache-root-flags');
    const entry = await hookSource('cli-cache-flags', FINE);
    await cliBuild(cache, entry, join(dir, 'out-flags-1', 'hook.wasm'));
    const [usual] = readdirSync(join(cache, 'typescript'));
    const usualFile = join(cache, 'typescript', usual as string);
    const written = statSync(usualFile);

    // V8 refuses a cache made under other flags; a refused cache is rewritten after the check.
    const flagged = `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=3000`.trim();
    await cliBuild(cache, entry, join(dir, 'out-flags-2', 'hook.wasm'), flagged);
    await cliBuild(cache, entry, join(dir, 'out-flags-3', 'hook.wasm'));
    expect(readdirSync(join(cache, 'typescript'))).toHaveLength(2);
    // Neither the flagged build nor the next usual one (served from it) rewrote the usual cache.
    const after = statSync(usualFile);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  }, CLI_BUILDS_TIMEOUT);
});
