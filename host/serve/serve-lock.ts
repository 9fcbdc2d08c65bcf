import { closeSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { ConfigError } from '../errors.ts';

/**
 * One server per socket (issue #55): `<socket>.pid` holds the pid of the
 * `hookbox serve` on that socket, created O_EXCL before the server loads
 * anything, so of several servers started at once for one project (each
 * first event of a fresh project starts one) exactly one goes on; the
 * others find the holder alive and leave. A file whose pid is gone (a server
 * killed without closing) is stale and taken over. `hookbox serve --stop`
 * reads it; the clients read it to start no second server while one starts.
 */
export function pidFileOf(socket: string): string {
  return `${socket}.pid`;
}

/** The pid in a server's pid file when that process is alive; undefined when there is none or it is gone. */
export function livePid(socket: string): number | undefined {
  let text: string;
  try {
    if (!lstatSync(pidFileOf(socket)).isFile()) return undefined;
    text = readFileSync(pidFileOf(socket), 'utf8').trim();
  } catch {
    return undefined;
  }
  const pid = Number(text);
  if (!/^[1-9][0-9]{0,9}$/.test(text) || !Number.isSafeInteger(pid)) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: alive but another user's — not a server of ours, yet not to be taken over either.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/** Takes the socket's pid file for this process: true when taken, false when a live server holds it. */
export function takePidFile(socket: string): boolean {
  const file = pidFileOf(socket);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfigError(`${file}: cannot create the server's pid file (${(error as Error).message})`);
      const holder = livePid(socket);
      if (holder !== undefined && holder !== process.pid) return false;
      // Stale (its server is gone) or half-written by a server that died at once: taken over.
      unlinkSync(file);
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  }
  return false;
}

/** Removes the pid file when it is still this process's. */
export function releasePidFile(socket: string): void {
  try {
    if (readFileSync(pidFileOf(socket), 'utf8').trim() === String(process.pid)) unlinkSync(pidFileOf(socket));
  } catch {
    // Gone already: nothing to release.
  }
}
