import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * hookbox's own package: its root directory and version, found by walking up
 * from this file to the package.json named `hookbox`. The same answer from
 * the TypeScript sources (`host/`) and from the build (`dist/host/`), so
 * files that ship as sources — the PDK the compiler bundles into hooks, the
 * engine's C glue, the example hooks — are found from either.
 */
function findPackage(): { root: string; version: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'hookbox' && typeof pkg.version === 'string') return { root: dir, version: pkg.version };
    } catch {
      // No package.json here: keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('hookbox: cannot find its own package.json');
    dir = parent;
  }
}

const found = findPackage();

/** The directory of hookbox's package.json (the repository root in a checkout). */
export const PACKAGE_ROOT: string = found.root;

/** hookbox's version, from its package.json (the one place it is written). */
export const HOOKBOX_VERSION: string = found.version;
