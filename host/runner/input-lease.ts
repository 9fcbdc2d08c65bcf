/**
 * Retained buffers that call inputs are packed into. The first touch of
 * fresh memory costs a page fault per 4 KiB page: ~3.5 ms per MiB on the
 * 2-core bench VM, where copying into pages already touched costs ~0.05 ms
 * per MiB. So envelopes are packed into buffers kept from call to call, and a
 * big envelope is handed out as a view of the buffer it was packed into
 * (leased): no copy at all. The buffer goes back to the idle list when the
 * runner releases the input (once it is in the worker's channel), and the
 * next envelope is packed into it.
 *
 * A pack buffer is much bigger than what it holds (msgpackr reserves 3 bytes
 * per character before writing a string: a 4 MiB string needs 12 MiB of room
 * and msgpackr then grows its buffer to four times that need), but only the
 * bytes written are ever touched, so only those are resident: the idle list
 * is capped by that figure, and a buffer past `MAX_BUFFER_BYTES` is not kept.
 *
 * Small envelopes are copied out exact-size (V8's heap serves them from pages
 * it already has) and their pack buffer goes straight back. A leased input
 * that is never released is simply garbage collected, buffer and all.
 */

/** Envelopes below this size are exact-size copies; from it on they are leased views. */
export const LEASE_MIN_BYTES = 64 * 1024;
/** Bytes written into idle buffers (their resident part), in total; a release beyond it drops the buffer. */
const MAX_RETAINED_BYTES = 64 << 20;
/** A pack buffer bigger than this (msgpackr grew it for a huge string) is not kept once its call is over. */
const MAX_BUFFER_BYTES = 64 << 20;
/** What a pack buffer starts at when no idle one is left (msgpackr grows it as it needs). */
const FRESH_BYTES = 64 * 1024;

/** A retained buffer and how much of it was ever written (what of it is resident). */
interface PackBuffer {
  readonly buffer: Buffer;
  touched: number;
}

const idle: PackBuffer[] = [];
let idleTouched = 0;
/** Each leased view → the buffer it lives in (and which the release gives back). */
const leased = new WeakMap<Uint8Array, PackBuffer>();

/**
 * Packs one call input with `pack` into a retained buffer (the roomiest idle
 * one, the least likely to make msgpackr grow a new one; else a fresh one)
 * and returns the caller's own copy of it: exact-size when small (the buffer
 * goes back idle at once), else the packed view itself, leased until
 * {@link releaseInput}. `pack` writes from the start of the buffer it is
 * given and returns what it wrote: a view of that buffer, or of a bigger one
 * it moved to (that one is then kept instead).
 */
export function packInput(pack: (buffer: Buffer) => Uint8Array): Uint8Array {
  const taken = takeIdle();
  let packed: Uint8Array;
  try {
    packed = pack(taken.buffer);
  } catch (error) {
    giveBack(taken);
    throw error;
  }
  const entry: PackBuffer =
    packed.buffer === taken.buffer.buffer ? taken : { buffer: Buffer.from(packed.buffer as ArrayBuffer), touched: 0 };
  entry.touched = Math.max(entry.touched, packed.byteOffset + packed.byteLength);
  if (packed.byteLength < LEASE_MIN_BYTES) {
    const copy = new Uint8Array(packed.byteLength);
    copy.set(packed);
    giveBack(entry);
    return copy;
  }
  leased.set(packed, entry);
  return packed;
}

function takeIdle(): PackBuffer {
  let best = -1;
  for (let i = 0; i < idle.length; i++) {
    if (best < 0 || (idle[i] as PackBuffer).buffer.byteLength > (idle[best] as PackBuffer).buffer.byteLength) best = i;
  }
  if (best < 0) return { buffer: Buffer.allocUnsafeSlow(FRESH_BYTES), touched: 0 };
  const taken = idle[best] as PackBuffer;
  // The order of the list does not matter: the last one takes the slot (no array allocated per call, as splice does).
  idle[best] = idle[idle.length - 1] as PackBuffer;
  idle.pop();
  idleTouched -= taken.touched;
  return taken;
}

/**
 * Gives a leased input's buffer back once nothing reads the input any more
 * (no-op for any other array, and for one released already).
 */
export function releaseInput(bytes: Uint8Array): void {
  const entry = leased.get(bytes);
  if (entry === undefined) return;
  leased.delete(bytes);
  giveBack(entry);
}

function giveBack(entry: PackBuffer): void {
  if (entry.buffer.byteLength > MAX_BUFFER_BYTES || idleTouched + entry.touched > MAX_RETAINED_BYTES) return;
  idle.push(entry);
  idleTouched += entry.touched;
}

/** The idle list as it stands: how many buffers, and the bytes ever written into them (tests, diagnostics). */
export function idleInputBuffers(): { readonly buffers: number; readonly writtenBytes: number } {
  return { buffers: idle.length, writtenBytes: idleTouched };
}
