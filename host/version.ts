import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * hookbox's version, read from its package.json (the one place it is
 * written): found by walking up from this file, which works from the
 * sources and from the built `dist/`.
 */
export const HOOKBOX_VERSION: string = readVersion();

function readVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'hookbox' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here: keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('hookbox: cannot find its own package.json');
    dir = parent;
  }
}
