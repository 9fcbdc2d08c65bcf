import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  linkSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import path from 'node:path';
import { ALL_RIGHTS, Errno, FdFlags, Filetype, LOOKUP_SYMLINK_FOLLOW, OFlags, Rights, WRITE_INTENT, WRITE_RIGHTS, WasiErrno } from './errno.ts';
import type { DirEntry, WasiRoot } from './fd-table.ts';
import { FD_RELATIVE, type Walked, walkInRoot, withDir } from './dir-walk.ts';
import { checkLinkTarget, checkMovedTree } from './link-target.ts';
import { type WasiFn, type WasiState, filetypeOf, newTimes, writeFilestat } from './state.ts';
import type { PATH_CALLS } from './names.ts';

const n = Number;
const encoder = new TextEncoder();

/** Rights a directory or file of this root can hold: read-only roots never hold a write right. */
export function rootRights(root: WasiRoot): bigint {
  return root.write ? ALL_RIGHTS : ALL_RIGHTS & ~WRITE_RIGHTS;
}

/**
 * The calls that take a path (and the directory-only `fd_readdir`,
 * `fd_prestat_*`). Every path is walked by `walkInRoot` inside the
 * directory fd's root at each call, and the call acts through the directory
 * the walk opened (`/proc/self/fd/N/leaf`), never on a path string that
 * something else could change between the check and the use; the leaf itself
 * is never followed by the syscall. Every change needs the root's write grant
 * (`ENOTCAPABLE` otherwise), and fd-relative lookup: without it, a write
 * grant's path calls are refused (`ENOTCAPABLE`, and a log note says why).
 */
export function pathCalls(state: WasiState): Record<(typeof PATH_CALLS)[number], WasiFn> {
  const { table } = state;

  /** The directory fd and the guest path string of a `(fd, ptr, len)` triple. */
  const at = (fd: number | bigint, ptr: number | bigint, len: number | bigint): { dir: DirEntry; guestPath: string } => ({
    dir: table.dir(n(fd)),
    guestPath: state.memory().string(n(ptr), n(len)),
  });
  /** Walks, checks the grant, runs `use`, closes: for write grants, only where the walk holds directories (`FD_RELATIVE`). */
  const walk = <T>(dir: DirEntry, guestPath: string, follow: boolean, use: (walked: Walked) => T): T => {
    if (dir.root.write && !FD_RELATIVE) {
      state.noFdRelative();
      throw new WasiErrno(Errno.NOTCAPABLE);
    }
    const walked = walkInRoot(dir.root.host, dir.rel, guestPath, follow);
    try {
      return use(walked);
    } finally {
      walked.close();
    }
  };
  const mustWrite = (dir: DirEntry): void => {
    if (!dir.root.write) throw new WasiErrno(Errno.NOTCAPABLE);
  };
  /** A change that must name an entry, not the root (`EBUSY`) or a directory by `.`/`..` (`EINVAL`). */
  const named = (walked: Walked): string => {
    if (walked.rel.length === 0) throw new WasiErrno(Errno.BUSY);
    if (walked.leaf === undefined) throw new WasiErrno(Errno.INVAL);
    return walked.at;
  };
  /**
   * A symlink renamed or linked into another directory is judged again where
   * it lands (`../x` climbs further from a shallower place), and so is every
   * symlink inside a directory moved to a shallower place.
   */
  const checkMoved = (fromDir: DirEntry, source: Walked, toDir: DirEntry, target: Walked): void => {
    if (fromDir.root.host === toDir.root.host && sameParent(source.rel, target.rel)) return;
    const stat = lstatSync(source.at);
    const newDir = target.rel.slice(0, -1);
    if (stat.isSymbolicLink()) {
      const text = readlinkSync(source.at);
      checkLinkTarget(text, newDir.length, () => walkInRoot(toDir.root.host, newDir, text, true).close());
    } else if (stat.isDirectory() && target.rel.length < source.rel.length) {
      checkMovedTree(source.at, target.rel.length);
    }
  };

  return {
    fd_prestat_get: (fd, ptr) => {
      const entry = table.get(n(fd));
      if (entry.kind !== 'dir' || !entry.preopen) return Errno.BADF;
      const memory = state.memory();
      memory.setU32(n(ptr), 0); // tag 0: directory (and padding)
      memory.setU32(n(ptr) + 4, encoder.encode(entry.root.guest).byteLength);
      return Errno.SUCCESS;
    },
    fd_prestat_dir_name: (fd, ptr, len) => {
      const entry = table.get(n(fd));
      if (entry.kind !== 'dir' || !entry.preopen) return Errno.BADF;
      const name = encoder.encode(entry.root.guest);
      if (n(len) < name.byteLength) return Errno.NOBUFS;
      state.memory().slice(n(ptr), name.byteLength).set(name);
      return Errno.SUCCESS;
    },
    fd_readdir: (fd, buf, bufLen, cookie, usedPtr) => {
      const dir = table.dir(n(fd));
      const memory = state.memory();
      const out = memory.slice(n(buf), n(bufLen));
      const used = withDir(dir.root.host, dir.rel, (_dirFd, host) => {
        const names = ['.', '..', ...readdirSync(host).sort()];
        let written = 0;
        for (let index = Number(BigInt(cookie)); index < names.length && written < out.byteLength; index++) {
          const entryName = names[index] as string;
          const name = encoder.encode(entryName);
          // `.` and `..` are not looked up: `..` of the root is outside it.
          const stat = index < 2 ? undefined : lstatSync(path.join(host, entryName), { bigint: true, throwIfNoEntry: false });
          const record = new Uint8Array(24 + name.byteLength);
          const view = new DataView(record.buffer);
          view.setBigUint64(0, BigInt(index + 1), true);
          view.setBigUint64(8, stat?.ino ?? 0n, true);
          view.setUint32(16, name.byteLength, true);
          view.setUint8(20, index < 2 ? Filetype.DIRECTORY : stat === undefined ? Filetype.UNKNOWN : filetypeOf(stat));
          record.set(name, 24);
          const take = Math.min(record.byteLength, out.byteLength - written);
          out.set(record.subarray(0, take), written);
          written += take;
        }
        return written;
      });
      memory.setU32(n(usedPtr), used);
      return Errno.SUCCESS;
    },
    path_open: (fd, dirflags, ptr, len, oflags, rightsBase, rightsInheriting, fdflags, outPtr) => {
      const { dir, guestPath } = at(fd, ptr, len);
      const o = n(oflags);
      const base = BigInt(rightsBase);
      const wantsWrite = (o & (OFlags.CREAT | OFlags.TRUNC)) !== 0 || (base & WRITE_INTENT) !== 0n || (n(fdflags) & FdFlags.APPEND) !== 0;
      if (wantsWrite) mustWrite(dir);
      const allowed = rootRights(dir.root);
      const rights = { base: base & allowed, inheriting: BigInt(rightsInheriting) & allowed };
      return walk(dir, guestPath, (n(dirflags) & LOOKUP_SYMLINK_FOLLOW) !== 0, (walked) => {
        const isDir = walked.leaf === undefined || walked.stat?.isDirectory() === true;
        if (isDir || (o & OFlags.DIRECTORY) !== 0) {
          if (!walked.exists) return Errno.NOENT;
          if (!isDir) return Errno.NOTDIR;
          if ((o & (OFlags.EXCL | OFlags.CREAT)) === (OFlags.EXCL | OFlags.CREAT)) return Errno.EXIST;
          if (wantsWrite) return Errno.ISDIR;
          state.memory().setU32(n(outPtr), table.add({ kind: 'dir', root: dir.root, rel: walked.rel, preopen: false, ...rights }));
          return Errno.SUCCESS;
        }
        const readable = (base & Rights.FD_READ) !== 0n || !wantsWrite;
        const writable = (base & Rights.FD_WRITE) !== 0n && dir.root.write;
        let flags = constants.O_NOFOLLOW | (readable && writable ? constants.O_RDWR : writable ? constants.O_WRONLY : constants.O_RDONLY);
        if (o & OFlags.CREAT) flags |= constants.O_CREAT;
        if (o & OFlags.EXCL) flags |= constants.O_EXCL;
        if (o & OFlags.TRUNC) flags |= constants.O_TRUNC;
        // Through the opened directory, the leaf never followed: a swap anywhere cannot move where this lands.
        const hostFd = openSync(walked.at, flags, 0o666);
        if (fstatSync(hostFd).isDirectory()) {
          closeSync(hostFd);
          return Errno.ISDIR;
        }
        const append = (n(fdflags) & FdFlags.APPEND) !== 0;
        state.memory().setU32(n(outPtr), table.add({ kind: 'file', root: dir.root, hostFd, readable, writable, append, position: 0, ...rights }));
        return Errno.SUCCESS;
      });
    },
    path_create_directory: (fd, ptr, len) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      return walk(dir, guestPath, false, (walked) => {
        if (walked.exists) return Errno.EXIST;
        mkdirSync(walked.at);
        return Errno.SUCCESS;
      });
    },
    path_filestat_get: (fd, flags, ptr, len, out) => {
      const { dir, guestPath } = at(fd, ptr, len);
      return walk(dir, guestPath, (n(flags) & LOOKUP_SYMLINK_FOLLOW) !== 0, (walked) => {
        if (!walked.exists) return Errno.NOENT;
        const stat = walked.leaf === undefined ? fstatSync(walked.dirFd, { bigint: true }) : lstatSync(walked.at, { bigint: true });
        writeFilestat(state.memory(), n(out), stat);
        return Errno.SUCCESS;
      });
    },
    path_filestat_set_times: (fd, flags, ptr, len, atim, mtim, fstflags) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      return walk(dir, guestPath, (n(flags) & LOOKUP_SYMLINK_FOLLOW) !== 0, (walked) => {
        if (!walked.exists) return Errno.NOENT;
        if (walked.leaf === undefined) {
          const { atime, mtime } = newTimes(fstatSync(walked.dirFd, { bigint: true }), BigInt(atim), BigInt(mtim), n(fstflags));
          futimesSync(walked.dirFd, atime, mtime);
          return Errno.SUCCESS;
        }
        // lutimes: the leaf is not followed (the walk followed it already where the flags ask).
        const { atime, mtime } = newTimes(lstatSync(walked.at, { bigint: true }), BigInt(atim), BigInt(mtim), n(fstflags));
        lutimesSync(walked.at, atime, mtime);
        return Errno.SUCCESS;
      });
    },
    path_link: (oldFd, oldFlags, oldPtr, oldLen, newFd, newPtr, newLen) => {
      const from = at(oldFd, oldPtr, oldLen);
      const to = at(newFd, newPtr, newLen);
      mustWrite(from.dir);
      mustWrite(to.dir);
      return walk(from.dir, from.guestPath, (n(oldFlags) & LOOKUP_SYMLINK_FOLLOW) !== 0, (source) =>
        walk(to.dir, to.guestPath, false, (target) => {
          const into = named(target);
          if (!source.exists) return Errno.NOENT;
          if (source.leaf === undefined) return Errno.PERM;
          if (target.exists) return Errno.EXIST;
          checkMoved(from.dir, source, to.dir, target);
          linkSync(source.at, into);
          return Errno.SUCCESS;
        }),
      );
    },
    path_readlink: (fd, ptr, len, buf, bufLen, usedPtr) => {
      const { dir, guestPath } = at(fd, ptr, len);
      return walk(dir, guestPath, false, (walked) => {
        if (!walked.exists) return Errno.NOENT;
        if (walked.leaf === undefined) return Errno.INVAL;
        const target = readlinkSync(walked.at, { encoding: 'buffer' });
        const memory = state.memory();
        const take = Math.min(target.byteLength, n(bufLen));
        memory.slice(n(buf), take).set(target.subarray(0, take));
        memory.setU32(n(usedPtr), take);
        return Errno.SUCCESS;
      });
    },
    path_remove_directory: (fd, ptr, len) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      return walk(dir, guestPath, false, (walked) => {
        const leaf = named(walked);
        if (!walked.exists) return Errno.NOENT;
        if (walked.stat?.isDirectory() !== true) return Errno.NOTDIR;
        rmdirSync(leaf);
        return Errno.SUCCESS;
      });
    },
    path_rename: (oldFd, oldPtr, oldLen, newFd, newPtr, newLen) => {
      const from = at(oldFd, oldPtr, oldLen);
      const to = at(newFd, newPtr, newLen);
      mustWrite(from.dir);
      mustWrite(to.dir);
      return walk(from.dir, from.guestPath, false, (source) =>
        walk(to.dir, to.guestPath, false, (target) => {
          const leaf = named(source);
          const into = named(target);
          if (!source.exists) return Errno.NOENT;
          checkMoved(from.dir, source, to.dir, target);
          renameSync(leaf, into);
          return Errno.SUCCESS;
        }),
      );
    },
    path_symlink: (targetPtr, targetLen, fd, ptr, len) => {
      const target = state.memory().string(n(targetPtr), n(targetLen));
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      return walk(dir, guestPath, false, (link) => {
        const leaf = named(link);
        if (link.exists) return Errno.EXIST;
        // The link must not point out of the root even for someone else who follows it later.
        const dirRel = link.rel.slice(0, -1);
        checkLinkTarget(target, dirRel.length, () => walkInRoot(dir.root.host, dirRel, target, true).close());
        symlinkSync(target, leaf);
        return Errno.SUCCESS;
      });
    },
    path_unlink_file: (fd, ptr, len) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      return walk(dir, guestPath, false, (walked) => {
        if (walked.leaf === undefined) return walked.rel.length === 0 ? Errno.BUSY : Errno.ISDIR;
        if (!walked.exists) return Errno.NOENT;
        if (walked.stat?.isDirectory() === true) return Errno.ISDIR;
        unlinkSync(walked.at);
        return Errno.SUCCESS;
      });
    },
  };
}

function sameParent(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.slice(0, -1).every((part, index) => part === b[index]);
}
