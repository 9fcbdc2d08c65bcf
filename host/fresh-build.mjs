// Whether the build in dist/ runs, or the TypeScript sources through tsx.
// - An installed package (no `.git`, no host/ sources: npm ships neither)
//   always runs its build. Its files' mtimes say nothing: npm gives extracted
//   files the install time, so no mtime comparison may decide there.
// - A development checkout (a git work tree with host/'s sources) runs the
//   build only while no source file changed since the build started
//   (dist/.build-stamp, written by scripts/build.mjs, holds that time); a
//   file newer than the stamp means stale, and the sources run instead.
// - freshBin: the CLI bundle (dist/bin/), checked against the files the
//   stamp lists as its inputs (~220 stats, no directory walk). A source file
//   can only enter or leave the bundle through an edit to a file already in
//   it, so the list is enough; a listed file that is gone is skipped (the
//   installed package ships the bundle without host/'s sources).
// - freshBuild: the tsc output (dist/host, dist/pdk), checked against every
//   .ts/.mjs under host/ and pdk/ (~250 files, a directory walk).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
const SOURCE_DIRS = ['host', 'pdk'];
const SKIP = new Set(['node_modules', 'dist', 'build', '.cache']);

function readStamp(dist) {
  try {
    const stamp = JSON.parse(readFileSync(new URL('.build-stamp', dist), 'utf8'));
    return typeof stamp.startedAt === 'number' ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `root` is a development checkout: a git work tree (`.git`, a folder
 * or a worktree's file) holding the CLI's TypeScript sources. npm never packs
 * `.git`, and `files` ships no host/ sources, so an installed package is not one.
 * `HOOKBOX_CHECKOUT=1` stands in for `.git` in a copy of a checkout that has
 * none (the mutation tester's sandbox); the sources must still be there.
 */
export function isCheckout(root = ROOT) {
  const git = process.env.HOOKBOX_CHECKOUT === '1' || existsSync(new URL('.git', root));
  return git && existsSync(new URL('host/cli/main.ts', root));
}

/** An installed package's build directory `dir` when it holds `entry`, else `undefined`. */
function shipped(root, dir, entry) {
  const url = new URL(dir, root);
  return existsSync(new URL(entry, url)) ? url : undefined;
}

/** The dist/bin/ directory URL when the CLI bundle is present and fresh (always fresh when installed), else `undefined`. */
export function freshBin(root = ROOT) {
  if (!isCheckout(root)) return shipped(root, 'dist/bin/', 'main.js');
  const stamp = readStamp(new URL('dist/', root));
  if (stamp === undefined || !Array.isArray(stamp.binInputs)) return undefined;
  const base = fileURLToPath(root);
  for (const file of stamp.binInputs) {
    const stats = statSync(base + file, { throwIfNoEntry: false });
    if (stats !== undefined && stats.mtimeMs > stamp.startedAt) return undefined;
  }
  return new URL('dist/bin/', root);
}

/** The dist/ directory URL when the tsc build is present and fresh (always fresh when installed), else `undefined`. */
export function freshBuild(root = ROOT) {
  if (!isCheckout(root)) return shipped(root, 'dist/', 'host/index.js');
  const dist = new URL('dist/', root);
  const stamp = readStamp(dist);
  if (stamp === undefined) return undefined;
  for (const dir of SOURCE_DIRS) {
    if (newerThan(fileURLToPath(new URL(`${dir}/`, root)), stamp.startedAt)) return undefined;
  }
  return dist;
}

function newerThan(dir, time) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name) && newerThan(path, time)) return true;
    } else if ((entry.name.endsWith('.ts') || entry.name.endsWith('.mjs')) && statSync(path).mtimeMs > time) {
      return true;
    }
  }
  return false;
}
