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
 * The code section is decoded instruction by instruction (wasm-instructions.ts).
 */
import { SectionId, encodeSection, leb, parseWasm } from './wasm-binary.ts';
import { Cursor, mayGrow, scanBody } from './wasm-instructions.ts';

/** The guest export of the "a memory.grow failed during this call" flag (a mutable i32 global). */
export const GROW_FAILED_GLOBAL = 'hookbox_grow_failed';

/** Position of each known section in the order the binary format requires. */
const ORDER: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13 };

/** Bytes of a module under construction: a length, and how to write them at an offset. */
interface Piece {
  readonly length: number;
  write(out: Uint8Array, at: number): void;
}

function piece(bytes: Uint8Array): Piece {
  return { length: bytes.length, write: (out, at) => out.set(bytes, at) };
}

function lebLength(value: number): number {
  let n = 1;
  for (let v = Math.floor(value / 128); v > 0; v = Math.floor(v / 128)) n++;
  return n;
}

/**
 * The code section with every grow site replaced by `call` and the helper's body appended, as a
 * piece written straight into the output: `bodies` holds, per function, its entry's start, body
 * start and end, first site (an index into `sites`), site count and rewritten size.
 */
function codePiece(bytes: Uint8Array, bodies: readonly number[], sites: readonly number[], call: Uint8Array, helper: readonly number[]): Piece {
  const count = Uint8Array.from(leb(bodies.length / 6 + 1));
  const tail = Uint8Array.from([...leb(helper.length), ...helper]);
  let content = count.length + tail.length;
  for (let i = 0; i < bodies.length; i += 6) {
    const size = bodies[i + 5] as number;
    content += bodies[i + 4] === 0 ? (bodies[i + 2] as number) - (bodies[i] as number) : lebLength(size) + size;
  }
  const head = Uint8Array.from([SectionId.code, ...leb(content)]);
  return {
    length: head.length + content,
    write(out, at) {
      let o = at;
      const put = (part: Uint8Array): void => {
        out.set(part, o);
        o += part.length;
      };
      put(head);
      put(count);
      // Bodies without a grow lie back to back in the input, as in the output: a run of them
      // is copied as one range (guard-bash: ~15 copies instead of ~1,100).
      let unchanged = -1;
      for (let i = 0; i < bodies.length; i += 6) {
        const end = bodies[i + 2] as number;
        const first = bodies[i + 3] as number;
        const found = bodies[i + 4] as number;
        if (found === 0) {
          if (unchanged === -1) unchanged = bodies[i] as number;
          continue;
        }
        if (unchanged !== -1) put(bytes.subarray(unchanged, bodies[i] as number));
        unchanged = -1;
        put(Uint8Array.from(leb(bodies[i + 5] as number)));
        let copied = bodies[i + 1] as number;
        for (let s = first; s < first + found * 2; s += 2) {
          put(bytes.subarray(copied, sites[s]));
          put(call);
          copied = sites[s + 1] as number;
        }
        put(bytes.subarray(copied, end));
      }
      if (unchanged !== -1) put(bytes.subarray(unchanged, bodies[bodies.length - 4] as number));
      put(tail);
    },
  };
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
 * memory (nothing to instrument). Throws `WasmFormatError` (wasm-binary.ts) for code it cannot decode
 * in a body it decodes (in a one-memory module, only bodies that may grow: `mayGrow`).
 * `others` replaces more sections (id → encoded section) in the same pass, so the
 * module is copied once (module-prep.ts passes the capped memory section).
 */
export function instrumentMemoryGrow(bytes: Uint8Array, others?: ReadonlyMap<number, Uint8Array>): Uint8Array | undefined {
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

  // With one memory, the only valid `memory.grow` is `0x40` then index 0, whose LEB128 starts with
  // 0x00 (or 0x80 when padded): a body with no such pair grows nothing and is copied undecoded
  // (in a JS-engine module, 14 of ~1,100 bodies have one). Other modules are decoded whole.
  const oneMemory = layout.memories.length === 1 && !layout.imports.some((i) => i.kind === 'memory');
  const c = new Cursor(bytes, code.contentStart);
  const count = c.u32();
  const sites: number[] = [];
  const bodies: number[] = [];
  for (let n = 0; n < count; n++) {
    const entry = c.offset;
    const size = c.u32();
    const start = c.offset;
    const first = sites.length;
    const found = !oneMemory || mayGrow(bytes, start, start + size) ? scanBody(c, start, start + size, sites) : 0;
    let rewritten = size;
    for (let s = first; s < sites.length; s += 2) rewritten += call.length - ((sites[s + 1] as number) - (sites[s] as number));
    bodies.push(entry, start, start + size, first, found, rewritten);
    c.offset = start + size;
  }
  if (sites.length === 0) return undefined;
  // (param $delta i32) (result i32) (local $r i32):
  //   local.get 0; memory.grow 0; local.tee 1; i32.const -1; i32.eq; if; i32.const 1; global.set $flag; end; local.get 1
  const helper = [0x01, 0x01, 0x7f, 0x20, 0x00, 0x40, 0x00, 0x22, 0x01, 0x41, 0x7f, 0x46, 0x04, 0x40, 0x41, 0x01, 0x24, ...leb(flagIndex), 0x0b, 0x20, 0x01, 0x0b];

  const name = new TextEncoder().encode(GROW_FAILED_GLOBAL);
  const replacements = new Map<number, Piece>([
    ...[...(others ?? [])].map(([id, section]): [number, Piece] => [id, piece(section)]),
    [SectionId.type, piece(encodeSection(SectionId.type, appendToVector(bytes, types, [0x60, 0x01, 0x7f, 0x01, 0x7f], 1)))],
    [SectionId.function, piece(encodeSection(SectionId.function, appendToVector(bytes, functions, leb(typeIndex), 1)))],
    [SectionId.global, piece(encodeSection(SectionId.global, appendToVector(bytes, globals, [0x7f, 0x01, 0x41, 0x00, 0x0b], 1)))],
    [SectionId.export, piece(encodeSection(SectionId.export, appendToVector(bytes, exports, [...leb(name.length), ...name, 0x03, ...leb(flagIndex)], 1)))],
    [SectionId.code, codePiece(bytes, bodies, sites, call, helper)],
  ]);
  return assemble(bytes, layout.sections, replacements);
}

/**
 * Rebuilds the module: sections replaced in place, missing ones inserted where the format wants
 * them; sized first, then written into one buffer (no intermediate copy of the code).
 */
function assemble(bytes: Uint8Array, sections: readonly { id: number; start: number; end: number }[], replacements: Map<number, Piece>): Uint8Array {
  const parts: Piece[] = [piece(bytes.subarray(0, 8))];
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
    } else parts.push(piece(bytes.subarray(section.start, section.end)));
  }
  for (const [id, replacement] of [...pending].sort((a, b) => (ORDER[a[0]] as number) - (ORDER[b[0]] as number))) {
    parts.push(replacement);
    pending.delete(id);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    part.write(out, offset);
    offset += part.length;
  }
  return out;
}
