import type { BigIntStats } from 'node:fs';
import { Errno, Filetype, FstFlags, WasiErrno } from './errno.ts';
import type { FdTable } from './fd-table.ts';
import type { GuestMemory } from './guest-memory.ts';
import type { StdioSink } from './stdio.ts';

/** What every WASI call of one instance shares. */
export interface WasiState {
  readonly table: FdTable;
  /** The guest memory for this call (`EFAULT`-checked); throws `EFAULT` before the instance exists. */
  memory(): GuestMemory;
  readonly stdio: StdioSink;
  /** Granted variables as `NAME=value\0` bytes. */
  readonly environ: readonly Uint8Array[];
  readonly clock: boolean;
  /** Called when the guest reads a clock it was not granted (the JS engine's `Date` then sees time 0). */
  clockDenied(): void;
  /** Called when a write grant's path call is refused for want of fd-relative lookup (dir-walk.ts `FD_RELATIVE`). */
  noFdRelative(): void;
}

/** A WASI function as the SDK calls it: i32 params as numbers, i64 as bigints; returns an errno. */
export type WasiFn = (...args: (number | bigint)[]) => number;

/** The WASI file type of a host `lstat`/`fstat`. */
export function filetypeOf(stat: BigIntStats): number {
  if (stat.isFile()) return Filetype.REGULAR_FILE;
  if (stat.isDirectory()) return Filetype.DIRECTORY;
  if (stat.isSymbolicLink()) return Filetype.SYMBOLIC_LINK;
  if (stat.isCharacterDevice()) return Filetype.CHARACTER_DEVICE;
  return Filetype.UNKNOWN;
}

/**
 * Writes a `filestat` (64 bytes). `null` is a virtual stdio stream: a
 * character device with no identity, size or timestamps (nothing of the
 * host's, and no time without the clock grant).
 */
export function writeFilestat(memory: GuestMemory, ptr: number, stat: BigIntStats | null): void {
  memory.slice(ptr, 64).fill(0);
  if (stat === null) {
    memory.setU8(ptr + 16, Filetype.CHARACTER_DEVICE);
    return;
  }
  memory.setU64(ptr, stat.dev);
  memory.setU64(ptr + 8, stat.ino);
  memory.setU8(ptr + 16, filetypeOf(stat));
  memory.setU64(ptr + 24, stat.nlink);
  memory.setU64(ptr + 32, stat.size);
  memory.setU64(ptr + 40, stat.atimeNs);
  memory.setU64(ptr + 48, stat.mtimeNs);
  memory.setU64(ptr + 56, stat.ctimeNs);
}

/** New access/modification times for `*_filestat_set_times` (ns), keeping what the flags leave alone. */
export function newTimes(current: BigIntStats, atim: bigint, mtim: bigint, flags: number): { atime: number; mtime: number } {
  if ((flags & FstFlags.ATIM && flags & FstFlags.ATIM_NOW) || (flags & FstFlags.MTIM && flags & FstFlags.MTIM_NOW)) throw new WasiErrno(Errno.INVAL);
  const now = Date.now() / 1000;
  const seconds = (ns: bigint) => Number(ns) / 1e9;
  const atime = flags & FstFlags.ATIM_NOW ? now : flags & FstFlags.ATIM ? seconds(atim) : seconds(current.atimeNs);
  const mtime = flags & FstFlags.MTIM_NOW ? now : flags & FstFlags.MTIM ? seconds(mtim) : seconds(current.mtimeNs);
  return { atime, mtime };
}
