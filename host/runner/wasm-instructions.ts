/**
 * Walking a wasm function body instruction by instruction, to find every
 * `memory.grow` in it (grow-probe.ts rewrites them). Decoding each
 * instruction is needed because the byte 0x40 is also an immediate (the
 * empty block type), so a byte search alone finds false sites; `mayGrow` is
 * that byte search, used only to skip bodies that cannot hold one.
 */
import { Reader, WasmFormatError } from './wasm-binary.ts';

/** The module reader (wasm-binary.ts), plus what skipping instructions needs. */
export class Cursor extends Reader {
  constructor(bytes: Uint8Array, offset: number) {
    super(bytes, offset, bytes.length);
  }

  /** Any LEB128 (signed or unsigned): only its length matters here. */
  skipLeb(): void {
    this.offset = skipLebAt(this.bytes, this.offset);
  }

  u32(): number {
    return this.leb();
  }

  skip(n: number): void {
    this.offset += n;
  }

  /** A value type: one byte, or a reference type with a heap type. */
  valtype(): void {
    const t = this.byte();
    if (t === 0x63 || t === 0x64) this.skipLeb();
  }

  blocktype(): void {
    const t = this.bytes[this.offset] as number;
    if (t === 0x40 || t === 0x7f || t === 0x7e || t === 0x7d || t === 0x7c || t === 0x7b || t === 0x70 || t === 0x6f) this.offset++;
    else if (t === 0x63 || t === 0x64) this.valtype();
    else this.skipLeb(); // a type index (s33)
  }

  memarg(): void {
    const align = this.u32();
    if ((align & 0x40) !== 0) this.skipLeb(); // multi-memory: a memory index
    this.skipLeb();
  }
}

/** What follows a one-byte opcode, for the three commonest shapes (everything else: `skipImmediates`' switch). */
const Immediates = { other: 0, none: 1, oneLeb: 2, memarg: 3 } as const;

/**
 * The shape of each opcode's immediates, as a table: the scan looks it up once per instruction
 * of a JS-engine module's ~0.7 MB of code, on a path that runs once per module, mostly before V8 has optimised it.
 */
const IMMEDIATES = new Uint8Array(256);
for (let op = 0x45; op <= 0xc4; op++) IMMEDIATES[op] = Immediates.none;
for (const op of [0x00, 0x01, 0x05, 0x0a, 0x0b, 0x0f, 0x19, 0x1a, 0x1b, 0xd1, 0xd3]) IMMEDIATES[op] = Immediates.none;
// Branch depths, function/type/local/global/table/tag indices, memory.size's memory index, i32/i64.const.
const ONE_LEB = [0x07, 0x08, 0x09, 0x0c, 0x0d, 0x10, 0x12, 0x14, 0x15, 0x18, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x3f, 0x41, 0x42, 0xd2, 0xd4, 0xd6];
for (const op of ONE_LEB) IMMEDIATES[op] = Immediates.oneLeb;
// Loads and stores: a memarg (alignment, then offset), the commonest immediate after the ones above.
for (let op = 0x28; op <= 0x3e; op++) IMMEDIATES[op] = Immediates.memarg;

/** The offset just past the LEB128 (signed or unsigned) at `at`. */
function skipLebAt(bytes: Uint8Array, at: number): number {
  let p = at;
  for (let i = 0; i < 10; i++) {
    if (p >= bytes.length) throw new WasmFormatError(`unexpected end of data at byte ${p}`);
    if (((bytes[p++] as number) & 0x80) === 0) return p;
  }
  throw new WasmFormatError(`LEB128 too long at byte ${p}`);
}

/**
 * Skips the immediates of one instruction whose shape `IMMEDIATES` leaves to it (`scanBody`
 * skips the others inline). Returns true for `memory.grow` (its memory index already consumed).
 * Unknown opcodes are refused: the guest would not validate anyway, or uses a proposal this
 * rewrite does not know.
 */
function skipImmediates(c: Cursor, op: number): boolean {
  if (op === 0x40) {
    c.skipLeb();
    return true;
  }
  switch (op) {
    case 0x02:
    case 0x03:
    case 0x04:
    case 0x06:
      c.blocktype();
      return false;
    case 0x0e: {
      for (let n = c.u32(); n > 0; n--) c.skipLeb();
      c.skipLeb();
      return false;
    }
    case 0x11:
    case 0x13:
      c.skipLeb();
      c.skipLeb();
      return false;
    case 0x1c:
      for (let n = c.u32(); n > 0; n--) c.valtype();
      return false;
    case 0x43:
      c.skip(4);
      return false;
    case 0x44:
      c.skip(8);
      return false;
    case 0xd0:
      c.valtype();
      return false;
    case 0xfc:
      skipPrefixedFc(c, c.u32());
      return false;
    case 0xfd:
      skipSimd(c, c.u32());
      return false;
    case 0xfe: {
      const sub = c.u32();
      if (sub === 0x03) c.byte();
      else c.memarg();
      return false;
    }
  }
  if (op >= 0x28 && op <= 0x3e) {
    c.memarg();
    return false;
  }
  throw new WasmFormatError(`unknown opcode 0x${op.toString(16)} at byte ${c.offset - 1}`);
}

function skipPrefixedFc(c: Cursor, sub: number): void {
  if (sub <= 7) return; // saturating truncations
  switch (sub) {
    case 8: case 10: case 12: case 14:
      c.skipLeb();
      c.skipLeb();
      return;
    case 9: case 11: case 13: case 15: case 16: case 17:
      c.skipLeb();
      return;
  }
  throw new WasmFormatError(`unknown 0xfc sub-opcode ${sub}`);
}

function skipSimd(c: Cursor, sub: number): void {
  if (sub <= 11 || sub === 92 || sub === 93) c.memarg();
  else if (sub === 12 || sub === 13) c.skip(16);
  else if (sub >= 21 && sub <= 34) c.skip(1);
  else if (sub >= 84 && sub <= 91) {
    c.memarg();
    c.skip(1);
  }
}

/**
 * Walks one function body (locals, then every instruction) and pushes the [start, end) of each
 * `memory.grow` onto `sites`; returns how many it found. The commonest instructions (no
 * immediates, one LEB128) are skipped inline, the rest by `skipImmediates`: a JS-engine module
 * has ~0.7 MB of code, scanned once per load, mostly before V8 has optimised this loop.
 */
export function scanBody(c: Cursor, start: number, end: number, sites: number[]): number {
  c.offset = start;
  for (let n = c.u32(); n > 0; n--) {
    c.skipLeb();
    c.valtype();
  }
  const bytes = c.bytes;
  let p = c.offset;
  let found = 0;
  while (p < end) {
    if (p >= bytes.length) throw new WasmFormatError(`unexpected end of data at byte ${p}`);
    const at = p;
    const op = bytes[p++] as number;
    const shape = IMMEDIATES[op];
    if (shape === Immediates.none) continue;
    if (shape === Immediates.oneLeb) {
      p = skipLebAt(bytes, p);
      continue;
    }
    // A one-byte alignment without the multi-memory bit (0x40): the offset follows. Else `memarg`.
    if (shape === Immediates.memarg && (bytes[p] as number) < 0x40) {
      p = skipLebAt(bytes, p + 1);
      continue;
    }
    c.offset = p;
    if (skipImmediates(c, op)) {
      sites.push(at, c.offset);
      found++;
    }
    p = c.offset;
  }
  if (p !== end) throw new WasmFormatError('a function body overruns its size');
  return found;
}

/** Whether the body at `start`..`end` of a one-memory module has a byte pair that could be `memory.grow 0` (a native search for 0x40). */
export function mayGrow(bytes: Uint8Array, start: number, end: number): boolean {
  for (let at = bytes.indexOf(0x40, start); at !== -1 && at + 1 < end; at = bytes.indexOf(0x40, at + 1)) {
    const next = bytes[at + 1] as number;
    if (next === 0 || next >= 0x80) return true;
  }
  return false;
}
