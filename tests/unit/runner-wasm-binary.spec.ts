/**
 * The runner's own reader and writer of the wasm binary format
 * (wasm-binary.ts): exact offsets, LEB128 both ways, every import and export
 * kind, memory limit flags, and a clear `WasmFormatError` for each way bytes
 * can fail to be a module. The memory-cap rewrite and the WASI renames
 * depend on these offsets being exact.
 */
import { describe, expect, it } from 'vitest';
import {
  Reader,
  SectionId,
  WASM_HEADER,
  WASM_PAGE_BYTES,
  WasmFormatError,
  encodeName,
  encodeSection,
  fileBytes,
  leb,
  parseWasm,
  replaceSection,
} from '../../host/runner/wasm-binary.ts';
import { compileWatSource } from '../helpers/wat.ts';

const module = (...sections: Uint8Array[]): Uint8Array => Uint8Array.from([...WASM_HEADER, ...sections.flatMap((s) => [...s])]);
const text = (bytes: Uint8Array, offset: number, length: number): string => new TextDecoder().decode(bytes.subarray(offset, offset + length));

describe('LEB128', () => {
  it('encodes unsigned values past 32 bits, and the reader reads them back', () => {
    expect(leb(0)).toEqual([0]);
    expect(leb(127)).toEqual([0x7f]);
    expect(leb(128)).toEqual([0x80, 0x01]);
    expect(leb(300)).toEqual([0xac, 0x02]);
    expect(leb(16_384)).toEqual([0x80, 0x80, 0x01]);
    expect(leb(2 ** 32 - 1)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
    for (const value of [0, 1, 127, 128, 65_536, 2 ** 32 - 1, 2 ** 40 + 3, 2 ** 53 - 1]) {
      const bytes = Uint8Array.from(leb(value));
      const reader = new Reader(bytes, 0, bytes.length);
      expect(reader.leb()).toBe(value);
      expect(reader.offset).toBe(bytes.length);
    }
  });

  it('refuses a LEB128 longer than 10 bytes and a read past its limit, naming the byte', () => {
    const long = new Uint8Array(11).fill(0x80);
    expect(() => new Reader(long, 0, 11).leb()).toThrow(new WasmFormatError('LEB128 too long at byte 10'));
    const tenth = Uint8Array.from([...new Uint8Array(9).fill(0x80), 0x01]);
    expect(new Reader(tenth, 0, 10).leb()).toBe(128 ** 9);
    expect(() => new Reader(Uint8Array.from([0x80, 0x80]), 0, 2).leb()).toThrow(new WasmFormatError('unexpected end of data at byte 2'));
    // The limit, not the array's end, bounds a reader.
    expect(() => new Reader(Uint8Array.from([1, 2, 3]), 1, 2).leb()).not.toThrow();
    const bounded = new Reader(Uint8Array.from([1, 2, 3]), 2, 2);
    expect(() => bounded.byte()).toThrow(/unexpected end of data at byte 2/);
  });

  it('encodes names as length + UTF-8, and sections as id + size + content', () => {
    expect(encodeName('aé')).toEqual([3, 0x61, 0xc3, 0xa9]);
    expect([...encodeSection(7, [1, 2, 3])]).toEqual([7, 3, 1, 2, 3]);
    const big = new Uint8Array(200).fill(9);
    const section = encodeSection(0, big);
    expect([...section.subarray(0, 3)]).toEqual([0, 0xc8, 0x01]);
    expect(section.length).toBe(203);
    expect(WASM_HEADER).toEqual([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    expect(WASM_PAGE_BYTES).toBe(65_536);
  });
});

describe('parseWasm', () => {
  it('finds each section with exact offsets, imports and exports of every kind with their name offsets, and the start section', async () => {
    const bytes = await compileWatSource(
      `(module
        (import "env" "f" (func $f))
        (import "env" "t" (table 1 2 funcref))
        (import "env\\c3\\a9" "m" (memory 1 3))
        (import "env" "g" (global (mut i32)))
        (import "env" "tag" (tag))
        (global $own i32 (i32.const 1))
        (func $main)
        (start $main)
        (export "run" (func $main))
        (export "tbl" (table 0))
        (export "mem" (memory 0))
        (export "glob" (global $own))
        (export "tg" (tag 0)))`,
      'kinds.wat',
      { exceptions: true },
    );
    const layout = parseWasm(bytes);
    expect(layout.imports.map(({ module, name, kind }) => `${module} ${name} ${kind}`)).toEqual([
      'env f function',
      'env t table',
      'envé m memory',
      'env g global',
      'env tag tag',
    ]);
    for (const entry of layout.imports) expect(text(bytes, entry.moduleOffset, new TextEncoder().encode(entry.module).length)).toBe(entry.module);
    expect(layout.imports[2]?.memory).toEqual({ flags: 1, min: 1, max: 3, shared: false, memory64: false });
    expect(layout.imports[0]?.memory).toBeUndefined();
    expect(layout.exports.map(({ name, kind }) => `${name} ${kind}`)).toEqual(['run function', 'tbl table', 'mem memory', 'glob global', 'tg tag']);
    for (const entry of layout.exports) expect(text(bytes, entry.nameOffset, entry.name.length)).toBe(entry.name);
    expect(layout.hasStart).toBe(true);
    expect(layout.memories).toEqual([]);
    // Sections tile the module exactly: each starts where the last ended, content after the id and size.
    let at = 8;
    for (const section of layout.sections) {
      expect(section.start).toBe(at);
      expect(bytes[section.start]).toBe(section.id);
      const size = new Reader(bytes, section.start + 1, bytes.length);
      expect(size.offset + 0).toBe(section.start + 1);
      expect(size.leb()).toBe(section.end - section.contentStart);
      expect(size.offset).toBe(section.contentStart);
      at = section.end;
    }
    expect(at).toBe(bytes.length);
    expect(layout.sections.map((s) => s.id)).toEqual([SectionId.type, SectionId.import, SectionId.function, SectionId.global, SectionId.export, SectionId.start, SectionId.code]);
  });

  it('reads memory limits: no maximum, maximum, shared, 64-bit and custom page size flags', () => {
    const memories = (...entries: number[][]) => parseWasm(module(encodeSection(SectionId.memory, [entries.length, ...entries.flat()]))).memories;
    expect(memories([0x00, 2])).toEqual([{ flags: 0, min: 2, max: undefined, shared: false, memory64: false }]);
    expect(memories([0x01, 1, 0x80, 0x02])).toEqual([{ flags: 1, min: 1, max: 256, shared: false, memory64: false }]);
    expect(memories([0x03, 1, 2])[0]).toMatchObject({ shared: true, memory64: false, max: 2 });
    expect(memories([0x04, 1])[0]).toMatchObject({ shared: false, memory64: true });
    // Custom page size (flag 8): its log2 is read and the memory counts as one hookbox refuses.
    expect(memories([0x08, 1, 0], [0x00, 5])).toEqual([
      { flags: 8, min: 1, max: undefined, shared: false, memory64: true },
      { flags: 0, min: 5, max: undefined, shared: false, memory64: false },
    ]);
    expect(() => memories([0x10, 1])).toThrow(new WasmFormatError('unknown limits flags 0x10'));
  });

  it('names what is wrong with bytes that are not a module', () => {
    expect(() => parseWasm(Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0]))).toThrow(new WasmFormatError('not a WebAssembly module (bad magic number)'));
    expect(() => parseWasm(Uint8Array.from([0, 0x61, 0x73, 0x6e, 1, 0, 0, 0]))).toThrow(/bad magic number/);
    expect(() => parseWasm(Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 1]))).toThrow(new WasmFormatError('unsupported WebAssembly binary version'));
    expect(() => parseWasm(Uint8Array.from([0, 0x61, 0x73, 0x6d, 2, 0, 0, 0]))).toThrow(/unsupported WebAssembly binary version/);
    expect(parseWasm(Uint8Array.from(WASM_HEADER))).toEqual({ sections: [], imports: [], exports: [], memories: [], hasStart: false });
    expect(() => parseWasm(Uint8Array.from([...WASM_HEADER, 1, 5, 0]))).toThrow(new WasmFormatError('section 1 overruns the module'));
    // A name longer than its section.
    expect(() => parseWasm(module(encodeSection(SectionId.export, [1, 9, 0x61])))).toThrow(new WasmFormatError('name overruns its section at byte 12'));
    expect(() => parseWasm(module(encodeSection(SectionId.import, [1, ...encodeName('a'), ...encodeName('b'), 5, 0])))).toThrow(new WasmFormatError('unknown import kind 5'));
    expect(() => parseWasm(module(encodeSection(SectionId.export, [1, ...encodeName('a'), 5, 0])))).toThrow(new WasmFormatError('unknown export kind 5'));
    // An import entry cut short inside its section.
    expect(() => parseWasm(module(encodeSection(SectionId.import, [1, ...encodeName('a'), ...encodeName('b'), 3, 0x7f])))).toThrow(/unexpected end of data/);
  });

  it('keeps the import list cursor in step over tables and globals (the entry after them is read right)', () => {
    const imports = encodeSection(SectionId.import, [
      3,
      ...encodeName('a'), ...encodeName('t'), 0x01, 0x70, 0x01, 1, 2,
      ...encodeName('a'), ...encodeName('g'), 0x03, 0x7f, 0x01,
      ...encodeName('b'), ...encodeName('m'), 0x02, 0x00, 7,
    ]);
    const layout = parseWasm(module(imports));
    expect(layout.imports.map((i) => i.kind)).toEqual(['table', 'global', 'memory']);
    expect(layout.imports[2]).toMatchObject({ module: 'b', name: 'm', memory: { min: 7 } });
  });
});

describe('replaceSection', () => {
  it('swaps one section for bytes of another size and keeps everything around it', () => {
    const before = encodeSection(SectionId.type, [0]);
    const target = encodeSection(SectionId.memory, [1, 0, 1]);
    const after = encodeSection(SectionId.custom, [1, 0x78]);
    const bytes = module(before, target, after);
    const section = parseWasm(bytes).sections[1];
    if (section === undefined) throw new Error('no section');
    const replacement = encodeSection(SectionId.memory, [1, 1, 1, 0x80, 0x01]);
    const out = replaceSection(bytes, section, replacement);
    expect([...out]).toEqual([...WASM_HEADER, ...before, ...replacement, ...after]);
    expect(parseWasm(out).memories).toEqual([{ flags: 1, min: 1, max: 128, shared: false, memory64: false }]);
  });
});

describe('fileBytes', () => {
  it('takes over a buffer a file read owns, as a plain Uint8Array, and copies one that shares a pool', () => {
    const owned = Buffer.allocUnsafeSlow(64 * 1024).fill(7);
    const taken = fileBytes(owned);
    expect(Buffer.isBuffer(taken)).toBe(false);
    expect(taken.buffer).toBe(owned.buffer);
    expect(taken.byteLength).toBe(owned.byteLength);
    // Plain: slice() copies (a Buffer's returns a view), so module-prep can patch a slice in place.
    const copy = taken.slice();
    copy[0] = 1;
    expect(taken[0]).toBe(7);

    // A Buffer that shares its ArrayBuffer (the pool small Buffers come from), at its start or further in.
    const pool = new ArrayBuffer(16);
    for (const offset of [0, 8]) {
      const shared = Buffer.from(pool, offset, 4);
      shared.set([0, 0x61, 0x73, 0x6d]);
      const copied = fileBytes(shared);
      expect(Buffer.isBuffer(copied)).toBe(false);
      expect(copied.buffer).not.toBe(pool);
      expect(copied.buffer.byteLength).toBe(4);
      expect([...copied]).toEqual([0, 0x61, 0x73, 0x6d]);
    }
  });
});
