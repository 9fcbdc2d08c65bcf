/**
 * Retained buffers for big call inputs (input-lease.ts): small inputs are
 * exact copies, big ones land in a power-of-two buffer that is reused, best
 * fit first, once given back, and at most 64 MiB of idle buffers is kept.
 * The module keeps its idle list across tests in this file, so each test
 * uses sizes no earlier test left behind.
 */
import { describe, expect, it } from 'vitest';
import { copyInput, releaseInput } from '../../host/runner/input-lease.ts';

const KIB = 1024;
const MIB = KIB * KIB;

function filled(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 4093) bytes[i] = (seed + i) & 0xff;
  bytes[length - 1] = seed;
  return bytes;
}

/** Identity and content checks that never ask vitest to diff megabytes of bytes. */
const same = (a: Uint8Array, b: Uint8Array): boolean => a.buffer === b.buffer;
const equal = (a: Uint8Array, b: Uint8Array): boolean => a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

describe('copyInput', () => {
  it('copies an input below 64 KiB into an exact-size buffer of its own; releasing it keeps nothing', () => {
    const source = filled(64 * KIB - 1, 7);
    const copy = copyInput(source);
    expect(equal(copy, source)).toBe(true);
    expect(same(copy, source)).toBe(false);
    expect(copy.buffer.byteLength).toBe(64 * KIB - 1);
    releaseInput(copy);
    const again = copyInput(source);
    expect(same(again, copy)).toBe(false);
  });

  it('keeps at most 64 MiB of idle buffers: a release past it drops the buffer', () => {
    // No idle buffer yet (the test before leases none).
    const whole = copyInput(filled(40 * MIB, 1)); // a 64 MiB buffer: exactly the cap
    const extra = copyInput(filled(8 * MIB + 1, 2)); // 16 MiB
    releaseInput(whole);
    releaseInput(extra); // 64 + 16 > 64: dropped
    const next = copyInput(filled(9 * MIB, 3));
    expect(same(next, whole)).toBe(true); // the only idle buffer that fits; `extra`'s was not kept
    // `next` is not given back: the tests after this one start with no idle buffer.
  });

  it('takes the smaller idle buffer when it was given back first (first in the idle list)', () => {
    // No idle buffer yet: these two are the whole list, the smaller at its head. Both are taken again, so none is left.
    const [small, large] = [copyInput(filled(1100 * KIB, 7)), copyInput(filled(2100 * KIB, 8))]; // 2 and 4 MiB buffers
    for (const view of [small, large]) releaseInput(view);
    expect(same(copyInput(filled(1500 * KIB, 9)), small)).toBe(true);
    expect(same(copyInput(filled(1500 * KIB, 10)), large)).toBe(true);
  });

  it('puts an input of 64 KiB or more in a buffer of the next power of two, and reuses it once released', () => {
    const source = filled(64 * KIB, 1);
    const copy = copyInput(source);
    expect(equal(copy, source)).toBe(true);
    expect(copy.byteLength).toBe(64 * KIB);
    expect(copy.buffer.byteLength).toBe(64 * KIB);
    const odd = copyInput(filled(65 * KIB, 2));
    expect(odd.byteLength).toBe(65 * KIB);
    expect(odd.buffer.byteLength).toBe(128 * KIB);
    // Not released yet: a new input of the same size gets another buffer.
    const other = copyInput(filled(64 * KIB, 3));
    expect(same(other, copy)).toBe(false);
    releaseInput(copy);
    const reused = copyInput(filled(64 * KIB, 4));
    expect(same(reused, copy)).toBe(true);
    expect(equal(reused, filled(64 * KIB, 4))).toBe(true);
    for (const view of [odd, other, reused]) releaseInput(view);
  });

  it('takes the smallest idle buffer that fits, and each buffer once', () => {
    const large = copyInput(filled(900 * KIB, 1)); // 1 MiB buffer
    const small = copyInput(filled(300 * KIB, 2)); // 512 KiB buffer
    releaseInput(large);
    releaseInput(small);
    const first = copyInput(filled(260 * KIB, 3));
    expect(same(first, small)).toBe(true);
    const second = copyInput(filled(260 * KIB, 4));
    expect(same(second, large)).toBe(true);
    const third = copyInput(filled(260 * KIB, 5));
    expect(third.buffer.byteLength).toBe(512 * KIB);
    expect(same(third, small)).toBe(false);
    expect(same(third, large)).toBe(false);
    // An idle buffer too small for the input is never taken.
    releaseInput(first);
    const bigger = copyInput(filled(600 * KIB, 6));
    expect(same(bigger, first)).toBe(false);
    expect(bigger.buffer.byteLength).toBe(1 * MIB);
  });

  it('ignores a second release of the same view and arrays it never leased', () => {
    const view = copyInput(filled(2 * MIB + 1, 9)); // 4 MiB buffer
    releaseInput(view);
    releaseInput(view);
    releaseInput(new Uint8Array(new ArrayBuffer(4 * MIB)));
    const a = copyInput(filled(3 * MIB, 1));
    const b = copyInput(filled(3 * MIB, 2));
    expect(same(a, view)).toBe(true);
    expect(same(b, view)).toBe(false);
  });

});
