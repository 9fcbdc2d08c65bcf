// The hook-side msgpack codec against msgpackr, which the host uses on the other side of the wire.
import { pack, unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../pdk/runtime/msgpack.ts';

const SAMPLES: unknown[] = [
  null,
  true,
  false,
  0,
  127,
  128,
  255,
  256,
  65535,
  65536,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 53,
  -1,
  -32,
  -33,
  -128,
  -129,
  -32768,
  -32769,
  -(2 ** 31),
  -(2 ** 31) - 1,
  1.5,
  -0.25,
  '',
  'a',
  'é✓'.repeat(20),
  'x'.repeat(70_000),
  [],
  [1, [2, [3]]],
  new Array(20).fill('y'),
  { action: 'allow', nested: { a: null, b: [true, false] } },
  Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])),
];

describe('pdk msgpack codec', () => {
  it.each(SAMPLES.map((s) => [s]))('round-trips %# with msgpackr both ways', (value) => {
    expect(unpack(encode(value))).toEqual(value);
    expect(decode(pack(value))).toEqual(value);
    expect(decode(encode(value))).toEqual(value);
  });

  it('leaves undefined-valued keys off the wire (strict decision schemas)', () => {
    expect(unpack(encode({ action: 'allow', reason: undefined }))).toEqual({ action: 'allow' });
    expect(Object.keys(decode(encode({ a: 1, b: undefined })) as object)).toEqual(['a']);
  });

  it('decodes msgpackr undefined, bytes and big integers', () => {
    expect(decode(pack({ a: undefined }))).toEqual({ a: undefined });
    expect(decode(pack(new Uint8Array([1, 2, 3])))).toEqual(new Uint8Array([1, 2, 3]));
    expect(decode(pack(2n ** 63n))).toBe(2n ** 63n);
  });

  it('keeps a __proto__ key as data', () => {
    const value = decode(pack(JSON.parse('{"__proto__": {"polluted": true}}'))) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('rejects truncated input and trailing bytes', () => {
    expect(() => decode(encode('hello').subarray(0, 3))).toThrow(/truncated/);
    expect(() => decode(new Uint8Array([0xc0, 0xc0]))).toThrow(/trailing/);
  });
});
