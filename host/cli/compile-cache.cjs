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
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: loaded before any ESM on the hot path */
const nodeModule = require('node:module');
const { homedir } = require('node:os');
const { isAbsolute, join } = require('node:path');

/** The folder the cache goes to (see the file's comment). */
function compileCacheDir(env = process.env) {
  if (env.HOOKBOX_CACHE_DIR) return join(env.HOOKBOX_CACHE_DIR, 'node-compile-cache');
  const xdg = env.XDG_CACHE_HOME;
  const root = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? join(xdg, 'hookbox') : join(homedir(), '.cache', 'hookbox');
  return join(root, 'node-compile-cache');
}

/** Turns the cache on where this Node has it; returns Node's status, or undefined on a Node without it. */
function enableCompileCache() {
  if (typeof nodeModule.enableCompileCache !== 'function') return undefined;
  try {
    return nodeModule.enableCompileCache(compileCacheDir());
  } catch {
    return undefined;
  }
}

module.exports = { compileCacheDir, enableCompileCache };
