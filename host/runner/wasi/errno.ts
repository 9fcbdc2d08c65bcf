/**
 * WASI preview1 numbers (errno, file types, flags, rights), as the
 * `wasi_snapshot_preview1` witx defines them, plus the two throwables the
 * layer uses internally: `WasiErrno` (a call answers this errno) and
 * `WasiExit` (the guest called `proc_exit`).
 */

export const Errno = {
  SUCCESS: 0,
  ACCES: 2,
  AGAIN: 6,
  BADF: 8,
  BUSY: 10,
  EXIST: 20,
  FAULT: 21,
  FBIG: 22,
  ILSEQ: 25,
  INVAL: 28,
  IO: 29,
  ISDIR: 31,
  LOOP: 32,
  MFILE: 33,
  NAMETOOLONG: 37,
  NOBUFS: 42,
  NOENT: 44,
  NOSPC: 51,
  NOSYS: 52,
  NOTDIR: 54,
  NOTEMPTY: 55,
  NOTSOCK: 57,
  NOTSUP: 58,
  PERM: 63,
  ROFS: 69,
  SPIPE: 70,
  TXTBSY: 74,
  XDEV: 75,
  NOTCAPABLE: 76,
} as const;

export const Filetype = { UNKNOWN: 0, CHARACTER_DEVICE: 2, DIRECTORY: 3, REGULAR_FILE: 4, SYMBOLIC_LINK: 7 } as const;

export const OFlags = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 } as const;
export const FdFlags = { APPEND: 1 } as const;
export const LOOKUP_SYMLINK_FOLLOW = 1;
export const FstFlags = { ATIM: 1, ATIM_NOW: 2, MTIM: 4, MTIM_NOW: 8 } as const;
export const Whence = { SET: 0, CUR: 1, END: 2 } as const;

const bit = (n: number): bigint => 1n << BigInt(n);
export const Rights = {
  FD_DATASYNC: bit(0),
  FD_READ: bit(1),
  FD_SEEK: bit(2),
  FD_FDSTAT_SET_FLAGS: bit(3),
  FD_SYNC: bit(4),
  FD_TELL: bit(5),
  FD_WRITE: bit(6),
  FD_ADVISE: bit(7),
  FD_ALLOCATE: bit(8),
  PATH_CREATE_DIRECTORY: bit(9),
  PATH_CREATE_FILE: bit(10),
  PATH_LINK_SOURCE: bit(11),
  PATH_LINK_TARGET: bit(12),
  PATH_OPEN: bit(13),
  FD_READDIR: bit(14),
  PATH_READLINK: bit(15),
  PATH_RENAME_SOURCE: bit(16),
  PATH_RENAME_TARGET: bit(17),
  PATH_FILESTAT_GET: bit(18),
  PATH_FILESTAT_SET_SIZE: bit(19),
  PATH_FILESTAT_SET_TIMES: bit(20),
  FD_FILESTAT_GET: bit(21),
  FD_FILESTAT_SET_SIZE: bit(22),
  FD_FILESTAT_SET_TIMES: bit(23),
  PATH_SYMLINK: bit(24),
  PATH_REMOVE_DIRECTORY: bit(25),
  PATH_UNLINK_FILE: bit(26),
  POLL_FD_READWRITE: bit(27),
} as const;

/** Every right a file or directory can have (sockets excluded). */
export const ALL_RIGHTS = Object.values(Rights).reduce((a, b) => a | b, 0n);

/** Rights that change the filesystem; a read-only grant never holds them. */
export const WRITE_RIGHTS =
  Rights.FD_DATASYNC |
  Rights.FD_WRITE |
  Rights.FD_ALLOCATE |
  Rights.PATH_CREATE_DIRECTORY |
  Rights.PATH_CREATE_FILE |
  Rights.PATH_LINK_SOURCE |
  Rights.PATH_LINK_TARGET |
  Rights.PATH_RENAME_SOURCE |
  Rights.PATH_RENAME_TARGET |
  Rights.PATH_FILESTAT_SET_SIZE |
  Rights.PATH_FILESTAT_SET_TIMES |
  Rights.FD_FILESTAT_SET_SIZE |
  Rights.FD_FILESTAT_SET_TIMES |
  Rights.PATH_SYMLINK |
  Rights.PATH_REMOVE_DIRECTORY |
  Rights.PATH_UNLINK_FILE;

/**
 * Rights that say "open this file for writing" in `path_open` (what
 * wasi-libc adds for `O_WRONLY`). A read-only open asks for nearly every
 * other right, so only these mark write intent.
 */
export const WRITE_INTENT = Rights.FD_WRITE | Rights.FD_ALLOCATE | Rights.FD_FILESTAT_SET_SIZE;

/** A call answers this errno (thrown inside the layer, returned at the boundary). */
export class WasiErrno extends Error {
  override name = 'WasiErrno';
  constructor(readonly errno: number) {
    super(`WASI errno ${errno}`);
  }
}

/**
 * The guest called `proc_exit(code)`. Thrown through the guest's frames to
 * end the call; the adapter maps it to a `plugin-error` fault with the code.
 */
export class WasiExit extends Error {
  override name = 'WasiExit';
  constructor(readonly code: number) {
    super(`the hook called proc_exit(${code})`);
  }
}

const NODE_ERRNO: Readonly<Record<string, number>> = {
  EACCES: Errno.ACCES,
  EAGAIN: Errno.AGAIN,
  EBADF: Errno.BADF,
  EBUSY: Errno.BUSY,
  EEXIST: Errno.EXIST,
  EFBIG: Errno.FBIG,
  EINVAL: Errno.INVAL,
  EIO: Errno.IO,
  EISDIR: Errno.ISDIR,
  ELOOP: Errno.LOOP,
  EMFILE: Errno.MFILE,
  ENAMETOOLONG: Errno.NAMETOOLONG,
  ENOENT: Errno.NOENT,
  ENOSPC: Errno.NOSPC,
  ENOTDIR: Errno.NOTDIR,
  ENOTEMPTY: Errno.NOTEMPTY,
  EPERM: Errno.PERM,
  EROFS: Errno.ROFS,
  ETXTBSY: Errno.TXTBSY,
  EXDEV: Errno.XDEV,
};

/** The WASI errno for a Node `fs` error code (`EIO` for anything unlisted). */
export function errnoFromNode(code: string | undefined): number {
  return (code !== undefined ? NODE_ERRNO[code] : undefined) ?? Errno.IO;
}
