import { existsSync, readFileSync } from 'node:fs';
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

/**
 * Whether hookbox runs from a development checkout (a git work tree holding
 * the CLI's TypeScript sources) rather than an installed package: npm never
 * packs `.git`, and `files` ships no host/ sources. A checkout builds the JS
 * engine into its own `.cache/`; an installed package loads the engine it
 * ships and keeps per-user caches in the user's cache folder. The same rule as
 * `isCheckout` in host/fresh-build.mjs (tests/unit/fresh-build.spec.ts
 * holds them to it), `HOOKBOX_CHECKOUT=1` included.
 */
export const IS_CHECKOUT: boolean = isCheckoutRoot(found.root);

/** {@link IS_CHECKOUT}'s rule for any package root (exported for the test that ties it to the bin's). */
export function isCheckoutRoot(root: string): boolean {
  const git = process.env.HOOKBOX_CHECKOUT === '1' || existsSync(path.join(root, '.git'));
  return git && existsSync(path.join(root, 'host', 'cli', 'main.ts'));
}
