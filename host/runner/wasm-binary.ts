/**
 * A minimal reader/writer for the parts of the WebAssembly binary format the
 * runner needs on the load path: section boundaries, imports, exports and
 * memory limits. Hand-written on purpose: binaryen takes hundreds of
 * milliseconds on a JS-engine-sized module, this takes microseconds.
 */

/** WebAssembly page size in bytes. */
export const WASM_PAGE_BYTES = 65_536;

const MAGIC = [0x00, 0x61, 0x73, 0x6d];
const VERSION = [0x01, 0x00, 0x00, 0x00];

export const SectionId = { custom: 0, type: 1, import: 2, function: 3, table: 4, memory: 5, global: 6, export: 7, start: 8, code: 10 } as const;

export interface Section {
  readonly id: number;
  /** Offset of the section id byte. */
  readonly start: number;
  /** Offset of the first content byte (after the size). */
  readonly contentStart: number;
  /** Offset just past the section. */
  readonly end: number;
}

export interface MemoryLimits {
  readonly flags: number;
  readonly min: number;
  readonly max: number | undefined;
  readonly shared: boolean;
  readonly memory64: boolean;
}

export interface ImportEntry {
  readonly module: string;
  readonly name: string;
  readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  /** Offset of the module name's bytes (after its length), for same-length renames. */
  readonly moduleOffset: number;
  readonly memory?: MemoryLimits;
}

export interface ExportEntry {
  readonly name: string;
  readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  /** Offset of the name's bytes (after its length), for same-length renames. */
  readonly nameOffset: number;
}

export interface WasmLayout {
  readonly sections: readonly Section[];
  readonly imports: readonly ImportEntry[];
  readonly exports: readonly ExportEntry[];
  /** Memories the module defines itself (the memory section). */
  readonly memories: readonly MemoryLimits[];
  readonly hasStart: boolean;
}

const KINDS = ['function', 'table', 'memory', 'global', 'tag'] as const;

/** Thrown for bytes that are not a well-formed module; callers wrap it in a `HookLoadError`. */
export class WasmFormatError extends Error {
  override name = 'WasmFormatError';
}

/** A cursor over module bytes: one byte, or an unsigned LEB128, at a time, bounded by `limit`. */
export class Reader {
  offset: number;
  constructor(
    readonly bytes: Uint8Array,
    offset: number,
    readonly limit: number,
  ) {
    this.offset = offset;
  }

  byte(): number {
    if (this.offset >= this.limit) throw new WasmFormatError(`unexpected end of data at byte ${this.offset}`);
    return this.bytes[this.offset++] as number;
  }

  /** Unsigned LEB128 up to 53 bits (enough for u32 and realistic u64 limits). */
  leb(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new WasmFormatError(`LEB128 too long at byte ${this.offset}`);
  }

  name(): { text: string; offset: number } {
    const length = this.leb();
    const offset = this.offset;
    if (offset + length > this.limit) throw new WasmFormatError(`name overruns its section at byte ${offset}`);
    this.offset += length;
    return { text: new TextDecoder('utf-8', { fatal: false }).decode(this.bytes.subarray(offset, offset + length)), offset };
  }

  limits(): MemoryLimits {
    const flags = this.byte();
    if (flags > 0x0f) throw new WasmFormatError(`unknown limits flags 0x${flags.toString(16)}`);
    const min = this.leb();
    const max = (flags & 1) === 1 ? this.leb() : undefined;
    if ((flags & 8) === 8) this.leb(); // custom page size (log2); refused later as memory64-like oddity
    return { flags, min, max, shared: (flags & 2) === 2, memory64: (flags & 4) === 4 || (flags & 8) === 8 };
  }
}

/** Parses section boundaries, imports, exports and memory limits. */
export function parseWasm(bytes: Uint8Array): WasmLayout {
  if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new WasmFormatError('not a WebAssembly module (bad magic number)');
  }
  if (VERSION.some((b, i) => bytes[4 + i] !== b)) throw new WasmFormatError('unsupported WebAssembly binary version');
  const sections: Section[] = [];
  const imports: ImportEntry[] = [];
  const exports: ExportEntry[] = [];
  const memories: MemoryLimits[] = [];
  let hasStart = false;
  const top = new Reader(bytes, 8, bytes.length);
  while (top.offset < bytes.length) {
    const start = top.offset;
    const id = top.byte();
    const size = top.leb();
    const contentStart = top.offset;
    const end = contentStart + size;
    if (end > bytes.length) throw new WasmFormatError(`section ${id} overruns the module`);
    sections.push({ id, start, contentStart, end });
    const r = new Reader(bytes, contentStart, end);
    if (id === SectionId.import) readImports(r, imports);
    else if (id === SectionId.export) readExports(r, exports);
    else if (id === SectionId.memory) {
      for (let n = r.leb(); n > 0; n--) memories.push(r.limits());
    } else if (id === SectionId.start) hasStart = true;
    top.offset = end;
  }
  return { sections, imports, exports, memories, hasStart };
}

function readImports(r: Reader, out: ImportEntry[]): void {
  for (let n = r.leb(); n > 0; n--) {
    const module = r.name();
    const name = r.name().text;
    const kindByte = r.byte();
    const kind = KINDS[kindByte];
    if (kind === undefined) throw new WasmFormatError(`unknown import kind ${kindByte}`);
    let memory: MemoryLimits | undefined;
    if (kind === 'function') r.leb();
    else if (kind === 'table') {
      r.byte();
      r.limits();
    } else if (kind === 'memory') memory = r.limits();
    else if (kind === 'global') {
      r.byte();
      r.byte();
    } else {
      r.byte();
      r.leb();
    }
    out.push({ module: module.text, name, kind, moduleOffset: module.offset, ...(memory && { memory }) });
  }
}

function readExports(r: Reader, out: ExportEntry[]): void {
  for (let n = r.leb(); n > 0; n--) {
    const name = r.name();
    const kindByte = r.byte();
    const kind = KINDS[kindByte];
    if (kind === undefined) throw new WasmFormatError(`unknown export kind ${kindByte}`);
    r.leb();
    out.push({ name: name.text, kind, nameOffset: name.offset });
  }
}

/** Unsigned LEB128 encoding. */
export function leb(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return out;
}

/** A section: id, LEB size, content. */
export function encodeSection(id: number, content: readonly number[] | Uint8Array): Uint8Array {
  const head = [id, ...leb(content.length)];
  const out = new Uint8Array(head.length + content.length);
  out.set(head, 0);
  out.set(content, head.length);
  return out;
}

/** A name: LEB length + UTF-8 bytes. */
export function encodeName(text: string): number[] {
  const bytes = new TextEncoder().encode(text);
  return [...leb(bytes.length), ...bytes];
}

/** Replaces the byte range of one section with new bytes (which may differ in size). */
export function replaceSection(bytes: Uint8Array, section: Section, replacement: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - (section.end - section.start) + replacement.length);
  out.set(bytes.subarray(0, section.start), 0);
  out.set(replacement, section.start);
  out.set(bytes.subarray(section.end), section.start + replacement.length);
  return out;
}

export const WASM_HEADER: readonly number[] = [...MAGIC, ...VERSION];

/**
 * A file's bytes as a plain `Uint8Array`, without copying them when the
 * Buffer owns its whole ArrayBuffer (`readFile` gives a module-sized file a
 * buffer of its own); a copy otherwise (a small Buffer can share a pool with
 * others). Plain, not a Buffer: `Buffer#slice` returns a view, and
 * module-prep.ts patches a `slice()` of the bytes in place. A copy of a
 * 1.4 MB module cost 5–14 ms on the VMs we measure on, where fresh pages
 * fault slowly.
 */
export function fileBytes(buffer: Uint8Array): Uint8Array {
  return buffer.buffer.byteLength === buffer.byteLength
    ? new Uint8Array(buffer.buffer, 0, buffer.byteLength)
    : new Uint8Array(buffer);
}
