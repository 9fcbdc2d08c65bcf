// Which file TypeScript's code cache goes to (pdk/compiler/typescript.ts): V8 refuses a cache made
// under other V8 flags, so each set of Node options has its own file; the code of `node -e`, which
// sets no flag, does not make one. Each load runs in a fresh process, as a build does.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
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

const TYPESCRIPT = pathToFileURL(join(import.meta.dirname, '..', '..', 'pdk', 'compiler', 'typescript.ts')).href;

/** Loads TypeScript through the code cache under `cacheDir` in a fresh process with `flags`, and saves the cache. */
async function loadAndSave(cacheDir: string, flags: string[], tag: string): Promise<void> {
  const script =
    `// ${tag}\n` +
    `const ts = await import(${JSON.stringify(TYPESCRIPT)});\n` +
    `ts.useTypescriptCodeCache(${JSON.stringify(cacheDir)});\n` +
    `ts.typescript();\n` +
    `ts.saveTypescriptCodeCache();\n`;
  await promisify(execFile)(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 60_000,
  });
}

describe("TypeScript's code cache file", () => {
  it('is one per set of Node options, whatever script `node -e` runs', async () => {
    const cacheDir = join(dir, 'cache-root');
    await loadAndSave(cacheDir, [], 'first script');
    const files = readdirSync(join(cacheDir, 'typescript'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^typescript-.*-node-v\d+.*-flags-[0-9a-f]{12}\.v8cache$/);

    await loadAndSave(cacheDir, [], 'another script');
    expect(readdirSync(join(cacheDir, 'typescript'))).toEqual(files);

    await loadAndSave(cacheDir, ['--max-old-space-size=3000'], 'first script');
    expect(readdirSync(join(cacheDir, 'typescript'))).toHaveLength(2);
  });
});
