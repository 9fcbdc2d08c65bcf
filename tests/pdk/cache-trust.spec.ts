// Caches are code (host/cache-trust.ts, pdk/compiler/code-cache.ts, pdk/engine/engine-record.ts):
// `hookbox build` in fresh processes against real cache folders. V8 takes a code cache made for
// any script of the same source length, so a forged TypeScript cache runs its author's code in the
// build: here the forged cache writes a marker file when V8 runs it. Such a cache is read only from
// a 0700 folder of the user's own, from a file the user owns; the JS engine only from a cache no one
// else can write, and only as its recorded digest says.
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheRoot } from '../../pdk/engine/build.ts';
import { skipUnless } from '../helpers/skips.ts';
import { tempDir, writeHookSource } from './support.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(REPO, 'host', 'cli', 'hookbox.mjs');
/** Several `hookbox build` processes in one test: each starts Node and TypeScript, ~40 s apiece at load 18. */
const CLI_BUILDS_TIMEOUT = 300_000;
const FINE = `import { defineHook, deny } from PDK;\nexport default defineHook({\n  preTool: (p) => (p.toolName === 'bash' ? deny('no shell') : undefined),\n});\n`;
const NOBODY = 65534;
const notRoot = process.getuid?.() === 0 ? undefined : 'a cache file of another owner is made with chown, which needs root';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup?.());

interface Build {
  readonly code: number;
  readonly stderr: string;
}

/** `hookbox build` in a fresh process with its own cache root. */
function cliBuild(cache: string, entry: string, out: string): Promise<Build> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, 'build', entry, '-o', out, '--json'], { env: { ...process.env, HOOKBOX_CACHE_DIR: cache, NODE_OPTIONS: '' }, timeout: 120_000 }, (error, _stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr });
    });
  });
}

/** A cache root of its own: the built engine linked in (or copied, to change it), TypeScript's cache written by a first build. */
async function cacheRootWithTypescript(name: string, engine: 'link' | 'copy' = 'link'): Promise<{ cache: string; entry: string; v8cache: string }> {
  const cache = join(dir, name);
  mkdirSync(cache);
  if (engine === 'link') symlinkSync(join(cacheRoot(), 'engine'), join(cache, 'engine'));
  else {
    mkdirSync(join(cache, 'engine'));
    for (const file of readdirSync(join(cacheRoot(), 'engine')).filter((f) => /^engine-[0-9a-f]+\.(wasm|json)$/.test(f))) copyFileSync(join(cacheRoot(), 'engine', file), join(cache, 'engine', file));
  }
  const entry = await writeHookSource(dir, `${name}-hook`, FINE);
  const first = await cliBuild(cache, entry, join(dir, `${name}-first`, 'hook.wasm'));
  expect(first.code, first.stderr).toBe(0);
  const [file] = readdirSync(join(cache, 'typescript'));
  return { cache, entry, v8cache: join(cache, 'typescript', file as string) };
}

/**
 * A V8 code cache for a script of typescript.js's length that writes `marker` when run: V8 checks a
 * cache's source by its length, so it accepts this one for TypeScript (what the issue found).
 */
function forgeCache(v8cache: string, marker: string): void {
  const source = readFileSync(createRequireResolve('typescript'), 'latin1');
  const head = '(function (exports, require, module, __filename, __dirname) {';
  const payload = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'forged cache ran');/*`;
  const padding = source.length - payload.length - 2;
  const script = new Script(`${head}${payload}${' '.repeat(padding)}*/\n})`);
  expect(script.runInThisContext()).toBeTypeOf('function');
  writeFileSync(v8cache, script.createCachedData());
}

function createRequireResolve(name: string): string {
  return fileURLToPath(import.meta.resolve(name));
}

describe('TypeScript\'s V8 code cache is used only from the user\'s own private folder', () => {
  it('a group-writable cache folder is bypassed with one line on stderr; the build is still right and the forged cache never runs', async () => {
    const { cache, entry, v8cache } = await cacheRootWithTypescript('group-writable');
    const marker = join(dir, 'group-writable-ran');
    forgeCache(v8cache, marker);
    chmodSync(join(cache, 'typescript'), 0o775);
    const out = join(dir, 'group-writable-out', 'hook.wasm');
    const build = await cliBuild(cache, entry, out);
    expect(existsSync(marker), 'the forged cache ran in the build').toBe(false);
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr).toContain(`hookbox: the V8 code cache is bypassed (the file is compiled): ${join(cache, 'typescript')} is writable by its group (mode 0775)\n`);
    expect(readFileSync(out).subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
  }, CLI_BUILDS_TIMEOUT);

  it.skipIf(skipUnless('a forged cache file of another owner', notRoot))('a cache file another user owns is not read (the forged code never runs), and the folder is made 0700', async () => {
    const { cache, entry, v8cache } = await cacheRootWithTypescript('other-owner');
    const marker = join(dir, 'other-owner-ran');
    forgeCache(v8cache, marker);
    chownSync(v8cache, NOBODY, NOBODY);
    const build = await cliBuild(cache, entry, join(dir, 'other-owner-out', 'hook.wasm'));
    expect(existsSync(marker), 'the forged cache ran in the build').toBe(false);
    expect(build.code, build.stderr).toBe(0);
    expect(statSync(join(cache, 'typescript')).mode & 0o777).toBe(0o700);
    expect(build.stderr).toContain(`${v8cache} is owned by uid ${NOBODY}, not by this user (uid 0)`);
    // Not rewritten either: the file stays the other user's.
    expect(statSync(v8cache).uid).toBe(NOBODY);
  }, CLI_BUILDS_TIMEOUT);
});

describe('the JS engine is used only from a cache of the user\'s own, as its recorded digest says', () => {
  it('a changed engine byte is refused, naming the file', async () => {
    const { cache, entry } = await cacheRootWithTypescript('engine-byte', 'copy');
    const wasm = readdirSync(join(cache, 'engine')).find((f) => f.endsWith('.wasm'))!;
    const wasmPath = join(cache, 'engine', wasm);
    expect(existsSync(wasmPath.replace(/\.wasm$/, '.json'))).toBe(true);
    const bytes = readFileSync(wasmPath);
    const at = bytes.length - 100;
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    writeFileSync(wasmPath, bytes);
    const build = await cliBuild(cache, entry, join(dir, 'engine-byte-out', 'hook.wasm'));
    expect(build.code).not.toBe(0);
    expect(build.stderr).toMatch(new RegExp(`${wasmPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: sha256 [0-9a-f]{64} \\(\\d+ bytes\\) does not match the [0-9a-f]{64} \\(\\d+ bytes\\) recorded in .*engine-[0-9a-f]+\\.json: the cached JS engine was changed`));
    expect(existsSync(join(dir, 'engine-byte-out'))).toBe(false);
  }, CLI_BUILDS_TIMEOUT);

  it.skipIf(skipUnless('an engine of another owner', notRoot))('an engine another user owns, or a group-writable engine folder, is refused, naming it', async () => {
    const { cache, entry } = await cacheRootWithTypescript('engine-owner', 'copy');
    const wasmPath = join(cache, 'engine', readdirSync(join(cache, 'engine')).find((f) => f.endsWith('.wasm'))!);
    chownSync(wasmPath, NOBODY, NOBODY);
    const owned = await cliBuild(cache, entry, join(dir, 'engine-owner-out', 'hook.wasm'));
    expect(owned.code).not.toBe(0);
    expect(owned.stderr).toContain(`${wasmPath} is owned by uid ${NOBODY}, not by this user (uid 0): hookbox builds every hook on the cached JS engine`);
    chownSync(wasmPath, 0, 0);
    chmodSync(join(cache, 'engine'), 0o777);
    const writable = await cliBuild(cache, entry, join(dir, 'engine-owner-out', 'hook.wasm'));
    expect(writable.code).not.toBe(0);
    expect(writable.stderr).toContain(`${join(cache, 'engine')} is writable by its group (mode 0777)`);
  }, CLI_BUILDS_TIMEOUT);
});
