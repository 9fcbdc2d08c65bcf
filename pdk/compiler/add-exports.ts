/**
 * Adds one wasm export per hook function to the pre-initialized snapshot:
 * export `k` is a `() -> i32` shim calling the engine's `__hookbox_call(k)`,
 * and `__hookbox_call` itself stops being exported.
 *
 * A direct rewrite of four sections (type, function, export, code) rather
 * than binaryen.js: binaryen re-encodes the whole ~1 MB module, which cost
 * ~3 s per build here against a budget of 1.5 s; this takes milliseconds and
 * leaves every other byte as Wizer wrote it.
 */
import { BuildError } from '../../host/errors.ts';
import { HOST_DISPATCH_EXPORT } from './host-functions.ts';

const CALL_EXPORT = '__hookbox_call';
const SECTION = { type: 1, import: 2, function: 3, export: 7, code: 10 } as const;

class Reader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.pos >= this.bytes.length) throw new BuildError('malformed wasm: unexpected end');
    return this.bytes[this.pos++] as number;
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  }
  skip(n: number): void {
    this.pos += n;
  }
  name(): string {
    const len = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + len));
    this.pos += len;
    return text;
  }
  limits(): void {
    const flags = this.byte();
    this.u32();
    if (flags & 1) this.u32();
  }
}

/** Unsigned LEB128 of `n`. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

const nameBytes = (s: string): number[] => {
  const data = Array.from(new TextEncoder().encode(s));
  return [...uleb(data.length), ...data];
};

interface Section {
  id: number;
  body: Uint8Array;
}

function sections(wasm: Uint8Array): Section[] {
  const r = new Reader(wasm);
  r.skip(8);
  const out: Section[] = [];
  while (r.pos < wasm.length) {
    const id = r.byte();
    const size = r.u32();
    out.push({ id, body: wasm.subarray(r.pos, r.pos + size) });
    r.skip(size);
  }
  return out;
}

/** A vector section's element count and the bytes after it. */
function vector(body: Uint8Array): { count: number; rest: Uint8Array } {
  const r = new Reader(body);
  const count = r.u32();
  return { count, rest: body.subarray(r.pos) };
}

function importedFunctions(body: Uint8Array): number {
  const r = new Reader(body);
  let funcs = 0;
  for (let n = r.u32(); n > 0; n--) {
    r.name();
    r.name();
    const kind = r.byte();
    if (kind === 0x00) {
      funcs++;
      r.u32();
    } else if (kind === 0x01) {
      r.byte();
      r.limits();
    } else if (kind === 0x02) {
      r.limits();
    } else if (kind === 0x03) {
      r.skip(2);
    } else if (kind === 0x04) {
      r.byte();
      r.u32();
    } else {
      throw new BuildError(`malformed wasm: import kind ${kind}`);
    }
  }
  return funcs;
}

/**
 * Returns the module with `names[k]` exported as a shim for `__hookbox_call(k)`.
 * The engine's host-function dispatch export is dropped too, unless `keepHostDispatch`
 * (host-functions.ts rewrites it next).
 */
export function addExports(wasm: Uint8Array, names: readonly string[], options: { keepHostDispatch?: boolean } = {}): Uint8Array {
  const all = sections(wasm);
  const find = (id: number) => all.find((s) => s.id === id);
  const types = find(SECTION.type);
  const funcs = find(SECTION.function);
  const exps = find(SECTION.export);
  const code = find(SECTION.code);
  if (!types || !funcs || !exps || !code) throw new BuildError('the engine snapshot lacks a type, function, export or code section');
  const imports = find(SECTION.import);
  const funcBase = (imports ? importedFunctions(imports.body) : 0) + vector(funcs.body).count;

  // The shim type `() -> i32`, appended (duplicates are valid and keep other indices stable).
  const typeVec = vector(types.body);
  const shimType = typeVec.count;
  types.body = new Uint8Array([...uleb(typeVec.count + 1), ...typeVec.rest, 0x60, 0x00, 0x01, 0x7f]);

  const funcVec = vector(funcs.body);
  funcs.body = new Uint8Array([...uleb(funcVec.count + names.length), ...funcVec.rest, ...names.flatMap(() => uleb(shimType))]);

  // Exports: keep all but __hookbox_call (whose function index the shims call), then add the shims.
  const r = new Reader(exps.body);
  const kept: number[] = [];
  const existing = new Set<string>();
  let callIndex = -1;
  for (let n = r.u32(); n > 0; n--) {
    const start = r.pos;
    const name = r.name();
    const kind = r.byte();
    const index = r.u32();
    if (name === CALL_EXPORT && kind === 0x00) {
      callIndex = index;
    } else if (name === HOST_DISPATCH_EXPORT && options.keepHostDispatch !== true) {
      // Dropped: nothing in the plugin calls host functions through it.
    } else {
      kept.push(...exps.body.subarray(start, r.pos));
      existing.add(name);
    }
  }
  if (callIndex < 0) throw new BuildError(`the engine does not export ${CALL_EXPORT}`);
  const exportEntries = names.flatMap((name, k) => {
    if (existing.has(name)) throw new BuildError(`export "${name}" clashes with an engine export`);
    return [...nameBytes(name), 0x00, ...uleb(funcBase + k)];
  });
  exps.body = new Uint8Array([...uleb(existing.size + names.length), ...kept, ...exportEntries]);

  const codeVec = vector(code.body);
  const bodies = names.flatMap((_, k) => {
    const body = [0x00, 0x41, ...sleb(k), 0x10, ...uleb(callIndex), 0x0b]; // no locals; i32.const k; call; end
    return [...uleb(body.length), ...body];
  });
  code.body = concat([new Uint8Array(uleb(codeVec.count + names.length)), codeVec.rest, new Uint8Array(bodies)]);

  const parts: Uint8Array[] = [wasm.subarray(0, 8)];
  for (const s of all) parts.push(new Uint8Array([s.id, ...uleb(s.body.length)]), s.body);
  return concat(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
