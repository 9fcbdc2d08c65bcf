import { closeSync } from 'node:fs';
import { Errno, WasiErrno } from './errno.ts';

/** A granted directory: where it is on the host (realpath at load) and what the guest calls it. */
export interface WasiRoot {
  /** Realpath of the granted host directory. */
  readonly host: string;
  /** The guest path the grant names (what `fd_prestat_dir_name` reports). */
  readonly guest: string;
  /** Whether the operator granted `"write": true`. */
  readonly write: boolean;
}

interface Rights {
  base: bigint;
  inheriting: bigint;
}

/** The guest's stdin (EOF), stdout or stderr (both to the hook's log sink). No host fd behind them. */
export interface StdioEntry extends Rights {
  readonly kind: 'stdio';
  readonly stream: 0 | 1 | 2;
}

/** A directory inside a root, held by its components (re-resolved at each use; no host fd). */
export interface DirEntry extends Rights {
  readonly kind: 'dir';
  readonly root: WasiRoot;
  readonly rel: readonly string[];
  /** Set on the preopened root directories (they answer `fd_prestat_get`). */
  readonly preopen: boolean;
}

/** A regular file opened inside a root: a host fd the guest only ever names by its own number. */
export interface FileEntry extends Rights {
  readonly kind: 'file';
  readonly root: WasiRoot;
  readonly hostFd: number;
  readonly readable: boolean;
  readonly writable: boolean;
  append: boolean;
  position: number;
}

export type FdEntry = StdioEntry | DirEntry | FileEntry;

/** Open descriptors per instance (each file holds one host fd until closed or the instance goes). */
export const MAX_OPEN_FDS = 128;

/**
 * The guest's descriptor table. Numbers are the guest's own, allocated
 * lowest-free like POSIX; closing or renumbering only edits this table (and
 * closes the host fd behind a file entry, which no other entry shares).
 */
export class FdTable {
  readonly #entries = new Map<number, FdEntry>();

  get(fd: number): FdEntry {
    const entry = this.#entries.get(fd);
    if (entry === undefined) throw new WasiErrno(Errno.BADF);
    return entry;
  }

  /** The entry if it is a directory (`ENOTDIR` for other kinds, `EBADF` when closed). */
  dir(fd: number): DirEntry {
    const entry = this.get(fd);
    if (entry.kind !== 'dir') throw new WasiErrno(Errno.NOTDIR);
    return entry;
  }

  /** The entry if it is a file (`EISDIR` for a directory, `ESPIPE` for stdio). */
  file(fd: number): FileEntry {
    const entry = this.get(fd);
    if (entry.kind === 'dir') throw new WasiErrno(Errno.ISDIR);
    if (entry.kind === 'stdio') throw new WasiErrno(Errno.SPIPE);
    return entry;
  }

  /** Adds an entry at the lowest free number. */
  add(entry: FdEntry): number {
    if (this.#entries.size >= MAX_OPEN_FDS) {
      if (entry.kind === 'file') closeQuietly(entry.hostFd);
      throw new WasiErrno(Errno.MFILE);
    }
    let fd = 0;
    while (this.#entries.has(fd)) fd++;
    this.#entries.set(fd, entry);
    return fd;
  }

  close(fd: number): void {
    const entry = this.get(fd);
    this.#entries.delete(fd);
    if (entry.kind === 'file') closeQuietly(entry.hostFd);
  }

  /** `fd_renumber`: `to` (which must be open) is closed and takes `from`'s entry. */
  renumber(from: number, to: number): void {
    const entry = this.get(from);
    this.get(to);
    if (from === to) return;
    this.close(to);
    this.#entries.delete(from);
    this.#entries.set(to, entry);
  }

  /** Closes every host fd (the instance is going away). */
  closeAll(): void {
    for (const entry of this.#entries.values()) if (entry.kind === 'file') closeQuietly(entry.hostFd);
    this.#entries.clear();
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing of the guest's can have reused it (only this table holds it).
  }
}
