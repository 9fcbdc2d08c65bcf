// The V8 code cache the compiler loads TypeScript through (pdk/compiler/code-cache.ts):
// a real CommonJS file run with real V8 cached data. A missing, corrupt or stale
// cache costs a normal compile and is rewritten; it never changes what the file does.
// Each load runs in a fresh process, as a build does: within one process V8's own
// compilation cache answers a second compile of the same source before the data is read.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support.ts';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup?.());

/** A CommonJS module that uses what `require` gives a file: its own require, module, __filename, __dirname. */
function writeModule(name: string, answer: number): string {
  const file = join(dir, name, 'mod.cjs');
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(
    file,
    `const path = require('node:path');\nfunction answer() { return ${answer}; }\nmodule.exports = { answer, file: __filename, dir: __dirname, base: path.basename(__filename), self: this === module.exports };\n`,
  );
  return file;
}

interface Loaded {
  status: string;
  answer: number;
  file: string;
  dir: string;
  base: string;
  self: boolean;
}

const CODE_CACHE = pathToFileURL(join(import.meta.dirname, '..', '..', 'pdk', 'compiler', 'code-cache.ts')).href;

/** Loads `file` with the cache in a fresh Node process (saving the cache after if `save`); what it saw. */
async function load(file: string, cacheFile: string, save = false): Promise<Loaded> {
  const script =
    `const { requireWithCodeCache } = await import(${JSON.stringify(CODE_CACHE)});\n` +
    `const loaded = requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheFile)});\n` +
    `const { answer, ...rest } = loaded.exports;\n` +
    `${save ? 'loaded.save();' : ''}\n` +
    `console.log(JSON.stringify({ status: loaded.status, answer: answer(), ...rest }));\n`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
  return JSON.parse(stdout) as Loaded;
}

describe('requireWithCodeCache', () => {
  it('runs the file as require would, and serves the next process from the cache it saved', async () => {
    const file = writeModule('plain', 42);
    const cacheFile = join(dir, 'plain-cache', 'mod.v8cache');
    const first = await load(file, cacheFile, true);
    expect(first).toEqual({ status: 'miss', answer: 42, file, dir: join(dir, 'plain'), base: 'mod.cjs', self: true });
    expect(statSync(cacheFile).size).toBeGreaterThan(0);
    expect(await load(file, cacheFile)).toMatchObject({ status: 'hit', answer: 42 });
  });

  it('ignores a corrupt cache (V8 rejects it), still runs the file, and rewrites it', async () => {
    const file = writeModule('corrupt', 7);
    const cacheFile = join(dir, 'corrupt.v8cache');
    await load(file, cacheFile, true);
    const garbage = Buffer.alloc(statSync(cacheFile).size, 0x5a);
    writeFileSync(cacheFile, garbage);

    expect(await load(file, cacheFile, true)).toMatchObject({ status: 'rejected', answer: 7 });
    expect(readFileSync(cacheFile).equals(garbage)).toBe(false);
    expect(await load(file, cacheFile)).toMatchObject({ status: 'hit', answer: 7 });
  });

  it('rejects the cache of another source: an edited file runs as edited', async () => {
    const file = writeModule('edited', 1);
    const cacheFile = join(dir, 'edited.v8cache');
    await load(file, cacheFile, true);
    writeModule('edited', 1234567);
    expect(await load(file, cacheFile)).toMatchObject({ status: 'rejected', answer: 1234567 });
  });

  it('reads a UTF-8 file as require does: a leading BOM dropped, other text intact', async () => {
    const file = join(dir, 'utf8.cjs');
    writeFileSync(file, `\ufeffmodule.exports = { answer: () => 5, text: 'héllo ✓ 𝄞', first: require('node:fs').readFileSync(__filename, 'utf8').codePointAt(0) };\n`);
    const loaded = await load(file, join(dir, 'utf8.v8cache'));
    expect(loaded).toMatchObject({ status: 'miss', answer: 5, text: 'héllo ✓ 𝄞', first: 0xfeff });
  });

  it('a cache it cannot write costs nothing but the time', async () => {
    const file = writeModule('readonly', 3);
    // A regular file where the cache's directory should be: mkdir and write both fail.
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, '');
    expect(await load(file, join(blocker, 'sub', 'mod.v8cache'), true)).toMatchObject({ status: 'miss', answer: 3 });
  });
});
