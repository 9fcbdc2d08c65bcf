import { describe, expect, it } from 'vitest';
import { HookLoadError } from '../../host/errors.ts';
import { inspectWasm } from '../../host/runner/inspect.ts';
import { prepareModule } from '../../host/runner/module-prep.ts';
import { RC_GLOBAL, buildRcWrapper } from '../../host/runner/rc-wrapper.ts';
import { INIT_EXPORT, START_EXPORT, WASI_HOST_MODULE } from '../../host/runner/wasi/index.ts';
import { SectionId, WASM_HEADER, encodeSection, parseWasm } from '../../host/runner/wasm-binary.ts';
import { compileWat, compileWatSource } from '../helpers/wat.ts';

const moduleApi = (globalThis as unknown as {
  WebAssembly: {
    Module: (new (bytes: Uint8Array) => WebAssembly.Module) & {
      imports(m: WebAssembly.Module): { module: string; name: string; kind: string }[];
      exports(m: WebAssembly.Module): { name: string; kind: string }[];
    };
  };
}).WebAssembly.Module;

const prep = (bytes: Uint8Array, memoryMb = 1) => prepareModule(bytes, { memoryMb, source: 'x.wasm' });

function memoryOnly(flags: number, min: number, max?: number): Uint8Array {
  const content = [1, flags, min, ...(max === undefined ? [] : [max])];
  const section = encodeSection(SectionId.memory, content);
  return Uint8Array.from([...WASM_HEADER, ...section]);
}

describe('memory cap rewrite', () => {
  it('gives a module without a maximum the cap as its maximum', async () => {
    const prepared = prep(await compileWat('no-memory-max'), 2);
    expect(prepared.memory).toEqual({ min: 1, max: 32 });
    expect(parseWasm(prepared.bytes).memories[0]).toMatchObject({ min: 1, max: 32 });
    new moduleApi(prepared.bytes); // still a valid module
  });

  it('lowers a maximum above the cap and keeps one below it', async () => {
    expect(prep(await compileWat('memory-bomb'), 4).memory).toEqual({ min: 1, max: 64 });
    const small = await compileWatSource('(module (memory 1 4))');
    const prepared = prep(small, 4);
    expect(prepared.memory).toEqual({ min: 1, max: 4 });
    expect(prepared.bytes).toBe(small);
  });

  it('refuses an initial memory above the cap, a shared memory, a 64-bit memory and an imported memory', async () => {
    expect(() => prep(memoryOnly(0x00, 32), 1)).toThrow(/x\.wasm: declares an initial memory of 32 pages .* above the 1 MiB cap/);
    expect(() => prep(memoryOnly(0x03, 1, 2), 1)).toThrow(/shared memory/);
    expect(() => prep(memoryOnly(0x04, 1), 1)).toThrow(/64-bit/);
    const imported = await compileWat('imported-memory');
    expect(() => prep(imported, 1)).toThrow(HookLoadError);
    expect(() => prep(Uint8Array.from([1, 2, 3]), 1)).toThrow(/x\.wasm: not a valid WebAssembly module: not a WebAssembly module/);
  });
});

describe('WASI imports go to hookbox\'s own WASI', () => {
  const wasi = `(module
    (import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))
    (import "wasi_snapshot_preview1" "environ_get" (func (param i32 i32) (result i32)))
    (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
    (memory (export "memory") 1)
    (func (export "_initialize"))
    (func (export "_start"))
    (func (export "pre_tool") (result i32) (i32.const 0)))`;

  it('renames every WASI import, _initialize and _start in place, and caps the memory after', async () => {
    const bytes = await compileWatSource(wasi);
    const prepared = prep(bytes, 1);
    const module = new moduleApi(prepared.bytes);
    expect(moduleApi.imports(module).map((i) => `${i.module} ${i.name}`)).toEqual([
      `${WASI_HOST_MODULE} clock_time_get`,
      `${WASI_HOST_MODULE} environ_get`,
      `${WASI_HOST_MODULE} fd_write`,
    ]);
    expect(moduleApi.exports(module).map((e) => e.name)).toEqual(['memory', INIT_EXPORT, START_EXPORT, 'pre_tool']);
    expect(prepared).toMatchObject({ wasi: true, init: true, memory: { min: 1, max: 16 } });
    expect(bytes).toEqual(await compileWatSource(wasi)); // the input is never modified in place
  });

  it('leaves modules without WASI alone, and refuses a WASI module without an exported memory', async () => {
    const plain = prep(await compileWat('allow'));
    expect(plain).toMatchObject({ wasi: false, init: false });
    const noMemory = await compileWatSource('(module (import "wasi_snapshot_preview1" "sched_yield" (func (result i32))) (memory 1 1))');
    expect(() => prep(noMemory)).toThrow(/x\.wasm: imports WASI but exports no "memory"/);
  });
});

describe('return-code wrapper and inspect', () => {
  it('builds a valid wrapper exporting each seam export, the rc global and the memory', () => {
    const module = new moduleApi(buildRcWrapper(['pre_tool', 'post_tool'], true));
    expect(moduleApi.exports(module)).toEqual([
      { name: 'pre_tool', kind: 'function' },
      { name: 'post_tool', kind: 'function' },
      { name: RC_GLOBAL, kind: 'global' },
      { name: 'memory', kind: 'memory' },
    ]);
    expect(moduleApi.imports(module).map((i) => i.name)).toEqual(['pre_tool', 'post_tool', 'memory']);
    const withInit = new moduleApi(buildRcWrapper(['pre_tool'], true, true));
    expect(moduleApi.exports(withInit).map((e) => e.name)).toEqual(['pre_tool', RC_GLOBAL, INIT_EXPORT, 'memory']);
    expect(moduleApi.imports(withInit).map((i) => i.name)).toEqual(['pre_tool', INIT_EXPORT, 'memory']);
  });

  it('inspect reports seams, imports, memory limits, sha256 and size', async () => {
    const bytes = await compileWat('missing-export');
    const report = inspectWasm(bytes, 'missing-export.wasm');
    expect(report.seams).toEqual(['tools/post-execute']);
    expect(report.sizeBytes).toBe(bytes.byteLength);
    expect(report.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.imports.every((i) => i.module === 'extism:host/env')).toBe(true);
    expect(report.memory).toMatchObject({ imported: false, shared: false });
    expect(inspectWasm(await compileWat('imported-memory'), 'i.wasm').memory).toMatchObject({ min: 1, max: 16, imported: true });
    expect(inspectWasm(await compileWat('start-never-returns'), 's.wasm').hasStartFunction).toBe(true);
  });
});
