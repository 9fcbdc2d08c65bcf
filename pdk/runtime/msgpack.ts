/**
 * A minimal MessagePack codec for the hook side of the wire: it runs inside
 * QuickJS, where msgpackr's size and its `new Function` record fast paths buy
 * nothing. Decodes everything msgpackr's `pack` writes for plain data (nil,
 * booleans, every int and float width, str, bin, array, map, msgpackr's
 * `undefined`; other extensions → error);
 * encodes plain data, leaving out object keys whose value is `undefined`
 * (strict seam schemas refuse them).
 */

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

class Reader {
  private pos = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  done(): boolean {
    return this.pos === this.bytes.length;
  }

  private need(n: number): number {
    const at = this.pos;
    if (at + n > this.bytes.length) throw new RangeError(`msgpack: truncated input at byte ${at}`);
    this.pos = at + n;
    return at;
  }

  private str(n: number): string {
    const at = this.need(n);
    return utf8Decoder.decode(this.bytes.subarray(at, at + n));
  }

  private bin(n: number): Uint8Array {
    const at = this.need(n);
    return new Uint8Array(this.bytes.subarray(at, at + n)); // a copy, and a plain Uint8Array even over a Buffer
  }

  private array(n: number): unknown[] {
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = this.value();
    return out;
  }

  private map(n: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const key = this.value();
      const value = this.value();
      // defineProperty, not assignment: a `__proto__` key must stay data.
      Object.defineProperty(out, String(key), { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  // msgpackr writes `undefined` as fixext1 type 0; no other extension is plain data.
  private fixext1(): undefined {
    const at = this.need(2);
    if (this.bytes[at] !== 0) throw new TypeError(`msgpack: unsupported extension type ${String(this.bytes[at])}`);
    return undefined;
  }

  value(): unknown {
    const b = this.bytes[this.need(1)] as number;
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    if ((b & 0xf0) === 0x80) return this.map(b & 0x0f);
    if ((b & 0xf0) === 0x90) return this.array(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return this.str(b & 0x1f);
    const v = this.view;
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return this.bin(v.getUint8(this.need(1)));
      case 0xc5: return this.bin(v.getUint16(this.need(2)));
      case 0xc6: return this.bin(v.getUint32(this.need(4)));
      case 0xca: return v.getFloat32(this.need(4));
      case 0xcb: return v.getFloat64(this.need(8));
      case 0xcc: return v.getUint8(this.need(1));
      case 0xcd: return v.getUint16(this.need(2));
      case 0xce: return v.getUint32(this.need(4));
      case 0xcf: return bigToNumber(v.getBigUint64(this.need(8)));
      case 0xd0: return v.getInt8(this.need(1));
      case 0xd1: return v.getInt16(this.need(2));
      case 0xd2: return v.getInt32(this.need(4));
      case 0xd3: return bigToNumber(v.getBigInt64(this.need(8)));
      case 0xd9: return this.str(v.getUint8(this.need(1)));
      case 0xda: return this.str(v.getUint16(this.need(2)));
      case 0xdb: return this.str(v.getUint32(this.need(4)));
      case 0xdc: return this.array(v.getUint16(this.need(2)));
      case 0xdd: return this.array(v.getUint32(this.need(4)));
      case 0xde: return this.map(v.getUint16(this.need(2)));
      case 0xdf: return this.map(v.getUint32(this.need(4)));
      case 0xd4: return this.fixext1();
      default: throw new TypeError(`msgpack: unsupported type byte 0x${b.toString(16)}`);
    }
  }
}

// Like msgpackr's default: 64-bit ints come back as numbers when they fit exactly.
function bigToNumber(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** Decodes one MessagePack value that spans all of `bytes`. */
export function decode(bytes: Uint8Array): unknown {
  const reader = new Reader(bytes);
  const value = reader.value();
  if (!reader.done()) throw new RangeError('msgpack: trailing bytes after the value');
  return value;
}

class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private pos = 0;

  private room(n: number): number {
    if (this.pos + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
      next.set(this.buf.subarray(0, this.pos));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    const at = this.pos;
    this.pos += n;
    return at;
  }

  private byte(b: number): void {
    const at = this.room(1); // may replace this.buf
    this.buf[at] = b;
  }

  private head(n: number, fix: number, fixMax: number, t8: number, t16: number, t32: number): void {
    if (n <= fixMax && fix >= 0) this.byte(fix | n);
    else if (n <= 0xff && t8 >= 0) {
      this.byte(t8);
      this.byte(n);
    } else if (n <= 0xffff) this.typed(t16, 2, (v, at) => v.setUint16(at, n));
    else this.typed(t32, 4, (v, at) => v.setUint32(at, n));
  }

  private typed(type: number, width: number, set: (view: DataView, at: number) => void): void {
    this.byte(type);
    const at = this.room(width); // may replace this.view
    set(this.view, at);
  }

  private number(n: number): void {
    if (!Number.isInteger(n) || n < -0x80000000 || n > 0xffffffff || Object.is(n, -0)) {
      this.typed(0xcb, 8, (v, at) => v.setFloat64(at, n));
    } else if (n >= 0) {
      if (n <= 0x7f) this.byte(n);
      else if (n <= 0xff) this.typed(0xcc, 1, (v, at) => v.setUint8(at, n));
      else if (n <= 0xffff) this.typed(0xcd, 2, (v, at) => v.setUint16(at, n));
      else this.typed(0xce, 4, (v, at) => v.setUint32(at, n));
    } else if (n >= -32) this.byte(n + 0x100);
    else if (n >= -0x80) this.typed(0xd0, 1, (v, at) => v.setInt8(at, n));
    else if (n >= -0x8000) this.typed(0xd1, 2, (v, at) => v.setInt16(at, n));
    else this.typed(0xd2, 4, (v, at) => v.setInt32(at, n));
  }

  private raw(data: Uint8Array): void {
    const at = this.room(data.length); // may replace this.buf
    this.buf.set(data, at);
  }

  private bytes(data: Uint8Array): void {
    this.head(data.length, -1, -1, 0xc4, 0xc5, 0xc6);
    this.raw(data);
  }

  value(v: unknown): void {
    switch (typeof v) {
      case 'string': {
        const data = utf8Encoder.encode(v);
        this.head(data.length, 0xa0, 31, 0xd9, 0xda, 0xdb);
        this.raw(data);
        return;
      }
      case 'number':
        return this.number(v);
      case 'boolean':
        return this.byte(v ? 0xc3 : 0xc2);
      case 'bigint':
        if (v >= 0n) this.typed(0xcf, 8, (view, at) => view.setBigUint64(at, v));
        else this.typed(0xd3, 8, (view, at) => view.setBigInt64(at, v));
        return;
      case 'undefined':
        return this.byte(0xc0);
      case 'object':
        if (v === null) return this.byte(0xc0);
        if (v instanceof Uint8Array) return this.bytes(v);
        if (v instanceof ArrayBuffer) return this.bytes(new Uint8Array(v));
        if (Array.isArray(v)) {
          this.head(v.length, 0x90, 15, -1, 0xdc, 0xdd);
          for (const item of v) this.value(item);
          return;
        }
        return this.object(v as Record<string, unknown>);
      default:
        throw new TypeError(`msgpack: cannot encode a ${typeof v}`);
    }
  }

  private object(obj: Record<string, unknown>): void {
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function');
    this.head(keys.length, 0x80, 15, -1, 0xde, 0xdf);
    for (const key of keys) {
      this.value(key);
      this.value(obj[key]);
    }
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** Encodes plain data as MessagePack; `undefined`-valued object keys are left out. */
export function encode(value: unknown): Uint8Array {
  const writer = new Writer();
  writer.value(value);
  return writer.result();
}
