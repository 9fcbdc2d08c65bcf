import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GuardedPath } from './protected-set.ts';

/** Files larger than this are compared by size and time only, and cannot be put back. */
const MAX_KEPT_BYTES = 1024 * 1024;
/** How deep a protected folder is read (plugin folders are flat; `.hookbox/` has sessions/ and run/). */
const MAX_DEPTH = 2;

/** One file as it was: its bytes, or (too large) a fingerprint; `null` when it did not exist. */
type FileState = { readonly bytes: Buffer } | { readonly fingerprint: string } | null;

/**
 * The protected paths as they were before a tool ran: the backstop behind
 * the command check (`shellTouch`), for what only the shell knew (a
 * variable, a computed name, a script run from a file). The tool's result
 * is compared with it; what changed is put back and reported.
 */
export class ProtectedSnapshot {
  readonly #files = new Map<string, FileState>();

  /** Reads every protected path but the live ones (hookbox's own `.hookbox/`, which it writes itself meanwhile). */
  constructor(paths: readonly GuardedPath[]) {
    for (const entry of paths) {
      if (entry.live === true) continue;
      if (entry.folder === true) this.#readFolder(entry.path, 0);
      else this.#files.set(entry.path, readState(entry.path));
    }
  }

  /** The protected paths that differ now from the snapshot (a file changed, added, removed, replaced by a link). */
  changed(paths: readonly GuardedPath[]): string[] {
    const now = new ProtectedSnapshot(paths);
    const changed: string[] = [];
    for (const file of new Set([...this.#files.keys(), ...now.#files.keys()])) {
      if (!sameState(this.#files.get(file) ?? null, now.#files.get(file) ?? null)) changed.push(file);
    }
    return changed;
  }

  /** Puts the changed paths back as they were; returns the ones it could not (a large file, an unwritable folder). */
  restore(changed: readonly string[]): string[] {
    const failed: string[] = [];
    for (const file of changed) {
      const before = this.#files.get(file) ?? null;
      try {
        if (before === null) rmSync(file, { recursive: true, force: true });
        else if ('bytes' in before) writeBack(file, before.bytes);
        else failed.push(file);
      } catch {
        failed.push(file);
      }
    }
    return failed;
  }

  #readFolder(folder: string, depth: number): void {
    let names: string[];
    try {
      const stat = lstatSync(folder, { throwIfNoEntry: false });
      if (stat === undefined) return;
      if (!stat.isDirectory()) {
        this.#files.set(folder, readState(folder));
        return;
      }
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const file = path.join(folder, name);
      let isDir = false;
      try {
        isDir = lstatSync(file).isDirectory();
      } catch {
        continue;
      }
      if (isDir && depth < MAX_DEPTH) this.#readFolder(file, depth + 1);
      else if (!isDir) this.#files.set(file, readState(file));
    }
  }
}

function readState(file: string): FileState {
  try {
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined) return null;
    if (stat.isSymbolicLink() || !stat.isFile()) return { fingerprint: `${stat.mode}:${stat.isSymbolicLink() ? 'link' : 'other'}:${stat.ino}` };
    if (stat.size > MAX_KEPT_BYTES) return { fingerprint: `${stat.size}:${stat.mtimeMs}:${stat.ino}` };
    return { bytes: readFileSync(file) };
  } catch {
    return null;
  }
}

function sameState(a: FileState, b: FileState): boolean {
  if (a === null || b === null) return a === b;
  if ('bytes' in a && 'bytes' in b) return a.bytes.equals(b.bytes);
  return 'fingerprint' in a && 'fingerprint' in b && a.fingerprint === b.fingerprint;
}

/** Writes `bytes` to `file` through a temporary file and a rename, replacing a link or folder put in its place. */
function writeBack(file: string, bytes: Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.hookbox-restore-${process.pid}`;
  writeFileSync(temporary, bytes, { mode: 0o600 });
  try {
    const stat = lstatSync(file);
    if (stat.isDirectory() || stat.isSymbolicLink()) rmSync(file, { recursive: true, force: true });
  } catch {
    // Gone: the rename puts it back.
  }
  renameSync(temporary, file);
}
