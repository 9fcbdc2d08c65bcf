// The engine's patched builtins (quickjs-patches.ts: RegExp#test without the
// exec result, ^-anchored patterns tried once, species arrays without a
// constructor call) answer exactly as V8 does, and its msgpack encoder tells
// binary values from plain objects without probing by exception.
import createPlugin from '@extism/extism';
import { unpack } from 'msgpackr';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCases } from './fixtures/engine-builtins/cases.js';
import { FIXTURES, buildInto, tempDir } from './support.ts';

type Plugin = Awaited<ReturnType<typeof createPlugin>>;

describe('engine builtins', () => {
  let plugin: Plugin;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    const built = await buildInto(temp.dir, join(FIXTURES, 'engine-builtins', 'index.js'), 'engine-builtins');
    plugin = await createPlugin({ wasm: [{ data: new Uint8Array(await readFile(built.wasmPath)) }] }, { useWasi: true, runInWorker: false, logLevel: 'silent' });
  });

  afterAll(async () => {
    try {
      await plugin?.close();
    } finally {
      await cleanup?.();
    }
  });

  it('RegExp#test/exec and species-created arrays match V8 (anchors, flags, lastIndex, own exec, Array[Symbol.species])', async () => {
    const output = await plugin.call('cases', '');
    const inEngine = JSON.parse(output?.text() ?? 'null') as unknown[];
    const inV8 = JSON.parse(JSON.stringify(builtinCases())) as unknown[];
    expect(inEngine.length).toBe(inV8.length);
    expect(inEngine).toEqual(inV8);
  });

  it('the msgpack encoder writes ArrayBuffers and typed arrays as bin, other objects as maps', async () => {
    const output = await plugin.call('binary', '');
    expect(unpack(output?.bytes() ?? new Uint8Array())).toEqual({
      buffer: new Uint8Array([9, 8, 7]),
      view: new Uint8Array([2, 3, 4]),
      wide: new Uint8Array([2, 1]),
      dataView: {},
      list: [1, { nested: 'x' }, new Uint8Array(0)],
      date: {},
    });
  });
});
