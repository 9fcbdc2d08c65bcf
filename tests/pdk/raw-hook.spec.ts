// An extism-js style plugin (exported functions over the js-pdk globals,
// returning 0) compiles unchanged into a plain Extism plugin. Its non-seam
// exports are called through the Extism SDK directly; its seam export
// through the host's runner.
import createPlugin, { type Plugin } from '@extism/extism';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../host/runner/index.ts';
import type { BuildHookResult } from '../../pdk/compiler/index.ts';
import { EXTISM_KERNEL } from '../../pdk/compiler/host-stub.ts';
import { RAW_ENTRY, SESSION, bash, buildInto, tempDir, wasmApi } from './support.ts';

let built: BuildHookResult;
let wasm: Uint8Array;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  built = await buildInto(tmp.dir, RAW_ENTRY, 'raw');
  wasm = new Uint8Array(await readFile(built.wasmPath));
});

afterAll(() => cleanup?.());

async function withPlugin<T>(run: (plugin: Plugin, logs: string[]) => Promise<T>): Promise<T> {
  const logs: string[] = [];
  const logger = {
    info: (m: string) => logs.push(`info ${m}`),
    warn: (m: string) => logs.push(`warn ${m}`),
    error: (m: string) => logs.push(`error ${m}`),
    debug: (m: string) => logs.push(`debug ${m}`),
    trace: () => {},
    log: () => {},
  } as unknown as Console;
  const plugin = await createPlugin(
    { wasm: [{ data: wasm }], config: { greeting: 'hey' } },
    { useWasi: true, runInWorker: false, logger, logLevel: 'debug' },
  );
  try {
    return await run(plugin, logs);
  } finally {
    await plugin.close();
  }
}

describe('an extism-js style plugin', () => {
  it('keeps every exported function as a wasm export and imports only Extism and WASI', () => {
    expect(built.exports).toEqual(['code', 'fail', 'greet', 'pre_tool', 'surface']);
    expect(built.seams).toEqual(['tools/pre-execute']);
    const module = new wasmApi.Module(wasm);
    const importModules = new Set(wasmApi.Module.imports(module).map((i) => i.module));
    expect([...importModules].sort()).toEqual(['extism:host/env', 'wasi_snapshot_preview1']);
    const exportNames = wasmApi.Module.exports(module).map((e) => e.name);
    expect(exportNames).not.toContain('__hookbox_call');
    expect(exportNames).not.toContain('wizer.initialize');
  });

  it('serves Host input/output strings', async () => {
    const out = await withPlugin((plugin) => plugin.call('greet', 'world'));
    expect(out?.text()).toBe('Hello, world!');
  });

  it('serves Config, Var, console levels, TextEncoder/Decoder and base64', async () => {
    await withPlugin(async (plugin, logs) => {
      const first = (await plugin.call('surface', new Uint8Array([9, 9, 9, 9])))?.json() as Record<string, unknown>;
      expect(first).toEqual({
        inputLength: 4,
        count: 1,
        bytes: [1, 2, 3],
        missing: null,
        config: 'hey',
        text: 'héllo ✓',
        b64: 'aG9va2JveA==',
        back: 'hookbox',
      });
      const second = (await plugin.call('surface', ''))?.json() as { count: number };
      expect(second.count).toBe(2);
      expect(logs.slice(0, 4)).toEqual(['info log line', 'warn warn line', 'error error line', 'debug debug line']);
    });
  });

  it('turns a throw into an Extism error with the JS message', async () => {
    await withPlugin(async (plugin) => {
      await expect(plugin.call('fail', '')).rejects.toThrow(/TypeError: raw failure/);
      expect((await plugin.call('greet', 'again'))?.text()).toBe('Hello, again!');
    });
  });

  it("returns the function's return value as the export's i32 code", async () => {
    // The SDK discards export codes (the host's runner checks them), so call the export bare,
    // with a kernel that answers every host call with "nothing".
    const kernel: Record<string, () => unknown> = {};
    for (const [name, [, results]] of Object.entries(EXTISM_KERNEL)) kernel[name] = () => (results[0] === 0x7e ? 0n : 0);
    const wasi = new Proxy({}, { get: () => () => 0 });
    const { instance } = await wasmApi.instantiate(wasm, { 'extism:host/env': kernel, wasi_snapshot_preview1: wasi });
    expect((instance.exports.code as () => number)()).toBe(7);
    expect((instance.exports.fail as () => number)()).toBe(1); // a throw: error_set, then a non-zero code
  });

  it('serves a seam through the host runner', async () => {
    const runner = await HookRunner.start({ workers: 1 });
    try {
      const hook = await runner.load({ name: 'raw', wasm: built.wasmPath, sha256: built.sha256 });
      try {
        const outcome = await hook.invoke({ seam: 'tools/pre-execute', payload: bash('ls'), next: { action: 'allow' }, session: SESSION });
        expect(outcome).toEqual({ type: 'decision', decision: { action: 'allow' } });
      } finally {
        await hook.close();
      }
    } finally {
      await runner.close();
    }
  });
});
