import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { Errno, WasiErrno } from './errno.ts';

/** Entries of a directory tree a rename to a shallower place checks for symlinks before refusing to look further. */
export const MAX_MOVED_ENTRIES = 4096;

/**
 * Whether a symlink with this target text, in a directory `dirDepth`
 * components below the root, stays inside the root for whoever follows it —
 * the operator's `cat`, the agent's Read tool, a CI upload — however the
 * tree changes later. Throws `NOTCAPABLE` (`INVAL` for a NUL) otherwise.
 *
 * The text alone must keep it inside: no absolute target, and every `..`
 * leading, no more of them than `dirDepth`. A `..` after a name is refused
 * even when it resolves inside today, because the kernel resolves `..`
 * from wherever that name leads: `d/..` climbs above the root as soon as
 * `d` is swapped for a link to `.`, and `d/up/..` with `d/up -> ..` already
 * does. With this rule each link, judged where it lies, stays inside;
 * `walk` then resolves the target from the link's own directory, following
 * the existing links, and refuses it when one of them leads out (a link put
 * there by something else). A target that names missing components is
 * allowed (a dangling link): what follows the missing part is names only.
 */
export function checkLinkTarget(target: string, dirDepth: number, walk?: () => void): void {
  if (target.includes('\0')) throw new WasiErrno(Errno.INVAL);
  if (target.length === 0 || target.startsWith('/')) throw new WasiErrno(Errno.NOTCAPABLE);
  let climbs = 0;
  let named = false;
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') named = true;
    else if (named) throw new WasiErrno(Errno.NOTCAPABLE);
    else climbs++;
  }
  if (climbs > dirDepth) throw new WasiErrno(Errno.NOTCAPABLE);
  if (walk === undefined) return;
  try {
    walk();
  } catch (error) {
    const errno = error instanceof WasiErrno ? error.errno : undefined;
    // Missing, not a directory, or a loop: a link that leads nowhere, not out.
    if (errno === Errno.NOENT || errno === Errno.NOTDIR || errno === Errno.LOOP) return;
    throw error;
  }
}

/**
 * Every symlink inside the directory `host`, which is about to land `depth`
 * components below its root (its own name included), must still pass the
 * text rule of `checkLinkTarget` there. A tree of more than
 * `MAX_MOVED_ENTRIES` entries is refused rather than half checked.
 */
export function checkMovedTree(host: string, depth: number): void {
  let seen = 0;
  const visit = (dir: string, dirDepth: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (++seen > MAX_MOVED_ENTRIES) throw new WasiErrno(Errno.NOTCAPABLE);
      const child = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) checkLinkTarget(readlinkSync(child), dirDepth);
      else if (entry.isDirectory()) visit(child, dirDepth + 1);
    }
  };
  visit(host, depth);
}
