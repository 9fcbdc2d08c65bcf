// The engine cache: keyed by its inputs, reused, and shared safely between
// processes (a second builder waits on the first one's lock instead of compiling).
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCachePath, ensureEngine } from '../../pdk/engine/build.ts';
import { tempDir, wasmApi } from './support.ts';

let dir: string;
let cleanup: () => Promise<void>;
let builtEngine: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  builtEngine = await ensureEngine({ onProgress: () => {} });
});
afterAll(() => cleanup?.());

describe('engine cache', () => {
  it('is a wasm reactor exporting the call entry point, the host-function dispatch, the bulk-input reservation and Wizer init, importing only Extism and WASI', async () => {
    const module = new wasmApi.Module(new Uint8Array(await readFile(builtEngine)));
    // `__hookbox_host_dispatch` is rewritten for plugins that declare host functions and dropped from the others.
    expect(wasmApi.Module.exports(module).map((e) => e.name).sort()).toEqual(['__hookbox_call', '__hookbox_host_dispatch', 'hookbox_input_reserve', 'memory', 'wizer.initialize']);
    expect([...new Set(wasmApi.Module.imports(module).map((i) => i.module))].sort()).toEqual(['extism:host/env', 'wasi_snapshot_preview1']);
    expect(basename(builtEngine)).toMatch(/^engine-[0-9a-f]{24}\.wasm$/);
    expect(await engineCachePath()).toBe(builtEngine);
  });

  it('waits for another process holding the build lock instead of building again', async () => {
    const target = await engineCachePath({ cacheDir: dir });
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target.replace(/\.wasm$/, '.lock'), '99999');
    const progress: string[] = [];
    let firstMessage!: (message: string) => void;
    const first = new Promise<string>((resolve) => (firstMessage = resolve));
    const waiting = ensureEngine({
      cacheDir: dir,
      onProgress: (m) => {
        progress.push(m);
        firstMessage(m);
      },
    });
    // The other builder finishes only once this one has said it waits on the
    // lock, so the test always takes the waiting path (never a cache hit).
    expect(await first).toBe('waiting for another process building the JS engine');
    await copyFile(builtEngine, `${target}.tmp`);
    await rename(`${target}.tmp`, target); // what the other builder does when it finishes
    expect(await waiting).toBe(target);
    expect(progress).toEqual(['waiting for another process building the JS engine']);
    expect(join(dir, 'engine', basename(target))).toBe(target);
  }, 30_000);
});
