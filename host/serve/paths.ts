import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../errors.ts';

/** The loopback port `setup --transport http` writes and its printed `serve --port` line uses (unassigned by IANA, rarely used); `serve` opens a port only when given one. */
export const DEFAULT_SERVE_PORT = 47100;

/** hookbox's per-user folder (socket, token): `$HOOKBOX_HOME`, else `~/.hookbox`. */
export function hookboxHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.HOOKBOX_HOME ?? path.join(homedir(), '.hookbox'));
}

/** The user-wide unix socket (`setup --user`'s); a project's server listens on the project's own (`serve` with no --socket). */
export function defaultSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(hookboxHome(env), 'serve.sock');
}

/** The default bearer-token file of `hookbox serve` (written by `hookbox setup`, 0600). */
export function defaultTokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(hookboxHome(env), 'serve-token');
}

/**
 * Makes sure `dir` is a folder only its owner can enter (created 0700 when
 * missing). A socket's own mode is not enough on every system; its folder's is.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new ConfigError(`${dir}: expected a directory for hookbox's socket and token`);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new ConfigError(`${dir}: owned by uid ${stat.uid}, not by you (uid ${process.getuid()}); refusing to put a socket or token there`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Reads the bearer token, creating a fresh random one (0600) when the file is missing. */
export function readOrCreateToken(file: string): { token: string; created: boolean } {
  ensurePrivateDir(path.dirname(file));
  if (existsSync(file)) {
    const stat = lstatSync(file);
    if (!stat.isFile()) throw new ConfigError(`${file}: the token must be a regular file`);
    if ((stat.mode & 0o077) !== 0) throw new ConfigError(`${file}: readable by others (mode ${(stat.mode & 0o777).toString(8)}); chmod 600 it or delete it for a new one`);
    const token = readFileSync(file, 'utf8').trim();
    if (!/^[A-Za-z0-9_-]{32,}$/.test(token)) throw new ConfigError(`${file}: expected one token of at least 32 characters [A-Za-z0-9_-]`);
    return { token, created: false };
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { token, created: true };
}
