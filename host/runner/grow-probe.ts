/**
 * Instruments every `memory.grow` of a guest so the host knows, after a trap,
 * whether the guest was refused memory during the call. A guest that grows
 * 16 MiB at a time is refused short of its cap (the last step does not fit),
 * then traps as a C program does when malloc fails; the memory size alone
 * cannot tell that from any other trap, and the trap's text says nothing.
 *
 * The rewrite appends (so no existing index moves) one function
 * `(param i32) (result i32)` that runs `memory.grow` and sets an exported
 * mutable global to 1 when it returned -1, and replaces each `memory.grow`
 * instruction (`0x40 0x00`) in every function body by a `call` to it. The
 * adapter clears the global before each call and reads it after a trap.
 * Decoding the code section instruction by instruction is needed because the
 * byte 0x40 is also an immediate (the empty block type).
 */
import { Reader, SectionId, WasmFormatError, encodeSection, leb, parseWasm } from './wasm-binary.ts';

/** The guest export of the "a memory.grow failed during this call" flag (a mutable i32 global). */
export const GROW_FAILED_GLOBAL = 'hookbox_grow_failed';

/** Position of each known section in the order the binary format requires. */
const ORDER: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13 };

/** The module reader (wasm-binary.ts), plus what skipping instructions needs. */
class Cursor extends Reader {
  constructor(bytes: Uint8Array, offset: number) {
    super(bytes, offset, bytes.length);
  }

  /** Any LEB128 (signed or unsigned): only its length matters here. */
  skipLeb(): void {
    for (let i = 0; i < 10; i++) if ((this.byte() & 0x80) === 0) return;
    throw new WasmFormatError(`LEB128 too long at byte ${this.offset}`);
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

/**
 * Skips one instruction's immediates. Returns true for `memory.grow` (its
 * memory index already consumed). Unknown opcodes are refused: the guest
 * would not validate anyway, or uses a proposal this rewrite does not know.
 */
function skipImmediates(c: Cursor, op: number): boolean {
  if (op === 0x40) {
    c.skipLeb();
    return true;
  }
  if ((op >= 0x45 && op <= 0xc4) || [0x00, 0x01, 0x05, 0x0a, 0x0b, 0x0f, 0x19, 0x1a, 0x1b, 0xd1, 0xd3].includes(op)) return false;
  switch (op) {
    case 0x02:
    case 0x03:
    case 0x04:
    case 0x06:
      c.blocktype();
      return false;
    case 0x07: case 0x08: case 0x09: case 0x0c: case 0x0d: case 0x10: case 0x12: case 0x14: case 0x15: case 0x18:
    case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26: case 0x3f: case 0xd2: case 0xd4: case 0xd6:
      c.skipLeb();
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
    case 0x41:
    case 0x42:
      c.skipLeb();
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
 * One function body with each `memory.grow` replaced by `call helper`; `null` when it has none.
 * Built from slices of the original bytes: a JS-engine module has ~1.4 MB of code, and
 * copying it a byte at a time into number arrays cost ~0.5 s per load.
 */
function rewriteBody(bytes: Uint8Array, start: number, end: number, call: Uint8Array): Uint8Array | null {
  const c = new Cursor(bytes, start);
  for (let n = c.u32(); n > 0; n--) {
    c.skipLeb();
    c.valtype();
  }
  const sites: number[] = []; // [start, end) of each memory.grow instruction
  while (c.offset < end) {
    const at = c.offset;
    if (skipImmediates(c, c.byte())) sites.push(at, c.offset);
  }
  if (c.offset !== end) throw new WasmFormatError('a function body overruns its size');
  if (sites.length === 0) return null;
  const parts: Uint8Array[] = [];
  let copied = start;
  for (let i = 0; i < sites.length; i += 2) {
    parts.push(bytes.subarray(copied, sites[i]), call);
    copied = sites[i + 1] as number;
  }
  parts.push(bytes.subarray(copied, end));
  return concat(parts);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A vector section's content with `extra` entries appended. */
function appendToVector(bytes: Uint8Array, section: { contentStart: number; end: number } | undefined, extra: number[], added: number): number[] {
  if (section === undefined) return [...leb(added), ...extra];
  const c = new Cursor(bytes, section.contentStart);
  const count = c.u32();
  return [...leb(count + added), ...bytes.subarray(c.offset, section.end), ...extra];
}

function vectorCount(bytes: Uint8Array, section: { contentStart: number } | undefined): number {
  return section === undefined ? 0 : new Cursor(bytes, section.contentStart).u32();
}

/**
 * Returns the module with every `memory.grow` instrumented and the flag global
 * exported as {@link GROW_FAILED_GLOBAL}, or `undefined` when no function grows
 * memory (nothing to instrument). Throws `WasmFormatError` for code it cannot decode.
 */
export function instrumentMemoryGrow(bytes: Uint8Array): Uint8Array | undefined {
  const layout = parseWasm(bytes);
  const find = (id: number) => layout.sections.find((s) => s.id === id);
  const code = find(SectionId.code);
  if (code === undefined) return undefined;
  const types = find(SectionId.type);
  const functions = find(SectionId.function);
  const globals = find(SectionId.global);
  const exports = find(SectionId.export);

  const importedFunctions = layout.imports.filter((i) => i.kind === 'function').length;
  const importedGlobals = layout.imports.filter((i) => i.kind === 'global').length;
  const helperIndex = importedFunctions + vectorCount(bytes, functions);
  const flagIndex = importedGlobals + vectorCount(bytes, globals);
  const typeIndex = vectorCount(bytes, types);
  const call = Uint8Array.from([0x10, ...leb(helperIndex)]);

  const c = new Cursor(bytes, code.contentStart);
  const count = c.u32();
  const bodies: Uint8Array[] = [Uint8Array.from(leb(count + 1))];
  let changed = false;
  for (let n = 0; n < count; n++) {
    const head = c.offset;
    const size = c.u32();
    const start = c.offset;
    const rewritten = rewriteBody(bytes, start, start + size, call);
    if (rewritten === null) bodies.push(bytes.subarray(head, start + size));
    else {
      changed = true;
      bodies.push(Uint8Array.from(leb(rewritten.length)), rewritten);
    }
    c.offset = start + size;
  }
  if (!changed) return undefined;
  // (param $delta i32) (result i32) (local $r i32):
  //   local.get 0; memory.grow 0; local.tee 1; i32.const -1; i32.eq; if; i32.const 1; global.set $flag; end; local.get 1
  const helper = [0x01, 0x01, 0x7f, 0x20, 0x00, 0x40, 0x00, 0x22, 0x01, 0x41, 0x7f, 0x46, 0x04, 0x40, 0x41, 0x01, 0x24, ...leb(flagIndex), 0x0b, 0x20, 0x01, 0x0b];
  bodies.push(Uint8Array.from([...leb(helper.length), ...helper]));

  const name = new TextEncoder().encode(GROW_FAILED_GLOBAL);
  const replacements = new Map<number, Uint8Array>([
    [SectionId.type, encodeSection(SectionId.type, appendToVector(bytes, types, [0x60, 0x01, 0x7f, 0x01, 0x7f], 1))],
    [SectionId.function, encodeSection(SectionId.function, appendToVector(bytes, functions, leb(typeIndex), 1))],
    [SectionId.global, encodeSection(SectionId.global, appendToVector(bytes, globals, [0x7f, 0x01, 0x41, 0x00, 0x0b], 1))],
    [SectionId.export, encodeSection(SectionId.export, appendToVector(bytes, exports, [...leb(name.length), ...name, 0x03, ...leb(flagIndex)], 1))],
    [SectionId.code, encodeSection(SectionId.code, concat(bodies))],
  ]);
  return assemble(bytes, layout.sections, replacements);
}

/** Rebuilds the module: sections replaced in place, missing ones inserted where the format wants them. */
function assemble(bytes: Uint8Array, sections: readonly { id: number; start: number; end: number }[], replacements: Map<number, Uint8Array>): Uint8Array {
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  const pending = new Map(replacements);
  for (const section of sections) {
    const rank = ORDER[section.id];
    if (rank !== undefined) {
      for (const [id, replacement] of [...pending]) {
        if (id !== section.id && (ORDER[id] as number) < rank) {
          parts.push(replacement);
          pending.delete(id);
        }
      }
    }
    const replacement = pending.get(section.id);
    if (replacement !== undefined && section.id !== SectionId.custom) {
      parts.push(replacement);
      pending.delete(section.id);
    } else parts.push(bytes.subarray(section.start, section.end));
  }
  for (const [id, replacement] of [...pending].sort((a, b) => (ORDER[a[0]] as number) - (ORDER[b[0]] as number))) {
    parts.push(replacement);
    pending.delete(id);
  }
  return concat(parts);
}
