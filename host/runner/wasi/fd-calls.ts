import { fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, futimesSync, readSync, writeSync } from 'node:fs';
import { Errno, FdFlags, Filetype, Rights, WasiErrno, Whence } from './errno.ts';
import type { FdEntry, FileEntry } from './fd-table.ts';
import { withDir } from './dir-walk.ts';
import { type WasiFn, type WasiState, newTimes, writeFilestat } from './state.ts';
import type { FD_CALLS } from './names.ts';

const n = Number;

/** The `fd_*` calls (`fd_readdir` and the preopen calls are in path-calls, with the other directory work). */
export function fdCalls(state: WasiState): Record<(typeof FD_CALLS)[number], WasiFn> {
  const { table } = state;

  const writable = (fd: number): FileEntry => {
    const file = table.file(fd);
    if (!file.writable) throw new WasiErrno(Errno.NOTCAPABLE);
    return file;
  };

  const read = (file: FileEntry, buffers: Uint8Array[], at: number): number => {
    if (!file.readable) throw new WasiErrno(Errno.NOTCAPABLE);
    let total = 0;
    for (const buffer of buffers) {
      const got = readSync(file.hostFd, buffer, 0, buffer.byteLength, at + total);
      total += got;
      if (got < buffer.byteLength) break;
    }
    return total;
  };

  const write = (file: FileEntry, buffers: Uint8Array[], at: number): number => {
    if (!file.writable) throw new WasiErrno(Errno.NOTCAPABLE);
    let total = 0;
    for (const buffer of buffers) total += writeSync(file.hostFd, buffer, 0, buffer.byteLength, at + total);
    return total;
  };

  return {
    fd_advise: (fd) => (table.file(n(fd)), Errno.SUCCESS),
    fd_allocate: (fd, offset, length) => {
      const file = writable(n(fd));
      const end = n(offset) + n(length);
      if (fstatSync(file.hostFd).size < end) ftruncateSync(file.hostFd, end);
      return Errno.SUCCESS;
    },
    fd_close: (fd) => (table.close(n(fd)), Errno.SUCCESS),
    fd_datasync: (fd) => (fdatasyncSync(table.file(n(fd)).hostFd), Errno.SUCCESS),
    fd_sync: (fd) => (fsyncSync(table.file(n(fd)).hostFd), Errno.SUCCESS),
    fd_fdstat_get: (fd, ptr) => {
      const entry = table.get(n(fd));
      const memory = state.memory();
      memory.slice(n(ptr), 24).fill(0);
      memory.setU8(n(ptr), filetype(entry));
      memory.setU16(n(ptr) + 2, entry.kind === 'file' && entry.append ? FdFlags.APPEND : 0);
      memory.setU64(n(ptr) + 8, entry.base);
      memory.setU64(n(ptr) + 16, entry.inheriting);
      return Errno.SUCCESS;
    },
    fd_fdstat_set_flags: (fd, flags) => {
      const entry = table.get(n(fd));
      const wanted = n(flags);
      const current = entry.kind === 'file' && entry.append ? FdFlags.APPEND : 0;
      if (wanted === current) return Errno.SUCCESS;
      if (entry.kind !== 'file' || (wanted & ~FdFlags.APPEND) !== 0) return Errno.NOTSUP;
      if (!entry.writable) return Errno.NOTCAPABLE;
      entry.append = wanted === FdFlags.APPEND;
      return Errno.SUCCESS;
    },
    fd_fdstat_set_rights: (fd, base, inheriting) => {
      const entry = table.get(n(fd));
      const b = BigInt(base);
      const i = BigInt(inheriting);
      // Rights only ever shrink.
      if ((b & ~entry.base) !== 0n || (i & ~entry.inheriting) !== 0n) return Errno.NOTCAPABLE;
      entry.base = b;
      entry.inheriting = i;
      return Errno.SUCCESS;
    },
    fd_filestat_get: (fd, ptr) => {
      const entry = table.get(n(fd));
      const stat =
        entry.kind === 'stdio'
          ? null
          : entry.kind === 'dir'
            ? withDir(entry.root.host, entry.rel, (dirFd) => fstatSync(dirFd, { bigint: true }))
            : fstatSync(entry.hostFd, { bigint: true });
      writeFilestat(state.memory(), n(ptr), stat);
      return Errno.SUCCESS;
    },
    fd_filestat_set_size: (fd, size) => (ftruncateSync(writable(n(fd)).hostFd, n(size)), Errno.SUCCESS),
    fd_filestat_set_times: (fd, atim, mtim, flags) => {
      const file = writable(n(fd));
      const { atime, mtime } = newTimes(fstatSync(file.hostFd, { bigint: true }), BigInt(atim), BigInt(mtim), n(flags));
      futimesSync(file.hostFd, atime, mtime);
      return Errno.SUCCESS;
    },
    fd_pread: (fd, iovs, count, offset, nreadPtr) => {
      const memory = state.memory();
      const file = table.file(n(fd));
      memory.setU32(n(nreadPtr), read(file, memory.iovecs(n(iovs), n(count)), n(offset)));
      return Errno.SUCCESS;
    },
    fd_pwrite: (fd, iovs, count, offset, nwrittenPtr) => {
      const memory = state.memory();
      const file = table.file(n(fd));
      memory.setU32(n(nwrittenPtr), write(file, memory.iovecs(n(iovs), n(count)), n(offset)));
      return Errno.SUCCESS;
    },
    fd_read: (fd, iovs, count, nreadPtr) => {
      const memory = state.memory();
      const entry = table.get(n(fd));
      if (entry.kind === 'dir') return Errno.ISDIR;
      if (entry.kind === 'stdio') {
        if (entry.stream !== 0) return Errno.BADF;
        memory.iovecs(n(iovs), n(count));
        memory.setU32(n(nreadPtr), 0); // stdin is always at end of file
        return Errno.SUCCESS;
      }
      const got = read(entry, memory.iovecs(n(iovs), n(count)), entry.position);
      entry.position += got;
      memory.setU32(n(nreadPtr), got);
      return Errno.SUCCESS;
    },
    fd_write: (fd, iovs, count, nwrittenPtr) => {
      const memory = state.memory();
      const entry = table.get(n(fd));
      const buffers = memory.iovecs(n(iovs), n(count));
      if (entry.kind === 'dir') return Errno.ISDIR;
      if (entry.kind === 'stdio') {
        if (entry.stream === 0) return Errno.BADF;
        state.stdio.write(entry.stream, buffers);
        memory.setU32(n(nwrittenPtr), buffers.reduce((sum, b) => sum + b.byteLength, 0));
        return Errno.SUCCESS;
      }
      // APPEND writes at the current end: the host fd is not O_APPEND (the guest can toggle the flag).
      const at = entry.append ? n(fstatSync(entry.hostFd).size) : entry.position;
      const written = write(entry, buffers, at);
      entry.position = at + written;
      memory.setU32(n(nwrittenPtr), written);
      return Errno.SUCCESS;
    },
    fd_renumber: (from, to) => (table.renumber(n(from), n(to)), Errno.SUCCESS),
    fd_seek: (fd, offset, whence, ptr) => {
      const file = table.file(n(fd));
      const base = n(whence) === Whence.SET ? 0 : n(whence) === Whence.CUR ? file.position : n(whence) === Whence.END ? fstatSync(file.hostFd).size : NaN;
      const next = base + n(offset);
      if (!Number.isSafeInteger(next) || next < 0) return Errno.INVAL;
      file.position = next;
      state.memory().setU64(n(ptr), next);
      return Errno.SUCCESS;
    },
    fd_tell: (fd, ptr) => (state.memory().setU64(n(ptr), table.file(n(fd)).position), Errno.SUCCESS),
  };
}

function filetype(entry: FdEntry): number {
  if (entry.kind === 'stdio') return Filetype.CHARACTER_DEVICE;
  return entry.kind === 'dir' ? Filetype.DIRECTORY : Filetype.REGULAR_FILE;
}

/** Rights of the virtual stdio streams. */
export const STDIO_RIGHTS = {
  0: Rights.FD_READ | Rights.FD_FILESTAT_GET | Rights.POLL_FD_READWRITE,
  1: Rights.FD_WRITE | Rights.FD_FILESTAT_GET | Rights.POLL_FD_READWRITE,
  2: Rights.FD_WRITE | Rights.FD_FILESTAT_GET | Rights.POLL_FD_READWRITE,
} as const;
