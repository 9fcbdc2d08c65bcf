import { type BigIntStats, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GuardedPath } from './protected-set.ts';

/** Files larger than this are compared by their fingerprint only, and cannot be put back. */
const MAX_KEPT_BYTES = 1024 * 1024;
/** How deep a protected folder is read (plugin and hook folders are flat). */
const MAX_DEPTH = 2;
/** Bytes kept across snapshots, by path, while the file's fingerprint stays the same. */
const MAX_CACHED = 256;

/**
 * One file as it was: its fingerprint (inode, size, mode, and the change and
 * modification times in ns — a write always moves the change time, which no
 * user can set) and, up to 1 MiB, its bytes; `null` when it did not exist.
 */
type FileState = { readonly fingerprint: string; readonly bytes?: Buffer } | null;

/** Bytes of files read before, so an unchanged file is stat-ed, not read, on each tool call. */
const cache = new Map<string, { readonly fingerprint: string; readonly bytes: Buffer }>();

/**
 * The protected paths as they were before a tool ran: the backstop behind
 * the command check (`shellTouch`), for what only the shell knew (a
 * variable, a computed name, a script run from a file). After the tool,
 * the same paths are stat-ed again; what changed is put back and reported.
 */
export class ProtectedSnapshot {
  readonly #files: Map<string, FileState>;

  /** Every protected path but the live ones (hookbox's own `.hookbox/`, which it writes itself meanwhile). */
  constructor(paths: readonly GuardedPath[], keepBytes = true) {
    this.#files = statAll(paths, keepBytes);
  }

  /** The protected paths that differ now from the snapshot (a file changed, added, removed, replaced by a link). */
  changed(paths: readonly GuardedPath[]): string[] {
    const now = statAll(paths, false);
    const changed: string[] = [];
    for (const file of new Set([...this.#files.keys(), ...now.keys()])) {
      if ((this.#files.get(file)?.fingerprint ?? null) !== (now.get(file)?.fingerprint ?? null)) changed.push(file);
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
        else if (before.bytes !== undefined) writeBack(file, before.bytes);
        else failed.push(file);
      } catch {
        failed.push(file);
      }
    }
    return failed;
  }
}

function statAll(paths: readonly GuardedPath[], keepBytes: boolean): Map<string, FileState> {
  const files = new Map<string, FileState>();
  for (const entry of paths) {
    if (entry.live === true) continue;
    if (entry.folder === true) readFolder(files, entry.path, 0, keepBytes);
    else files.set(entry.path, readState(entry.path, lstat(entry.path), keepBytes));
  }
  return files;
}

function lstat(file: string): BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readFolder(files: Map<string, FileState>, folder: string, depth: number, keepBytes: boolean): void {
  const stat = lstat(folder);
  if (stat === undefined) return;
  if (!stat.isDirectory()) {
    files.set(folder, readState(folder, stat, keepBytes));
    return;
  }
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(folder, name);
    const inner = lstat(file);
    if (inner === undefined) continue;
    if (inner.isDirectory() && depth < MAX_DEPTH) readFolder(files, file, depth + 1, keepBytes);
    else if (!inner.isDirectory()) files.set(file, readState(file, inner, keepBytes));
  }
}

function readState(file: string, stat: BigIntStats | undefined, keepBytes: boolean): FileState {
  if (stat === undefined) return null;
  const fingerprint = `${stat.ino}:${stat.size}:${stat.mode}:${stat.ctimeNs}:${stat.mtimeNs}`;
  if (!keepBytes || !stat.isFile() || stat.size > BigInt(MAX_KEPT_BYTES)) return { fingerprint };
  const cached = cache.get(file);
  if (cached?.fingerprint === fingerprint) return cached;
  try {
    const bytes = readFileSync(file);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(file, { fingerprint, bytes });
    return { fingerprint, bytes };
  } catch {
    return { fingerprint };
  }
}

/** Writes `bytes` to `file` through a temporary file and a rename, replacing a link or folder put in its place. */
function writeBack(file: string, bytes: Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.hookbox-restore-${process.pid}`;
  writeFileSync(temporary, bytes, { mode: 0o600 });
  const stat = lstat(file);
  if (stat !== undefined && (stat.isDirectory() || stat.isSymbolicLink())) rmSync(file, { recursive: true, force: true });
  renameSync(temporary, file);
}
