import type { WasmMemory } from '../wasm-api.ts';
import { Errno, WasiErrno } from './errno.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bounds-checked access to the guest's linear memory for one call. Every
 * pointer the guest passes is checked against the current size: a bad one
 * answers `EFAULT`, never a host exception or a clamped view. Build a new
 * one per WASI call: `memory.grow` replaces the buffer.
 */
export class GuestMemory {
  readonly view: DataView;
  readonly bytes: Uint8Array;

  constructor(memory: WasmMemory) {
    this.view = new DataView(memory.buffer);
    this.bytes = new Uint8Array(memory.buffer);
  }

  #check(ptr: number, length: number): void {
    if (!Number.isInteger(ptr) || ptr < 0 || length < 0 || ptr + length > this.bytes.length) throw new WasiErrno(Errno.FAULT);
  }

  u32(ptr: number): number {
    this.#check(ptr, 4);
    return this.view.getUint32(ptr, true);
  }

  setU8(ptr: number, value: number): void {
    this.#check(ptr, 1);
    this.view.setUint8(ptr, value);
  }

  setU16(ptr: number, value: number): void {
    this.#check(ptr, 2);
    this.view.setUint16(ptr, value, true);
  }

  setU32(ptr: number, value: number): void {
    this.#check(ptr, 4);
    this.view.setUint32(ptr, value, true);
  }

  setU64(ptr: number, value: bigint | number): void {
    this.#check(ptr, 8);
    this.view.setBigUint64(ptr, BigInt.asUintN(64, BigInt(value)), true);
  }

  /** A view of `[ptr, ptr + length)` (not a copy). */
  slice(ptr: number, length: number): Uint8Array {
    this.#check(ptr, length);
    return this.bytes.subarray(ptr, ptr + length);
  }

  /** A UTF-8 string (a path); invalid UTF-8 answers `EILSEQ`. */
  string(ptr: number, length: number): string {
    try {
      return utf8.decode(this.slice(ptr, length));
    } catch (error) {
      if (error instanceof WasiErrno) throw error;
      throw new WasiErrno(Errno.ILSEQ);
    }
  }

  /** The buffers of an iovec/ciovec array (`{ buf: u32, len: u32 }` each). */
  iovecs(ptr: number, count: number): Uint8Array[] {
    this.#check(ptr, count * 8);
    const out: Uint8Array[] = [];
    for (let i = 0; i < count; i++) out.push(this.slice(this.u32(ptr + i * 8), this.u32(ptr + i * 8 + 4)));
    return out;
  }
}
