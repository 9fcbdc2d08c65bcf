import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { Errno, WasiErrno, errnoFromNode } from './errno.ts';

/** Symlinks followed in one resolution before `ELOOP` (Linux's limit is 40). */
export const MAX_SYMLINKS = 32;

/** A guest path resolved inside a root: the host path and its components below the root. */
export interface ResolvedPath {
  /** Absolute host path; no component of it below the root is a symlink, except a final one that was not followed. */
  readonly host: string;
  /** Components below the root (`[]` = the root itself). */
  readonly rel: readonly string[];
  /** Whether the final component exists (`lstat` succeeded). */
  readonly exists: boolean;
}

/**
 * Resolves `guestPath`, relative to the directory `base` (components below
 * `root`), one component at a time inside `root`, which must be a realpath
 * (computed once, at load). Each component is `lstat`ed: a symlink is read
 * and its target spliced into the walk, so it is followed only while the
 * walk stays inside the root; `..` pops a component and never climbs above
 * the root; absolute guest paths and absolute symlink targets outside the
 * root answer `ENOTCAPABLE`. The final component is followed only when
 * `followFinal` (WASI `LOOKUP_SYMLINK_FOLLOW`) or the path ends in `/`.
 * A missing final component is allowed (for creation); a missing
 * intermediate one is `ENOENT`. Throws `WasiErrno`.
 *
 * The walk runs at every call that takes a path, so a symlink swapped
 * between two calls is judged afresh. Between this walk and the syscall that
 * uses its result, only another process can change the tree (the guest is
 * single-threaded and blocked in this call); opens are re-checked after the
 * fact (`checkOpened` in path-calls.ts).
 */
export function resolveInRoot(root: string, base: readonly string[], guestPath: string, followFinal: boolean): ResolvedPath {
  if (guestPath.length === 0) throw new WasiErrno(Errno.NOENT);
  if (guestPath.includes('\0')) throw new WasiErrno(Errno.INVAL);
  if (guestPath.startsWith('/')) throw new WasiErrno(Errno.NOTCAPABLE);
  checkRoot(root);
  const trailingSlash = guestPath.endsWith('/');
  const follow = followFinal || trailingSlash;
  const queue = split(guestPath);
  const stack = [...base];
  let links = 0;
  let exists = true;
  while (queue.length > 0) {
    const component = queue.shift() as string;
    const last = queue.length === 0;
    if (component === '..') {
      if (stack.length === 0) throw new WasiErrno(Errno.NOTCAPABLE);
      stack.pop();
      continue;
    }
    const candidate = path.join(root, ...stack, component);
    let stat;
    try {
      stat = lstatSync(candidate);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && last) {
        stack.push(component);
        exists = false;
        break;
      }
      throw new WasiErrno(errnoFromNode(code));
    }
    if (stat.isSymbolicLink() && (!last || follow)) {
      if (++links > MAX_SYMLINKS) throw new WasiErrno(Errno.LOOP);
      const target = readlinkSync(candidate);
      if (path.isAbsolute(target)) {
        const inside = path.relative(root, path.resolve(target));
        if (inside.startsWith('..') || path.isAbsolute(inside)) throw new WasiErrno(Errno.NOTCAPABLE);
        stack.length = 0;
        queue.unshift(...split(inside));
      } else {
        queue.unshift(...split(target));
      }
      // A link to a directory named with a trailing slash keeps meaning "directory".
      if (last && queue.length === 0) break;
      continue;
    }
    if (!last && !stat.isDirectory()) throw new WasiErrno(Errno.NOTDIR);
    stack.push(component);
  }
  return { host: stack.length === 0 ? root : path.join(root, ...stack), rel: stack, exists };
}

/** The root itself must still be a directory, not a symlink put in its place since load. */
function checkRoot(root: string): void {
  let stat;
  try {
    stat = lstatSync(root);
  } catch {
    throw new WasiErrno(Errno.NOENT);
  }
  if (!stat.isDirectory()) throw new WasiErrno(Errno.NOTCAPABLE);
}

function split(text: string): string[] {
  return text.split('/').filter((part) => part !== '' && part !== '.');
}

/** The host path of an open directory, re-resolved from its root (`ENOTDIR` if it is no longer one). */
export function resolveDir(root: string, rel: readonly string[]): string {
  const resolved = resolveInRoot(root, [], rel.length === 0 ? '.' : rel.join('/'), true);
  if (!resolved.exists) throw new WasiErrno(Errno.NOENT);
  if (!lstatSync(resolved.host).isDirectory()) throw new WasiErrno(Errno.NOTDIR);
  return resolved.host;
}
