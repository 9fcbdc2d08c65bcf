// Whether dist/ may run instead of the sources: it exists and no source file
// changed since the build started (dist/.build-stamp, written by
// scripts/build.mjs). The check stats every .ts/.mjs under host/ and pdk/
// (~250 files, about 2 ms); a file newer than the stamp means stale.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../../', import.meta.url);
const SOURCE_DIRS = ['host', 'pdk'];
const SKIP = new Set(['node_modules', 'dist', 'build', '.cache']);

/** The dist/ directory URL when it is present and fresh, else `undefined`. */
export function freshBuild(root = ROOT) {
  const dist = new URL('dist/', root);
  let startedAt;
  try {
    ({ startedAt } = JSON.parse(readFileSync(new URL('.build-stamp', dist), 'utf8')));
  } catch {
    return undefined;
  }
  if (typeof startedAt !== 'number') return undefined;
  for (const dir of SOURCE_DIRS) {
    if (newerThan(fileURLToPath(new URL(`${dir}/`, root)), startedAt)) return undefined;
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
