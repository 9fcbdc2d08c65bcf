import { type Stats, closeSync, constants, existsSync, lstatSync, openSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { pathUnder } from '../../path-under.ts';
import { Errno, WasiErrno, errnoFromNode } from './errno.ts';

/** Symlinks followed in one walk before `ELOOP` (Linux's limit is 40); a component seen to change under the walk counts too. */
export const MAX_SYMLINKS = 32;

/**
 * Whether the kernel's fd-relative lookup is reachable: `/proc/self/fd/N/name`
 * resolves `N` to the directory that fd has open, whatever has since happened
 * to the names above it (Linux). Without it a path call can only hand the OS
 * a path string, which something else can change between check and use.
 */
export const FD_RELATIVE = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Why write grants refuse path calls where there is no fd-relative lookup (logged once per instance). */
export const NO_FD_RELATIVE_NOTE =
  'path calls on a write grant are refused on this platform: it has no /proc/self/fd, so hookbox cannot act through an opened directory, and a path string can be redirected by a concurrent rename between its check and its use';

const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/**
 * A guest path walked inside a root: the directory its final component lies
 * in, held open, and that component. Close it (`close`) when the call is done.
 */
export interface Walked {
  /** Host fd of the directory that holds `leaf` (or, with no leaf, the directory the path names). */
  readonly dirFd: number;
  /** The final component, not followed; `undefined` when the path names the directory itself (`.`, `a/..`). */
  readonly leaf: string | undefined;
  /** Components below the root, the leaf included (`[]` = the root). */
  readonly rel: readonly string[];
  /** Whether the leaf existed when it was looked at (a missing leaf is allowed, for creation). */
  readonly exists: boolean;
  /** `lstat` of the leaf when it was looked at (undefined when missing or when there is no leaf). */
  readonly stat: Stats | undefined;
  /** The path to hand a syscall: `/proc/self/fd/<dirFd>/<leaf>` (the directory itself without a leaf). */
  readonly at: string;
  close(): void;
}

/**
 * Walks `guestPath`, relative to `base` (components below `root`, which is a
 * realpath computed at load), inside `root`. Each directory on the way is
 * opened with `O_DIRECTORY|O_NOFOLLOW` through the one before it
 * (`/proc/self/fd/<parent>/<name>`), so the walk holds the very directories
 * it checked: a rename or a swap for a symlink anywhere above the leaf after
 * that cannot redirect what the call does through `at`. A component that is
 * a symlink is read and its target spliced into the walk: followed only
 * while the walk stays inside the root; `..` goes back to the directory
 * opened before (never above the root: `ENOTCAPABLE`); absolute guest paths,
 * and absolute link targets outside the root, are `ENOTCAPABLE`. The final
 * component is followed only when `followFinal` (WASI
 * `LOOKUP_SYMLINK_FOLLOW`) or the path ends in `/`; otherwise it is named,
 * never followed, and callers act on it with calls that do not follow it
 * (`O_NOFOLLOW`, `lstat`, `lutimes`, `unlink`, `rename`, `link` without
 * follow). A missing final component is allowed; a missing intermediate one
 * is `ENOENT`. Throws `WasiErrno`, with every fd it opened closed.
 *
 * Without `FD_RELATIVE` the same walk runs on path strings (the caller
 * refuses write grants there).
 */
export function walkInRoot(root: string, base: readonly string[], guestPath: string, followFinal: boolean): Walked {
  if (guestPath.length === 0) throw new WasiErrno(Errno.NOENT);
  if (guestPath.includes('\0')) throw new WasiErrno(Errno.INVAL);
  if (guestPath.startsWith('/')) throw new WasiErrno(Errno.NOTCAPABLE);
  const follow = followFinal || guestPath.endsWith('/');
  const queue = [...base, ...split(guestPath)];
  const fds: number[] = [openRoot(root)];
  const names: string[] = [];
  const here = (name?: string) => (FD_RELATIVE ? fdPath(fds.at(-1) as number, name) : path.join(root, ...names, name ?? ''));
  let links = 0;
  const splice = (target: string) => {
    if (++links > MAX_SYMLINKS) throw new WasiErrno(Errno.LOOP);
    if (!path.isAbsolute(target)) {
      queue.unshift(...split(target));
      return;
    }
    const inside = pathUnder(root, path.resolve(target));
    if (inside === undefined) throw new WasiErrno(Errno.NOTCAPABLE);
    while (fds.length > 1) closeSync(fds.pop() as number);
    names.length = 0;
    queue.unshift(...split(inside));
  };
  try {
    let leaf: string | undefined;
    let stat: Stats | undefined;
    let exists = true;
    while (queue.length > 0) {
      const component = queue.shift() as string;
      if (component === '..') {
        if (names.length === 0) throw new WasiErrno(Errno.NOTCAPABLE);
        closeSync(fds.pop() as number);
        names.pop();
        continue;
      }
      if (queue.length > 0) {
        const opened = openDir(here(component));
        if (typeof opened === 'number') {
          fds.push(opened);
          names.push(component);
          continue;
        }
        // Not opened as a directory: a symlink (spliced), a file, or something swapped under us (looked at again).
        const seen = lstatOrThrow(here(component), true);
        if (seen.isSymbolicLink()) splice(readlinkSync(here(component)));
        else if (seen.isDirectory()) {
          if (++links > MAX_SYMLINKS) throw new WasiErrno(Errno.LOOP);
          queue.unshift(component);
        } else throw new WasiErrno(Errno.NOTDIR);
        continue;
      }
      const seen = lstatOrThrow(here(component), false);
      if (seen === undefined) {
        exists = false;
        leaf = component;
        break;
      }
      if (seen.isSymbolicLink() && follow) {
        splice(readlinkSync(here(component)));
        continue;
      }
      leaf = component;
      stat = seen;
    }
    const dirFd = fds.pop() as number;
    for (const fd of fds) closeSync(fd);
    fds.length = 0;
    return {
      dirFd,
      leaf,
      rel: leaf === undefined ? names : [...names, leaf],
      exists,
      stat,
      at: FD_RELATIVE ? fdPath(dirFd, leaf) : path.join(root, ...names, leaf ?? ''),
      close: () => closeSync(dirFd),
    };
  } catch (error) {
    for (const fd of fds) closeSync(fd);
    if (error instanceof WasiErrno) throw error;
    throw new WasiErrno(errnoFromNode((error as NodeJS.ErrnoException).code));
  }
}

/**
 * Opens the directory a walk names (its leaf followed, a symlink out refused)
 * and hands its fd to `use`; closes it after. `ENOTDIR` when it is no directory.
 */
export function withDir<T>(root: string, rel: readonly string[], use: (dirFd: number, at: string) => T): T {
  const walked = walkInRoot(root, [], rel.length === 0 ? '.' : `${rel.join('/')}/`, true);
  let fd = walked.dirFd;
  try {
    if (walked.leaf !== undefined) {
      if (!walked.exists) throw new WasiErrno(Errno.NOENT);
      const opened = openDir(walked.at);
      if (typeof opened !== 'number') throw new WasiErrno(Errno.NOTDIR);
      closeSync(walked.dirFd);
      fd = opened;
    }
    return use(fd, FD_RELATIVE ? fdPath(fd) : path.join(root, ...walked.rel));
  } finally {
    closeSync(fd);
  }
}

/** `/proc/self/fd/<fd>` or `/proc/self/fd/<fd>/<name>`. */
function fdPath(fd: number, name?: string): string {
  return name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`;
}

/**
 * Opens the root: it must still be a directory, not a symlink put in its
 * place since load, and — where the kernel names what an fd has open — still
 * the directory of that realpath: a directory above it swapped for a link
 * (the root's parents are not the guest's, but another process can rename
 * them) leaves it somewhere else, and the call is refused.
 */
function openRoot(root: string): number {
  let fd: number;
  try {
    fd = openSync(root, DIR_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new WasiErrno(code === 'ENOENT' ? Errno.NOENT : code === 'ENOTDIR' || code === 'ELOOP' ? Errno.NOTCAPABLE : errnoFromNode(code));
  }
  if (FD_RELATIVE && readlinkSync(fdPath(fd)) !== root) {
    closeSync(fd);
    throw new WasiErrno(Errno.NOTCAPABLE);
  }
  return fd;
}

/** A directory opened without following a final symlink, or the error code when it is none. */
function openDir(at: string): number | string {
  try {
    return openSync(at, DIR_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOTDIR' || code === 'ELOOP') return code;
    throw new WasiErrno(errnoFromNode(code));
  }
}

function lstatOrThrow(at: string, mustExist: true): Stats;
function lstatOrThrow(at: string, mustExist: false): Stats | undefined;
function lstatOrThrow(at: string, mustExist: boolean): Stats | undefined {
  try {
    return lstatSync(at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !mustExist) return undefined;
    throw new WasiErrno(errnoFromNode(code));
  }
}

function split(text: string): string[] {
  return text.split('/').filter((part) => part !== '' && part !== '.');
}
