import {
  closeSync,
  constants,
  fstatSync,
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
  utimesSync,
} from 'node:fs';
import path from 'node:path';
import { ALL_RIGHTS, Errno, FdFlags, Filetype, LOOKUP_SYMLINK_FOLLOW, OFlags, Rights, WRITE_INTENT, WRITE_RIGHTS, WasiErrno } from './errno.ts';
import type { DirEntry, WasiRoot } from './fd-table.ts';
import { checkLinkTarget, checkMovedTree } from './link-target.ts';
import { type ResolvedPath, resolveDir, resolveInRoot } from './path-resolver.ts';
import { type WasiFn, type WasiState, filetypeOf, newTimes, writeFilestat } from './state.ts';

const n = Number;
const encoder = new TextEncoder();

/** Rights a directory or file of this root can hold: read-only roots never hold a write right. */
export function rootRights(root: WasiRoot): bigint {
  return root.write ? ALL_RIGHTS : ALL_RIGHTS & ~WRITE_RIGHTS;
}

/**
 * The calls that take a path (and the directory-only `fd_readdir`,
 * `fd_prestat_*`). Every path is resolved by `resolveInRoot` inside the
 * directory fd's root at each call; every change needs the root's write
 * grant (`ENOTCAPABLE` otherwise).
 */
export function pathCalls(state: WasiState): Record<string, WasiFn> {
  const { table } = state;

  /** The directory fd and the guest path string of a `(fd, ptr, len)` triple. */
  const at = (fd: number | bigint, ptr: number | bigint, len: number | bigint): { dir: DirEntry; guestPath: string } => ({
    dir: table.dir(n(fd)),
    guestPath: state.memory().string(n(ptr), n(len)),
  });
  const resolve = (dir: DirEntry, guestPath: string, follow: boolean): ResolvedPath => resolveInRoot(dir.root.host, dir.rel, guestPath, follow);
  const mustWrite = (dir: DirEntry): void => {
    if (!dir.root.write) throw new WasiErrno(Errno.NOTCAPABLE);
  };
  /**
   * A symlink renamed or linked into another directory is judged again where
   * it lands (`../x` climbs further from a shallower place), and so is every
   * symlink inside a directory moved to a shallower place.
   */
  const checkMoved = (fromDir: DirEntry, source: ResolvedPath, toDir: DirEntry, target: ResolvedPath): void => {
    const newDir = target.rel.slice(0, -1);
    if (fromDir.root.host === toDir.root.host && sameParent(source.rel, target.rel)) return;
    const stat = lstatSync(source.host);
    if (stat.isSymbolicLink()) {
      const text = readlinkSync(source.host);
      checkLinkTarget(text, newDir.length, () => resolveInRoot(toDir.root.host, newDir, text, true));
    } else if (stat.isDirectory() && target.rel.length < source.rel.length) {
      checkMovedTree(source.host, target.rel.length);
    }
  };
  /** A change that must not name the root itself (`.`, `a/..`). */
  const notRoot = (resolved: ResolvedPath): ResolvedPath => {
    if (resolved.rel.length === 0) throw new WasiErrno(Errno.BUSY);
    return resolved;
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
      const host = resolveDir(dir.root.host, dir.rel);
      const names = ['.', '..', ...readdirSync(host).sort()];
      let used = 0;
      for (let index = Number(BigInt(cookie)); index < names.length && used < out.byteLength; index++) {
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
        const take = Math.min(record.byteLength, out.byteLength - used);
        out.set(record.subarray(0, take), used);
        used += take;
      }
      memory.setU32(n(usedPtr), used);
      return Errno.SUCCESS;
    },
    path_open: (fd, dirflags, ptr, len, oflags, rightsBase, rightsInheriting, fdflags, outPtr) => {
      const { dir, guestPath } = at(fd, ptr, len);
      const o = n(oflags);
      const base = BigInt(rightsBase);
      const wantsWrite = (o & (OFlags.CREAT | OFlags.TRUNC)) !== 0 || (base & WRITE_INTENT) !== 0n || (n(fdflags) & FdFlags.APPEND) !== 0;
      if (wantsWrite) mustWrite(dir);
      const resolved = resolve(dir, guestPath, (n(dirflags) & LOOKUP_SYMLINK_FOLLOW) !== 0);
      const allowed = rootRights(dir.root);
      const rights = { base: base & allowed, inheriting: BigInt(rightsInheriting) & allowed };
      const existing = resolved.exists ? lstatSync(resolved.host) : undefined;
      if (existing?.isDirectory() === true || (o & OFlags.DIRECTORY) !== 0) {
        if (existing === undefined) return Errno.NOENT;
        if (!existing.isDirectory()) return Errno.NOTDIR;
        if ((o & (OFlags.EXCL | OFlags.CREAT)) === (OFlags.EXCL | OFlags.CREAT)) return Errno.EXIST;
        if (wantsWrite) return Errno.ISDIR;
        state.memory().setU32(n(outPtr), table.add({ kind: 'dir', root: dir.root, rel: resolved.rel, preopen: false, ...rights }));
        return Errno.SUCCESS;
      }
      const readable = (base & Rights.FD_READ) !== 0n || !wantsWrite;
      const writable = (base & Rights.FD_WRITE) !== 0n && dir.root.write;
      let flags = constants.O_NOFOLLOW | (readable && writable ? constants.O_RDWR : writable ? constants.O_WRONLY : constants.O_RDONLY);
      if (o & OFlags.CREAT) flags |= constants.O_CREAT;
      if (o & OFlags.EXCL) flags |= constants.O_EXCL;
      if (o & OFlags.TRUNC) flags |= constants.O_TRUNC;
      const hostFd = openSync(resolved.host, flags, 0o666);
      try {
        checkOpened(hostFd, dir.root.host);
        if (fstatSync(hostFd).isDirectory()) throw new WasiErrno(Errno.ISDIR);
      } catch (error) {
        closeSync(hostFd);
        throw error;
      }
      const append = (n(fdflags) & FdFlags.APPEND) !== 0;
      state.memory().setU32(n(outPtr), table.add({ kind: 'file', root: dir.root, hostFd, readable, writable, append, position: 0, ...rights }));
      return Errno.SUCCESS;
    },
    path_create_directory: (fd, ptr, len) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      const resolved = resolve(dir, guestPath, false);
      if (resolved.exists) return Errno.EXIST;
      mkdirSync(resolved.host);
      return Errno.SUCCESS;
    },
    path_filestat_get: (fd, flags, ptr, len, out) => {
      const { dir, guestPath } = at(fd, ptr, len);
      const resolved = resolve(dir, guestPath, (n(flags) & LOOKUP_SYMLINK_FOLLOW) !== 0);
      if (!resolved.exists) return Errno.NOENT;
      writeFilestat(state.memory(), n(out), lstatSync(resolved.host, { bigint: true }));
      return Errno.SUCCESS;
    },
    path_filestat_set_times: (fd, flags, ptr, len, atim, mtim, fstflags) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      const resolved = resolve(dir, guestPath, (n(flags) & LOOKUP_SYMLINK_FOLLOW) !== 0);
      if (!resolved.exists) return Errno.NOENT;
      const { atime, mtime } = newTimes(lstatSync(resolved.host, { bigint: true }), BigInt(atim), BigInt(mtim), n(fstflags));
      if (lstatSync(resolved.host).isSymbolicLink()) lutimesSync(resolved.host, atime, mtime);
      else utimesSync(resolved.host, atime, mtime);
      return Errno.SUCCESS;
    },
    path_link: (oldFd, oldFlags, oldPtr, oldLen, newFd, newPtr, newLen) => {
      const from = at(oldFd, oldPtr, oldLen);
      const to = at(newFd, newPtr, newLen);
      mustWrite(from.dir);
      mustWrite(to.dir);
      const source = resolve(from.dir, from.guestPath, (n(oldFlags) & LOOKUP_SYMLINK_FOLLOW) !== 0);
      const target = notRoot(resolve(to.dir, to.guestPath, false));
      if (!source.exists) return Errno.NOENT;
      if (target.exists) return Errno.EXIST;
      checkMoved(from.dir, source, to.dir, target);
      linkSync(source.host, target.host);
      return Errno.SUCCESS;
    },
    path_readlink: (fd, ptr, len, buf, bufLen, usedPtr) => {
      const { dir, guestPath } = at(fd, ptr, len);
      const resolved = resolve(dir, guestPath, false);
      if (!resolved.exists) return Errno.NOENT;
      const target = readlinkSync(resolved.host, { encoding: 'buffer' });
      const memory = state.memory();
      const take = Math.min(target.byteLength, n(bufLen));
      memory.slice(n(buf), take).set(target.subarray(0, take));
      memory.setU32(n(usedPtr), take);
      return Errno.SUCCESS;
    },
    path_remove_directory: (fd, ptr, len) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      const resolved = notRoot(resolve(dir, guestPath, false));
      if (!resolved.exists) return Errno.NOENT;
      if (!lstatSync(resolved.host).isDirectory()) return Errno.NOTDIR;
      rmdirSync(resolved.host);
      return Errno.SUCCESS;
    },
    path_rename: (oldFd, oldPtr, oldLen, newFd, newPtr, newLen) => {
      const from = at(oldFd, oldPtr, oldLen);
      const to = at(newFd, newPtr, newLen);
      mustWrite(from.dir);
      mustWrite(to.dir);
      const source = notRoot(resolve(from.dir, from.guestPath, false));
      const target = notRoot(resolve(to.dir, to.guestPath, false));
      if (!source.exists) return Errno.NOENT;
      checkMoved(from.dir, source, to.dir, target);
      renameSync(source.host, target.host);
      return Errno.SUCCESS;
    },
    path_symlink: (targetPtr, targetLen, fd, ptr, len) => {
      const target = state.memory().string(n(targetPtr), n(targetLen));
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      const link = notRoot(resolve(dir, guestPath, false));
      if (link.exists) return Errno.EXIST;
      // The link must not point out of the root even for someone else who follows it later.
      const dirRel = link.rel.slice(0, -1);
      checkLinkTarget(target, dirRel.length, () => resolveInRoot(dir.root.host, dirRel, target, true));
      symlinkSync(target, link.host);
      return Errno.SUCCESS;
    },
    path_unlink_file: (fd, ptr, len) => {
      const { dir, guestPath } = at(fd, ptr, len);
      mustWrite(dir);
      const resolved = notRoot(resolve(dir, guestPath, false));
      if (!resolved.exists) return Errno.NOENT;
      if (lstatSync(resolved.host).isDirectory()) return Errno.ISDIR;
      unlinkSync(resolved.host);
      return Errno.SUCCESS;
    },
  };
}

function sameParent(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.slice(0, -1).every((part, index) => part === b[index]);
}

/**
 * After an open, where did it land? `/proc/self/fd` names the file the fd
 * really refers to; if another process swapped a component for a symlink
 * between the walk and the open, it is outside the root and the open is
 * refused. (Where `/proc` is missing the walk alone stands.)
 */
function checkOpened(hostFd: number, root: string): void {
  let actual: string;
  try {
    actual = readlinkSync(`/proc/self/fd/${hostFd}`);
  } catch {
    return;
  }
  const relative = path.relative(root, actual);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new WasiErrno(Errno.NOTCAPABLE);
}
