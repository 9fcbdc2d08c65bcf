/**
 * Retained pack buffers for call inputs (input-lease.ts): a small input is
 * an exact-size copy and its buffer is packed into again at once; a big one
 * is the packed view itself, lent with its buffer until released, and the
 * buffer is packed into again after that, never while lent. The idle list
 * keeps at most 64 MiB of written bytes, and no buffer over 64 MiB.
 * The module keeps its idle list across tests in this file, so each test
 * first lends out whatever earlier tests left idle (`drainIdle`).
 */
import { describe, expect, it } from 'vitest';
import { LEASE_MIN_BYTES, idleInputBuffers, packInput, releaseInput } from '../../host/runner/input-lease.ts';

const KIB = 1024;
const MIB = KIB * KIB;

/**
 * A pack function that writes `length` bytes of `seed` from the start of the
 * buffer it is given, or, when that is short, of a bigger one it allocates
 * (as msgpackr does); records the buffer it was given in `seen`.
 */
function writer(length: number, seed: number, seen?: Buffer[]) {
  return (buffer: Buffer): Uint8Array => {
    seen?.push(buffer);
    const target = buffer.byteLength >= length ? buffer : Buffer.allocUnsafeSlow(length + 64 * KIB);
    target.fill(seed, 0, length);
    return target.subarray(0, length);
  };
}

/** The buffer `packInput` hands its pack function next (a 1-byte input: the buffer goes straight back). */
function nextBuffer(): ArrayBufferLike {
  const seen: Buffer[] = [];
  packInput(writer(1, 0, seen));
  return (seen[0] as Buffer).buffer;
}

/** Lends out every idle buffer, so a test starts with none; returns the leases to give back at its end. */
function drainIdle(): Uint8Array[] {
  const held: Uint8Array[] = [];
  while (idleInputBuffers().buffers > 0) {
    // Each lease holds one buffer, so this ends unless a lease does not hold its buffer.
    if (held.length === 100) throw new Error('the idle list does not shrink while its buffers are lent');
    held.push(packInput(writer(LEASE_MIN_BYTES, 0)));
  }
  return held;
}

const all = (bytes: Uint8Array, value: number): boolean => bytes.every((b) => b === value);

describe('packInput', () => {
  it('copies an input below 64 KiB out exact-size; its buffer goes straight back idle', () => {
    const held = drainIdle();
    const seen: Buffer[] = [];
    const copy = packInput(writer(LEASE_MIN_BYTES - 1, 7, seen));
    expect(copy.byteLength).toBe(LEASE_MIN_BYTES - 1);
    expect(copy.buffer.byteLength).toBe(LEASE_MIN_BYTES - 1);
    expect(copy.buffer).not.toBe((seen[0] as Buffer).buffer);
    expect(all(copy, 7)).toBe(true);
    expect(idleInputBuffers()).toEqual({ buffers: 1, writtenBytes: LEASE_MIN_BYTES - 1 });
    expect(nextBuffer()).toBe((seen[0] as Buffer).buffer);
    releaseInput(copy); // a copy was never lent: a no-op
    expect(idleInputBuffers().buffers).toBe(1);
    held.forEach(releaseInput);
  });

  it('lends a big input as the packed view itself, and packs into its buffer again only once it is released', () => {
    const held = drainIdle();
    let packed: Uint8Array | undefined;
    const lease = packInput((buffer) => (packed = writer(200 * KIB, 1)(buffer)));
    expect(lease).toBe(packed); // no copy
    expect(idleInputBuffers().buffers).toBe(0);
    // While lent, the next input is packed elsewhere and the lent bytes stay as they were.
    const other = packInput(writer(200 * KIB, 2));
    expect(other.buffer).not.toBe(lease.buffer);
    expect(all(lease, 1)).toBe(true);
    releaseInput(lease);
    releaseInput(lease); // twice: the buffer is not handed out twice
    expect(idleInputBuffers()).toEqual({ buffers: 1, writtenBytes: 200 * KIB });
    const again = packInput(writer(150 * KIB, 3));
    expect(again.buffer).toBe(lease.buffer);
    const third = packInput(writer(150 * KIB, 4));
    expect(third.buffer).not.toBe(lease.buffer);
    expect(all(again, 3)).toBe(true);
    [other, again, third, ...held].forEach(releaseInput);
  });

  it('keeps the bigger buffer the pack function moved to, and hands out the roomiest idle buffer first', () => {
    const held = drainIdle();
    const grown = packInput(writer(300 * KIB, 5)); // a fresh 64 KiB buffer was short: the writer moved to a 364 KiB one
    expect(grown.buffer.byteLength).toBe(364 * KIB);
    const small = packInput(writer(100 * KIB, 6)); // 164 KiB
    releaseInput(small);
    releaseInput(grown);
    expect(idleInputBuffers()).toEqual({ buffers: 2, writtenBytes: 400 * KIB });
    expect(nextBuffer()).toBe(grown.buffer); // roomiest first, though given back last…
    const lease = packInput(writer(100 * KIB, 7));
    expect(lease.buffer).toBe(grown.buffer); // …and again once idle
    const next = packInput(writer(100 * KIB, 8));
    expect(next.buffer).toBe(small.buffer);
    [lease, next, ...held].forEach(releaseInput);
  });

  it('gives the buffer back when the pack function throws', () => {
    const held = drainIdle();
    releaseInput(packInput(writer(100 * KIB, 1)));
    const before = idleInputBuffers();
    const given: Buffer[] = [];
    expect(() =>
      packInput((buffer) => {
        given.push(buffer);
        throw new Error('cannot pack');
      }),
    ).toThrow('cannot pack');
    expect(idleInputBuffers()).toEqual(before);
    expect(nextBuffer()).toBe((given[0] as Buffer).buffer);
    held.forEach(releaseInput);
  });

  it('keeps at most 64 MiB of written bytes idle, and no buffer over 64 MiB', () => {
    const held = drainIdle();
    const a = packInput(writer(40 * MIB, 1));
    const b = packInput(writer(30 * MIB, 2));
    const huge = packInput(() => Buffer.allocUnsafeSlow(65 * MIB).fill(3, 0, 100 * KIB).subarray(0, 100 * KIB));
    releaseInput(a);
    releaseInput(b); // 40 + 30 MiB written > 64: dropped
    releaseInput(huge); // a 65 MiB buffer: dropped, though only 100 KiB of it was written
    expect(idleInputBuffers()).toEqual({ buffers: 1, writtenBytes: 40 * MIB });
    expect(nextBuffer()).toBe(a.buffer);
    held.forEach(releaseInput);
  });

  it('ignores arrays it never lent', () => {
    const held = drainIdle();
    releaseInput(new Uint8Array(new ArrayBuffer(4 * MIB)));
    releaseInput(Buffer.allocUnsafeSlow(LEASE_MIN_BYTES));
    expect(idleInputBuffers().buffers).toBe(0);
    held.forEach(releaseInput);
  });
});
