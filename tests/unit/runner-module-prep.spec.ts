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

  it('renames in the one copy it makes, whatever else is rewritten: grow probe, memory cap, or nothing', async () => {
    const variant = (memory: string, body: string) => `(module
      (import "env" "before" (func))
      (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
      (memory (export "memory") ${memory})
      (func (export "_initialize") ${body})
      (func (export "pre_tool") (result i32) (i32.const 0)))`;
    const cases = [
      { name: 'grow probe and cap', source: variant('1', '(drop (memory.grow (i32.const 1)))'), growProbe: true, max: 16 },
      { name: 'grow probe only', source: variant('1 4', '(drop (memory.grow (i32.const 1)))'), growProbe: true, max: 4 },
      { name: 'cap only', source: variant('1', ''), growProbe: false, max: 16 },
      { name: 'nothing', source: variant('1 4', ''), growProbe: false, max: 4 },
    ];
    for (const { name, source, growProbe, max } of cases) {
      const bytes = await compileWatSource(source);
      const prepared = prep(bytes, 1);
      expect(prepared, name).toMatchObject({ wasi: true, init: true, growProbe, memory: { min: 1, max } });
      expect(prepared.bytes, name).not.toBe(bytes);
      const module = new moduleApi(prepared.bytes);
      expect(moduleApi.imports(module).map((i) => `${i.module} ${i.name}`), name).toEqual(['env before', `${WASI_HOST_MODULE} fd_write`]);
      expect(moduleApi.exports(module).map((e) => e.name).slice(0, 3), name).toEqual(['memory', INIT_EXPORT, 'pre_tool']);
      expect(bytes, name).toEqual(await compileWatSource(source)); // the input is never modified in place
    }
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

describe('what prepareModule reports', () => {
  it('lists seam exports, every function export, the memory export and the input reservation', async () => {
    const bytes = await compileWatSource(`(module
      (memory (export "memory") 1 1)
      (global (export "pre_tool") i32 (i32.const 0))
      (func (export "post_tool") (result i32) (i32.const 0))
      (func (export "session_start") (result i32) (i32.const 0))
      (func (export "helper") (result i32) (i32.const 0))
      (func (export "hookbox_input_reserve") (param i32) (result i32) (local.get 0)))`);
    const prepared = prep(bytes, 1);
    // Only function exports name seams (the global "pre_tool" does not). The order is the module's
    // export order, although PreparedModule's doc says lifecycle order (a mismatch between the doc and the code, kept visible here).
    expect([...prepared.seamExports].sort()).toEqual(['agent/session-start', 'tools/post-execute']);
    expect(prepared.functionExports).toEqual(['post_tool', 'session_start', 'helper', 'hookbox_input_reserve']);
    expect(prepared).toMatchObject({ exportsMemory: true, inputReserve: true, growProbe: false, wasi: false, init: false });
    expect(prepared.bytes).toBe(bytes); // nothing to change: the very same bytes
  });

  it('a memory not exported as "memory", a reservation that is not a function, no memory at all', async () => {
    const other = prep(await compileWatSource('(module (memory (export "mem") 1 1) (global (export "hookbox_input_reserve") i32 (i32.const 0)))'));
    expect(other).toMatchObject({ exportsMemory: false, inputReserve: false, memory: { min: 1, max: 1 } });
    const none = prep(await compileWatSource('(module (func (export "pre_tool") (result i32) (i32.const 0)))'));
    expect(none.memory).toBeUndefined();
    expect(none.seamExports).toEqual(['tools/pre-execute']);
  });

  it('instruments memory.grow and says so; the declared maximum is written as a multi-byte LEB', async () => {
    const bytes = await compileWatSource('(module (memory 1) (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))');
    const prepared = prep(bytes, 64);
    expect(prepared.growProbe).toBe(true);
    expect(prepared.memory).toEqual({ min: 1, max: 1024 });
    const layout = parseWasm(prepared.bytes);
    expect(layout.memories).toEqual([{ flags: 1, min: 1, max: 1024, shared: false, memory64: false }]);
    expect(layout.exports.map((e) => e.name)).toEqual(['grow', 'hookbox_grow_failed']);
    new moduleApi(prepared.bytes);
  });

  it('accepts an initial memory exactly at the cap, and names pages and MiB when above it', () => {
    expect(prep(memoryOnly(0x00, 16), 1).memory).toEqual({ min: 16, max: 16 });
    expect(() => prep(memoryOnly(0x00, 17), 1)).toThrow(
      new HookLoadError('x.wasm: declares an initial memory of 17 pages (1.1 MiB), above the 1 MiB cap (memoryMb)'),
    );
  });

  it('refuses two memories and an imported memory with messages naming the file and the import', async () => {
    const two = Uint8Array.from([...WASM_HEADER, ...encodeSection(SectionId.memory, [2, 0x00, 1, 0x00, 1])]);
    expect(() => prep(two)).toThrow(new HookLoadError('x.wasm: defines 2 memories; hookbox supports one'));
    const imported = await compileWat('imported-memory');
    expect(() => prep(imported)).toThrow(/^x\.wasm: imports its memory \("env" "memory"\); hookbox only runs modules that define their own memory, so it can be capped$/);
    expect(() => prep(memoryOnly(0x03, 1, 2))).toThrow(new HookLoadError('x.wasm: declares a shared memory; hookbox refuses shared memories'));
    expect(() => prep(memoryOnly(0x04, 1))).toThrow(new HookLoadError('x.wasm: declares a 64-bit or custom-page-size memory; hookbox supports 32-bit memories only'));
  });

  it('renames only the WASI entry points that are functions, and leaves non-WASI imports alone', async () => {
    const bytes = await compileWatSource(`(module
      (import "wasi_snapshot_preview1" "sched_yield" (func (result i32)))
      (import "extism:host/env" "length" (func (param i64) (result i64)))
      (memory (export "memory") 1)
      (global (export "_start") i32 (i32.const 0))
      (func (export "pre_tool") (result i32) (i32.const 0)))`);
    const prepared = prep(bytes);
    const layout = parseWasm(prepared.bytes);
    expect(layout.imports.map((i) => i.module)).toEqual([WASI_HOST_MODULE, 'extism:host/env']);
    expect(layout.exports.map((e) => e.name)).toEqual(['memory', '_start', 'pre_tool']);
    expect(prepared.init).toBe(false);
  });
});

describe('inspectWasm', () => {
  it('reports exports with kinds, only function exports as seams, and the memory as declared', async () => {
    const bytes = await compileWatSource(`(module
      (memory (export "memory") 2)
      (global (export "post_tool") i32 (i32.const 0))
      (func (export "pre_tool") (result i32) (i32.const 0)))`);
    const report = inspectWasm(bytes, 'x.wasm');
    expect(report.exports).toEqual([
      { name: 'memory', kind: 'memory' },
      { name: 'post_tool', kind: 'global' },
      { name: 'pre_tool', kind: 'function' },
    ]);
    expect(report.seams).toEqual(['tools/pre-execute']);
    expect(report.memory).toEqual({ min: 2, max: null, imported: false, shared: false });
    expect(report.imports).toEqual([]);
    expect(report.hasStartFunction).toBe(false);
    const { createHash } = await import('node:crypto');
    expect(report.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('reports no memory as null, an imported one as imported, and names the file for bytes that are not a module', async () => {
    expect(inspectWasm(await compileWatSource('(module)'), 'x.wasm').memory).toBeNull();
    expect(inspectWasm(await compileWat('imported-memory'), 'i.wasm').memory).toEqual({ min: 1, max: 16, imported: true, shared: false });
    expect(inspectWasm(memoryOnly(0x03, 1, 4), 's.wasm').memory).toEqual({ min: 1, max: 4, imported: false, shared: true });
    expect(() => inspectWasm(Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7]), 'bad.wasm')).toThrow(
      new HookLoadError('bad.wasm: not a valid WebAssembly module: not a WebAssembly module (bad magic number)'),
    );
  });
});
