/**
 * The `memory.grow` scan skips, in a module with one memory, every function
 * body with no byte pair that could be `memory.grow 0` (0x40, then 0x00 or a
 * padded LEB128 byte): those are copied undecoded (grow-probe.ts `mayGrow`).
 * Here: a grow whose memory index is padded is still found, bodies without
 * a candidate pass through untouched (even ones the decoder would refuse),
 * and modules with no memory are still decoded whole.
 */
import { describe, expect, it } from 'vitest';
import { instrumentMemoryGrow } from '../../host/runner/grow-probe.ts';
import { SectionId, WASM_HEADER, WasmFormatError, encodeSection, parseWasm } from '../../host/runner/wasm-binary.ts';
import { wasm } from '../helpers/wasm-js.ts';

/** A module of `() -> ()` functions with the given bodies (locals count included), and `memories` memories of 1 page. */
function module(bodies: number[][], memories = 1): Uint8Array {
  return Uint8Array.from([
    ...WASM_HEADER,
    ...encodeSection(SectionId.type, [1, 0x60, 0, 0]),
    ...encodeSection(SectionId.function, [bodies.length, ...bodies.map(() => 0)]),
    ...(memories > 0 ? encodeSection(SectionId.memory, [memories, ...Array.from({ length: memories }, () => [0x00, 1]).flat()]) : []),
    ...encodeSection(SectionId.code, [bodies.length, ...bodies.flatMap((body) => [body.length, ...body])]),
  ]);
}

/** The bodies of a module's code section, as byte arrays. */
function bodiesOf(bytes: Uint8Array): number[][] {
  const code = parseWasm(bytes).sections.find((s) => s.id === SectionId.code);
  if (code === undefined) throw new Error('no code section');
  const out: number[][] = [];
  let at = code.contentStart + 1; // fewer than 128 bodies: a one-byte count
  while (at < code.end) {
    const size = bytes[at] as number; // bodies under 128 bytes: a one-byte size
    out.push([...bytes.subarray(at + 1, at + 1 + size)]);
    at += 1 + size;
  }
  return out;
}

// i32.const 1; memory.grow <index>; drop; end
const grow = (index: number[]): number[] => [0, 0x41, 1, 0x40, ...index, 0x1a, 0x0b];
// block (empty type 0x40) … end, then i32.const 64 (0x40 as an immediate): 0x40 pairs that are not grows
const noGrow = [0, 0x02, 0x40, 0x41, 0x01, 0x1a, 0x0b, 0x41, 0x40, 0x1a, 0x0b];

describe('memory.grow scan: bodies that cannot grow are skipped', () => {
  it('finds a grow whose memory index is padded (0x80 0x00 is index 0)', () => {
    // Node 20's V8 takes the index as one reserved 0x00 byte and refuses this module; an engine
    // with multi-memory reads it as a LEB128, so the scan must not skip it.
    const bytes = module([noGrow, grow([0x80, 0x00])]);
    const instrumented = instrumentMemoryGrow(bytes);
    if (instrumented === undefined) throw new Error('not instrumented');
    const [first, second] = bodiesOf(instrumented);
    expect(first).toEqual(noGrow);
    // The grow (0x40 0x80 0x00) replaced by `call 2` (the helper, after the two functions).
    expect(second).toEqual([0, 0x41, 1, 0x10, 2, 0x1a, 0x0b]);
  });

  it('finds a plain grow among bodies that are skipped, and the result validates', () => {
    const bytes = module([noGrow, grow([0x00]), noGrow]);
    expect(wasm.validate(bytes)).toBe(true);
    const instrumented = instrumentMemoryGrow(bytes);
    if (instrumented === undefined) throw new Error('not instrumented');
    expect(bodiesOf(instrumented).slice(0, 3)).toEqual([noGrow, [0, 0x41, 1, 0x10, 3, 0x1a, 0x0b], noGrow]);
    expect(wasm.validate(instrumented)).toBe(true);
  });

  it('copies a body without a candidate pair undecoded, so an opcode the decoder does not know there is no refusal', () => {
    const unknown = [0, 0xff, 0x0b];
    const instrumented = instrumentMemoryGrow(module([unknown, grow([0x00])]));
    if (instrumented === undefined) throw new Error('not instrumented');
    expect(bodiesOf(instrumented).slice(0, 2)).toEqual([unknown, [0, 0x41, 1, 0x10, 2, 0x1a, 0x0b]]);
  });

  it('still decodes every body of a module without a memory of its own (nothing to say which index a grow names)', () => {
    expect(() => instrumentMemoryGrow(module([[0, 0xff, 0x0b]], 0))).toThrow(new WasmFormatError('unknown opcode 0xff at byte 23'));
  });
});
