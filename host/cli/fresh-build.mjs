// Whether the build in dist/ may run instead of the sources: it exists and no
// source file changed since the build started (dist/.build-stamp, written by
// scripts/build.mjs, holds that time). A file newer than the stamp means stale.
// - freshBin: the CLI bundle (dist/bin/), checked against the files the
//   stamp lists as its inputs (~220 stats, no directory walk). A source file
//   can only enter or leave the bundle through an edit to a file already in
//   it, so the list is enough; a listed file that is gone is skipped (the
//   installed package ships the bundle without host/'s sources).
// - freshBuild: the tsc output (dist/host, dist/pdk), checked against every
//   .ts/.mjs under host/ and pdk/ (~250 files, a directory walk).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../../', import.meta.url);
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

/** The dist/bin/ directory URL when the CLI bundle is present and fresh, else `undefined`. */
export function freshBin(root = ROOT) {
  const stamp = readStamp(new URL('dist/', root));
  if (stamp === undefined || !Array.isArray(stamp.binInputs)) return undefined;
  const base = fileURLToPath(root);
  for (const file of stamp.binInputs) {
    const stats = statSync(base + file, { throwIfNoEntry: false });
    if (stats !== undefined && stats.mtimeMs > stamp.startedAt) return undefined;
  }
  return new URL('dist/bin/', root);
}

/** The dist/ directory URL when the tsc build is present and fresh, else `undefined`. */
export function freshBuild(root = ROOT) {
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
