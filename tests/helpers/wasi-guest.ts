/**
 * A guest for the WASI unit specs: hookbox's `WasiHost` on a real 64 KiB
 * guest memory, its functions called the way the Extism SDK calls them
 * (context first, i32 as numbers, i64 as bigints), plus readers of the
 * guest's bytes and of the host fds the process holds on a file.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { LogSink } from '../../host/runner/log-sink.ts';
import { Errno, WasiErrno } from '../../host/runner/wasi/errno.ts';
import { type WasiGrant, WasiHost } from '../../host/runner/wasi/index.ts';

export const NOTHING: WasiGrant = { preopens: [], env: {}, clock: false };
/** Where results (`*_ptr` out-parameters) go. */
export const SCRATCH = 1024;
/** An iovec array. */
export const IOV = 512;
/** Data buffers. */
export const BUF = 4096;
/** Guest path strings. */
export const PATH = 256;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A guest with `grant`, on a memory of `pages` 64 KiB pages; the iovec at `IOV` starts as {BUF, 64}. */
export function wasiGuest(grant: WasiGrant = NOTHING, sink = new LogSink(), pages = 1) {
  const memory = { buffer: new ArrayBuffer(65_536 * pages) };
  const host = new WasiHost(grant, sink, () => memory);
  const view = new DataView(memory.buffer);
  const bytes = new Uint8Array(memory.buffer);
  const call = (name: string, ...args: (number | bigint)[]): number => {
    const fn = host.functions[name];
    if (fn === undefined) throw new Error(`no ${name}`);
    return fn(null, ...args);
  };
  /** Writes `text` at `at` (default `PATH`) and returns its byte length. */
  const setPath = (text: string, at = PATH): number => {
    const encoded = encoder.encode(text);
    bytes.set(encoded, at);
    return encoded.byteLength;
  };
  /** Lays out an iovec array at `IOV`: one `{buf, len}` per `[ptr, len]`. */
  const setIovecs = (buffers: readonly (readonly [number, number])[]): number => {
    buffers.forEach(([ptr, len], i) => {
      view.setUint32(IOV + i * 8, ptr, true);
      view.setUint32(IOV + i * 8 + 4, len, true);
    });
    return buffers.length;
  };
  /** Puts `text` at `BUF` behind a single iovec at `IOV`. */
  const setData = (text: string): void => {
    const length = setPath(text, BUF);
    setIovecs([[BUF, length]]);
  };
  setIovecs([[BUF, 64]]);
  const text = (ptr: number, length: number): string => decoder.decode(bytes.subarray(ptr, ptr + length));
  const u32 = (ptr = SCRATCH): number => view.getUint32(ptr, true);
  const u64 = (ptr = SCRATCH): bigint => view.getBigUint64(ptr, true);
  /** `path_open` relative to `dirFd`; the new fd, or throws with the errno. */
  const open = (dirFd: number, guestPath: string, oflags: number, rights: bigint, fdflags = 0, dirflags = 0): number => {
    const errno = call('path_open', dirFd, dirflags, PATH, setPath(guestPath), oflags, rights, 0n, fdflags, SCRATCH);
    if (errno !== Errno.SUCCESS) throw new Error(`path_open ${guestPath}: errno ${errno}`);
    return u32();
  };
  return { host, sink, view, bytes, call, setPath, setIovecs, setData, text, u32, u64, open };
}

/** The errno a call throws as `WasiErrno`, or `undefined` when it returns. */
export function errnoOf(run: () => unknown): number | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof WasiErrno) return error.errno;
    throw error;
  }
}

/** The host fds this process holds open on `file` (from `/proc/self/fd`). */
export function hostFdsOn(file: string): number[] {
  const fds: number[] = [];
  for (const name of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${name}`) === file) fds.push(Number(name));
    } catch {
      // The fd readdir itself used, closed since.
    }
  }
  return fds;
}
