// The engine's string search (patched in quickjs-patches.ts to scan for the
// first character) answers exactly as V8 does.
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchCases } from './fixtures/string-search/cases.js';
import { FIXTURES, buildInto, tempDir } from './support.ts';

describe('String#indexOf, #lastIndexOf, #includes in the engine', () => {
  it('match V8 on empty needles, positions out of range, repeats and two-byte text', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const built = await buildInto(dir, join(FIXTURES, 'string-search', 'index.js'), 'string-search');
      const plugin = await createPlugin({ wasm: [{ data: new Uint8Array(await readFile(built.wasmPath)) }] }, { useWasi: true, runInWorker: false, logLevel: 'silent' });
      try {
        const output = await plugin.call('search', '');
        const inEngine = JSON.parse(output?.text() ?? 'null') as number[];
        const inV8 = searchCases();
        expect(inEngine.length).toBe(inV8.length);
        expect(inEngine).toEqual(inV8);
      } finally {
        await plugin.close();
      }
    } finally {
      await cleanup();
    }
  });
});
