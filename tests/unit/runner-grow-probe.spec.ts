/**
 * The `memory.grow` instrumentation (grow-probe.ts), byte level and run:
 * every grow in every function goes through the appended helper, which
 * answers what `memory.grow` answers and raises the exported flag only when
 * the grow was refused; indices of existing functions and globals do not
 * move; and the decoder walks every instruction family a toolchain emits
 * (a mis-skipped immediate leaves a module that no longer validates, or a
 * grow left uninstrumented). `tests/security/grow-refused.spec.ts` checks
 * the fault kind through a runner.
 */
import { describe, expect, it } from 'vitest';
import { GROW_FAILED_GLOBAL, instrumentMemoryGrow } from '../../host/runner/grow-probe.ts';
import { SectionId, WASM_HEADER, WasmFormatError, encodeSection, parseWasm } from '../../host/runner/wasm-binary.ts';
import type { WasmGlobal, WasmInstance, WasmMemory } from '../../host/runner/wasm-api.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { instantiateBytes, wasm } from '../helpers/wasm-js.ts';

const FEATURES = { simd: true, reference_types: true, tail_call: true, threads: true, exceptions: true };

/** One function body per instruction family the decoder skips, each ending in a `memory.grow`. */
const KITCHEN_SINK = `
(module
  (type $t (func (param i32) (result i32)))
  (import "env" "f" (func $imp (param i32) (result i32)))
  (import "env" "g" (global $ig i32))
  (import "env" "tag" (tag $itag (param i32)))
  (memory 1 4)
  (table $tab 2 funcref)
  (global $g (mut i32) (i32.const 0))
  (tag $tag (param i32))
  (elem (i32.const 0) $id $id)
  (elem $e func $id)
  (data $d "abc")
  (func $id (type $t) (local.get 0))
  (func (export "control") (param $p i32) (result i32)
    (block $b (loop $lp (br_if $b (local.get $p)) (br $b)))
    (if (local.get $p) (then nop) (else nop))
    (drop (block (result i32) (i32.const 1)))
    (drop (block (result i64) (i64.const 1)))
    (drop (block (result f32) (f32.const 1)))
    (drop (block (result f64) (f64.const 1)))
    (drop (block (result v128) (v128.const i32x4 1 2 3 4)))
    (drop (block (result funcref) (ref.null func)))
    (drop (block (result externref) (ref.null extern)))
    i32.const 5
    block (type $t) (param i32) (result i32) i32.const 1 i32.add end
    drop
    (block $x (block $y (br_table $x $y $x (local.get $p))))
    (drop (call $imp (i32.const 1)))
    (drop (call_indirect (type $t) (i32.const 1) (i32.const 0)))
    (drop (select (result i32) (i32.const 1) (i32.const 2) (local.get $p)))
    (drop (select (i32.const 1) (i32.const 2) (local.get $p)))
    (memory.grow (local.get $p)))
  (func (export "variables") (param $p i32) (result i32) (local $l i64) (local $f f32) (local $d f64)
    (local.set $l (i64.const -123456789012345))
    (local.set $f (f32.const 1.5))
    (local.set $d (f64.const 2.5))
    (drop (local.tee $p (local.get $p)))
    (global.set $g (global.get $ig))
    (drop (table.get $tab (i32.const 0)))
    (table.set $tab (i32.const 1) (ref.func $id))
    (drop (ref.is_null (ref.null func)))
    (drop (i32.trunc_sat_f32_s (local.get $f)))
    (drop (i64.trunc_sat_f64_u (local.get $d)))
    (drop (i64.extend_i32_s (local.get $p)))
    (drop (i32.wrap_i64 (local.get $l)))
    (drop (i32.eqz (local.get $p)))
    (drop (i64.extend32_s (local.get $l)))
    (memory.grow (local.get $p)))
  (func (export "memory") (param $p i32) (result i32)
    (drop (i32.load offset=4 align=2 (i32.const 0)))
    (i64.store8 offset=3 (i32.const 8) (i64.const 1))
    (drop (f64.load (i32.const 0)))
    (i64.store32 offset=1 (i32.const 0) (i64.const 1))
    (drop (memory.size))
    (memory.init $d (i32.const 0) (i32.const 0) (i32.const 0))
    (data.drop $d)
    (memory.copy (i32.const 0) (i32.const 1) (i32.const 1))
    (memory.fill (i32.const 0) (i32.const 0) (i32.const 1))
    (table.init $tab $e (i32.const 0) (i32.const 0) (i32.const 0))
    (elem.drop $e)
    (table.copy (i32.const 0) (i32.const 1) (i32.const 1))
    (drop (table.grow $tab (ref.null func) (i32.const 0)))
    (drop (table.size $tab))
    (table.fill $tab (i32.const 0) (ref.null func) (i32.const 0))
    (memory.grow (local.get $p)))
  (func (export "simd") (param $p i32) (result i32) (local $v v128)
    (local.set $v (v128.load (i32.const 0)))
    (local.set $v (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 (local.get $v) (local.get $v)))
    (drop (i32x4.extract_lane 3 (local.get $v)))
    (local.set $v (i32x4.replace_lane 2 (local.get $v) (i32.const 9)))
    (local.set $v (i8x16.replace_lane 13 (local.get $v) (i32.const 1)))
    (local.set $v (v128.load32_lane 2 (i32.const 0) (local.get $v)))
    (v128.store16_lane offset=2 4 (i32.const 0) (local.get $v))
    (local.set $v (v128.load32_zero (i32.const 0)))
    (local.set $v (i32x4.add (local.get $v) (v128.const i64x2 7 8)))
    (drop (i8x16.extract_lane_s 2 (local.get $v)))
    (local.set $v (f64x2.replace_lane 1 (local.get $v) (f64.const 1)))
    (local.set $v (v128.load8_lane 12 (i32.const 0) (local.get $v)))
    (v128.store64_lane 1 (i32.const 0) (local.get $v))
    (local.set $v (v128.load64_zero (i32.const 0)))
    (local.set $v (i8x16.swizzle (local.get $v) (local.get $v)))
    (v128.store (i32.const 16) (local.get $v))
    (memory.grow (local.get $p)))
  (func (export "atomics") (param $p i32) (result i32)
    (drop (memory.atomic.notify (i32.const 0) (i32.const 0)))
    (atomic.fence)
    (drop (i32.atomic.load (i32.const 0)))
    (drop (i64.atomic.rmw.add offset=8 (i32.const 0) (i64.const 1)))
    (memory.grow (local.get $p)))
  (func (export "exceptions") (param $p i32) (result i32)
    (try (do (throw $tag (i32.const 1))) (catch $tag (drop)) (catch_all))
    (try $outer (do (try (do (nop)) (delegate $outer))) (catch_all))
    (try (do nop) (catch $itag (drop)))
    (memory.grow (local.get $p)))
  (func (export "tail") (param i32) (result i32) (return_call $id (local.get 0)))
  (func (export "tail_indirect") (param i32) (result i32) (return_call_indirect (type $t) (local.get 0) (i32.const 0)))
  (func (export "twice") (param $p i32) (result i32) (drop (memory.grow (local.get $p))) (memory.grow (local.get $p)))
  (func (export "plain") (result i32) (global.get $g)))
`;

const EXPORTS = ['control', 'variables', 'memory', 'simd', 'atomics', 'exceptions'] as const;

interface Probed {
  readonly exports: Record<string, unknown>;
  readonly flag: WasmGlobal;
  readonly memory: () => number;
}

async function instantiate(bytes: Uint8Array): Promise<WasmInstance> {
  const tag = new wasm.Tag({ parameters: ['i32'] });
  return instantiateBytes(bytes, { env: { f: (x: number) => x + 1, g: new wasm.Global({ value: 'i32', mutable: false }, 42), tag } });
}

async function probed(bytes: Uint8Array): Promise<Probed> {
  const instance = await instantiate(bytes);
  return {
    exports: instance.exports,
    flag: instance.exports[GROW_FAILED_GLOBAL] as WasmGlobal,
    memory: () => (instance.exports.mem as WasmMemory | undefined)?.buffer.byteLength ?? -1,
  };
}

describe('instrumentMemoryGrow', () => {
  it('decodes every instruction family and instruments the grow after them; the module validates and answers as before', async () => {
    const original = await compileWatSource(KITCHEN_SINK, 'kitchen-sink.wat', FEATURES);
    const instrumented = instrumentMemoryGrow(original);
    expect(instrumented).toBeDefined();
    if (instrumented === undefined) return;
    expect(wasm.validate(instrumented)).toBe(true);
    const before = parseWasm(original);
    const after = parseWasm(instrumented);
    expect(after.exports.map((e) => e.name)).toEqual([...before.exports.map((e) => e.name), GROW_FAILED_GLOBAL]);
    expect(after.exports.at(-1)?.kind).toBe('global');
    const named = (layout: typeof before) => layout.imports.map(({ module, name, kind }) => ({ module, name, kind }));
    expect(named(after)).toEqual(named(before));

    const plain = await instantiate(original);
    const { exports, flag } = await probed(instrumented);
    for (const name of EXPORTS) {
      const grow = exports[name] as (pages: number) => number;
      const reference = plain.exports[name] as (pages: number) => number;
      flag.value = 0;
      expect(grow(0), name).toBe(reference(0)); // a grow of 0 pages: the current size, never refused
      expect(flag.value, name).toBe(0);
      expect(grow(100), name).toBe(-1); // past the maximum of 4 pages
      expect(flag.value, `${name} raises the flag`).toBe(1);
    }
    // Functions without a grow answer as before, by their original indices.
    expect((exports.tail as (x: number) => number)(5)).toBe(5);
    expect((exports.tail_indirect as (x: number) => number)(6)).toBe(6);
    expect((exports.plain as () => number)()).toBe(42);
  });

  it('skips immediates that contain the memory.grow byte (0x40): a decoder out of step would rewrite them', async () => {
    // 64 is 0x40 in unsigned LEB128 and -64 in signed LEB128; 2.0 ends in 0x40 as f32 and f64. Alignment 1
    // (byte 0x00, `unreachable`) keeps a skipped memarg from hiding the offset as a block type.
    const nested = (depth: number, inner: string): string => (depth === 0 ? inner : `(block ${nested(depth - 1, inner)})`);
    const source = `(module
      (memory 1 4)
      (func (export "hostile") (param $p i32) (result i32) ${Array.from({ length: 64 }, () => '(local i32)').join(' ')}
        (drop (i32.const -64))
        (drop (i64.const -64))
        (drop (f32.const 2.0))
        (drop (f64.const 2.0))
        (drop (local.get 64))
        (drop (i32.load8_u offset=64 (i32.const 0)))
        (i64.store32 offset=64 align=1 (i32.const 0) (i64.const 1))
        (drop (v128.const i8x16 0x40 0 0x40 0 0x40 0 0x40 0 0x40 0 0x40 0 0x40 0 0x40 0))
        (drop (v128.load offset=64 align=1 (i32.const 0)))
        (drop (v128.load8_lane offset=64 1 (i32.const 0) (v128.const i64x2 0 0)))
        (drop (v128.load32_zero offset=64 align=1 (i32.const 0)))
        (drop (v128.load64_zero offset=64 align=1 (i32.const 0)))
        (v128.store offset=64 align=1 (i32.const 0) (v128.const i64x2 0 0))
        (v128.store64_lane offset=64 align=1 1 (i32.const 0) (v128.const i64x2 0 0))
        (drop (i32.atomic.load8_u offset=64 (i32.const 0)))
        ${nested(65, '(br_table 0 64 (local.get $p))')}
        (memory.grow (local.get $p))))`;
    const bytes = await compileWatSource(source, 'hostile-immediates.wat', FEATURES);
    const instrumented = instrumentMemoryGrow(bytes);
    if (instrumented === undefined) throw new Error('not instrumented');
    expect(wasm.validate(instrumented)).toBe(true);
    // Exactly one grow replaced: the body grows by the call's 2 bytes less the grow's 2, i.e. not at all.
    const code = (module: Uint8Array) => parseWasm(module).sections.find((s) => s.id === SectionId.code);
    const before = code(bytes);
    const after = code(instrumented);
    const firstBody = (module: Uint8Array, section: typeof before) => [...module.subarray((section?.contentStart ?? 0) + 1, section?.end)];
    const original = firstBody(bytes, before);
    const rewritten = firstBody(instrumented, after).slice(0, original.length);
    const differences = original.map((b, i) => (b === rewritten[i] ? -1 : i)).filter((i) => i >= 0);
    expect(differences).toHaveLength(2); // 0x40 0x00 → 0x10 <helper index>
    expect(rewritten[differences[0] as number]).toBe(0x10);
    const { exports, flag } = await probed(instrumented);
    expect((exports.hostile as (pages: number) => number)(0)).toBe(1);
    expect((exports.hostile as (pages: number) => number)(9)).toBe(-1);
    expect(flag.value).toBe(1);
  });

  it('sets the flag only for a refused grow, and each grow of a function goes through the helper', async () => {
    const bytes = await compileWatSource(`(module (memory (export "mem") 1 3)
      (func (export "twice") (param i32) (result i32) (drop (memory.grow (local.get 0))) (memory.grow (local.get 0)))
      (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))`);
    const instrumented = instrumentMemoryGrow(bytes);
    if (instrumented === undefined) throw new Error('not instrumented');
    const { exports, flag, memory } = await probed(instrumented);
    const grow = exports.grow as (pages: number) => number;
    const twice = exports.twice as (pages: number) => number;
    expect(flag.value).toBe(0);
    expect(grow(1)).toBe(1);
    expect(memory()).toBe(2 * 65_536);
    expect(flag.value).toBe(0);
    // The first grow succeeds (2 → 3 pages), the second is refused: the flag tells.
    expect(twice(1)).toBe(-1);
    expect(memory()).toBe(3 * 65_536);
    expect(flag.value).toBe(1);
    // The host clears the flag; it stays clear through successful grows.
    flag.value = 0;
    expect(grow(0)).toBe(3);
    expect(flag.value).toBe(0);
  });

  it('appends the helper and the flag after existing functions and globals, imported ones counted first', async () => {
    const bytes = await compileWatSource(`(module
      (import "env" "f" (func $f (param i32) (result i32)))
      (import "env" "g" (global $g i32))
      (memory 1 2)
      (global $own (mut i32) (i32.const 5))
      (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0)))
      (func (export "own") (result i32) (global.get $own))
      (func (export "callf") (param i32) (result i32) (call $f (local.get 0))))`);
    const instrumented = instrumentMemoryGrow(bytes);
    if (instrumented === undefined) throw new Error('not instrumented');
    const module = new wasm.Module(instrumented);
    expect(wasm.Module.exports(module)).toEqual([
      { name: 'grow', kind: 'function' },
      { name: 'own', kind: 'function' },
      { name: 'callf', kind: 'function' },
      { name: GROW_FAILED_GLOBAL, kind: 'global' },
    ]);
    // The grow is rewritten to `call 4` (1 imported + 3 defined functions); the flag is global 2.
    const code = parseWasm(instrumented).sections.find((s) => s.id === SectionId.code);
    const body = [...instrumented.subarray(code?.contentStart, code?.end)];
    expect(body.slice(0, 7)).toEqual([4, 6, 0x00, 0x20, 0x00, 0x10, 0x04]);
    const helper = body.slice(-23);
    expect(helper).toEqual([22, 0x01, 0x01, 0x7f, 0x20, 0x00, 0x40, 0x00, 0x22, 0x01, 0x41, 0x7f, 0x46, 0x04, 0x40, 0x41, 0x01, 0x24, 0x02, 0x0b, 0x20, 0x01, 0x0b]);
    const instance = await wasm.instantiate(module, { env: { f: (x: number) => x * 2, g: new wasm.Global({ value: 'i32' }, 1) } });
    expect((instance.exports.own as () => number)()).toBe(5);
    expect((instance.exports.callf as (x: number) => number)(4)).toBe(8);
    expect((instance.exports.grow as (x: number) => number)(5)).toBe(-1);
    expect((instance.exports[GROW_FAILED_GLOBAL] as WasmGlobal).value).toBe(1);
  });

  it('adds the type, function, global and export sections a module lacks, in the order the format requires', async () => {
    // Only a memory, a start-less function with a grow, and a custom section: no global or export section.
    const bytes = await compileWatSource('(module (memory 1 2) (func (drop (memory.grow (i32.const 1)))))');
    const withCustom = Uint8Array.from([...bytes, ...encodeSection(SectionId.custom, [4, ...new TextEncoder().encode('note'), 1, 2, 3])]);
    const instrumented = instrumentMemoryGrow(withCustom);
    if (instrumented === undefined) throw new Error('not instrumented');
    expect(wasm.validate(instrumented)).toBe(true);
    const ids = parseWasm(instrumented).sections.map((s) => s.id);
    expect(ids).toEqual([SectionId.type, SectionId.function, SectionId.memory, SectionId.global, SectionId.export, SectionId.code, SectionId.custom]);
    expect(wasm.Module.customSections(new wasm.Module(instrumented), 'note').map((b) => [...new Uint8Array(b)])).toEqual([[1, 2, 3]]);
  });

  it('inserts missing sections before a tag, start, element, data count and data section, as the format orders them', async () => {
    const bytes = await compileWatSource(
      `(module (memory 1 2) (tag $t) (table 1 funcref)
        (func $f (drop (memory.grow (i32.const 1))) (memory.init $d (i32.const 0) (i32.const 0) (i32.const 0)))
        (start $f) (elem (i32.const 0) $f) (data $d "x"))`,
      'ordered.wat',
      { exceptions: true },
    );
    const instrumented = instrumentMemoryGrow(bytes);
    if (instrumented === undefined) throw new Error('not instrumented');
    expect(wasm.validate(instrumented)).toBe(true);
    expect(parseWasm(instrumented).sections.map((s) => s.id)).toEqual([
      SectionId.type, SectionId.function, 4, SectionId.memory, 13, SectionId.global, SectionId.export, SectionId.start, 9, 12, SectionId.code, 11,
    ]);
  });

  it('skips the memory index of a multi-memory load (flag 0x40 in its alignment)', () => {
    // i32.const 0; i32.load align-flags 0x42, memory 2, offset 255; drop; i32.const 1; memory.grow 0; drop; end
    // (read without the memory index, 0xff would be taken for an opcode: there is none)
    const body = [0, 0x41, 0, 0x28, 0x42, 2, 0xff, 0x01, 0x1a, 0x41, 1, 0x40, 0, 0x1a, 0x0b];
    const bytes = Uint8Array.from([
      ...WASM_HEADER,
      ...encodeSection(SectionId.type, [1, 0x60, 0, 0]),
      ...encodeSection(SectionId.function, [1, 0]),
      ...encodeSection(SectionId.memory, [1, 0x00, 1]),
      ...encodeSection(SectionId.code, [1, body.length, ...body]),
    ]);
    const instrumented = instrumentMemoryGrow(bytes);
    if (instrumented === undefined) throw new Error('not instrumented');
    const code = parseWasm(instrumented).sections.find((s) => s.id === SectionId.code);
    // The first body: the load kept byte for byte, the grow replaced by `call 1` (the helper).
    expect([...instrumented.subarray((code?.contentStart ?? 0) + 2, (code?.contentStart ?? 0) + 2 + 15)]).toEqual([
      0, 0x41, 0, 0x28, 0x42, 2, 0xff, 0x01, 0x1a, 0x41, 1, 0x10, 1, 0x1a, 0x0b,
    ]);
  });

  it('leaves a module without any grow, or without code, alone', async () => {
    expect(instrumentMemoryGrow(await compileWatSource('(module (memory 1) (func (export "f") (result i32) (memory.size)))'))).toBeUndefined();
    expect(instrumentMemoryGrow(await compileWatSource('(module (memory 1))'))).toBeUndefined();
    expect(instrumentMemoryGrow(Uint8Array.from(WASM_HEADER))).toBeUndefined();
  });

  it('refuses code it cannot decode: an unknown opcode, a 0xfc sub-opcode it does not know, a body that overruns', () => {
    const module = (body: number[]): Uint8Array =>
      Uint8Array.from([
        ...WASM_HEADER,
        ...encodeSection(SectionId.type, [1, 0x60, 0, 0]),
        ...encodeSection(SectionId.function, [1, 0]),
        ...encodeSection(SectionId.code, [1, body.length, ...body]),
      ]);
    expect(() => instrumentMemoryGrow(module([0, 0xff, 0x0b]))).toThrow(new WasmFormatError('unknown opcode 0xff at byte 23'));
    expect(() => instrumentMemoryGrow(module([0, 0xfc, 18, 0x0b]))).toThrow(new WasmFormatError('unknown 0xfc sub-opcode 18'));
    expect(() => instrumentMemoryGrow(module([0, 0x41, 0x80]))).toThrow(WasmFormatError);
    expect(() => instrumentMemoryGrow(module([0, 0x44, 0, 0, 0x0b]))).toThrow(/overruns/);
  });
});
