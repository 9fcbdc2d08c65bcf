// Node's on-disk compile cache for hookbox's own processes (the bin, the Node
// hook client, the workers): on Node 22.1 and later the modules loaded after
// this call are compiled once per user and read back from the cache on the
// next start; on Node 20 `module.enableCompileCache` does not exist and
// nothing changes. The cache lives in the per-user cache folder hookbox
// already uses — `$HOOKBOX_CACHE_DIR`, else `$XDG_CACHE_HOME/hookbox`, else
// `~/.cache/hookbox` — under `node-compile-cache/` (Node keys its entries by
// Node version and file content, so one folder serves every Node and
// checkout). `NODE_COMPILE_CACHE` set by the user wins (Node enabled it
// already), `NODE_DISABLE_COMPILE_CACHE=1` turns it off, and a cache that
// cannot be written is no error: the process starts uncached.
// Cached code is code: the folder is made 0700, and a cache whose root or
// folder another user owns, or a group or others can write, is not used
// (one line on stderr). The same rule as host/cache-trust.ts, written out
// here because this file loads before any TypeScript.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: loaded before any ESM on the hot path */
const { chmodSync, mkdirSync, statSync } = require('node:fs');
const nodeModule = require('node:module');
const { homedir } = require('node:os');
const { dirname, isAbsolute, join } = require('node:path');

/** The folder the cache goes to (see the file's comment). */
function compileCacheDir(env = process.env) {
  if (env.HOOKBOX_CACHE_DIR) return join(env.HOOKBOX_CACHE_DIR, 'node-compile-cache');
  const xdg = env.XDG_CACHE_HOME;
  const root = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? join(xdg, 'hookbox') : join(homedir(), '.cache', 'hookbox');
  return join(root, 'node-compile-cache');
}

/** What is wrong with one existing folder for cached code (another owner, group/other write), or undefined. */
function folderProblem(dir) {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    return undefined;
  }
  const uid = process.getuid();
  if (stat.uid !== uid) return `${dir} is owned by uid ${stat.uid}, not by this user (uid ${uid})`;
  if ((stat.mode & 0o022) !== 0) return `${dir} is writable by ${(stat.mode & 0o020) !== 0 ? 'its group' : 'others'} (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}

/**
 * Makes the cache folder private (0700, created so) and says what is wrong
 * when it cannot be trusted; undefined when it can. A folder of the user's
 * own that others could only read is narrowed to 0700.
 */
function compileCacheProblem(dir) {
  if (typeof process.getuid !== 'function') return undefined;
  const root = folderProblem(dirname(dir));
  if (root !== undefined) return root;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined; // not writable: Node starts uncached on its own
  }
  const problem = folderProblem(dir);
  if (problem === undefined && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return problem;
}

/** Turns the cache on where this Node has it; returns Node's status, or undefined on a Node without it (or a cache not trusted). */
function enableCompileCache() {
  if (typeof nodeModule.enableCompileCache !== 'function') return undefined;
  try {
    const dir = compileCacheDir();
    const problem = compileCacheProblem(dir);
    if (problem !== undefined) {
      process.stderr.write(`hookbox: Node's compile cache is not used: ${problem}\n`);
      return undefined;
    }
    return nodeModule.enableCompileCache(dir);
  } catch {
    return undefined;
  }
}

module.exports = { compileCacheDir, compileCacheProblem, enableCompileCache };
