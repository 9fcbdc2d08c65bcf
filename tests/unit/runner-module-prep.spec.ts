import { describe, expect, it } from 'vitest';
import { HookLoadError } from '../../host/errors.ts';
import { inspectWasm } from '../../host/runner/inspect.ts';
import { prepareModule } from '../../host/runner/module-prep.ts';
import { RC_GLOBAL, buildRcWrapper } from '../../host/runner/rc-wrapper.ts';
import { WASI_OVERRIDE_MODULE, wasiOverrideFunctions } from '../../host/runner/wasi-override.ts';
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

const prep = (bytes: Uint8Array, memoryMb = 1, extra: { clock?: boolean; env?: boolean } = {}) =>
  prepareModule(bytes, { memoryMb, clock: extra.clock ?? false, env: extra.env ?? false, source: 'x.wasm' });

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

describe('WASI import overrides', () => {
  const wasi = `(module
    (import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))
    (import "wasi_snapshot_preview1" "environ_get" (func (param i32 i32) (result i32)))
    (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
    (memory (export "memory") 1 1))`;

  it('renames the clock unless granted, and the environment only when granted', async () => {
    const bytes = await compileWatSource(wasi);
    const modules = (p: ReturnType<typeof prep>) => moduleApi.imports(new moduleApi(p.bytes)).map((i) => `${i.module} ${i.name}`);
    const plain = prep(bytes);
    expect(modules(plain)).toEqual([
      `${WASI_OVERRIDE_MODULE} clock_time_get`,
      'wasi_snapshot_preview1 environ_get',
      'wasi_snapshot_preview1 fd_write',
    ]);
    expect(plain).toMatchObject({ needsWasi: true, needsOverride: true });
    expect(modules(prep(bytes, 1, { clock: true, env: true }))).toEqual([
      'wasi_snapshot_preview1 clock_time_get',
      `${WASI_OVERRIDE_MODULE} environ_get`,
      'wasi_snapshot_preview1 fd_write',
    ]);
    expect(bytes).toEqual(await compileWatSource(wasi)); // the input is never modified in place
  });

  it('serves the clock as ENOTCAPABLE and only granted variables', () => {
    const memory = { buffer: new ArrayBuffer(65_536) };
    const fns = wasiOverrideFunctions({ env: { ONLY: 'this' }, memory: () => memory });
    expect(fns.clock_time_get?.(null, 0, 0n, 8)).toBe(76);
    const view = new DataView(memory.buffer);
    expect(view.getBigUint64(8, true)).toBe(0n);
    expect(fns.environ_sizes_get?.(null, 0, 4)).toBe(0);
    expect([view.getUint32(0, true), view.getUint32(4, true)]).toEqual([1, 'ONLY=this\0'.length]);
    expect(fns.environ_get?.(null, 100, 200)).toBe(0);
    expect(view.getUint32(100, true)).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(memory.buffer, 200, 10))).toBe('ONLY=this\0');
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
