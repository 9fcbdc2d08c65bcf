/**
 * The built-in policy catalog: the policies a config names with
 * `"policy": "<name>"`, their config schemas, and where the build put their
 * wasm. An installed package only reads `dist/catalog/`; nothing compiles at
 * the user's.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { IS_CHECKOUT, PACKAGE_ROOT } from '../package.ts';
import type { CatalogPolicy } from './policy.ts';
import { COMMAND_RULES } from './command-rules.ts';
import { GIT_GUARDS } from './git-guards.ts';
import { PROTECTED_PATHS } from './protected-paths.ts';
import { SECRETS } from './secrets.ts';
import { POST_EDIT_CHECK } from './post-edit-check.ts';
import { TEST_GATE } from './test-gate.ts';

export type { CatalogPolicy } from './policy.ts';
export { CommandRulesConfigSchema } from './command-rules.ts';
export { GitGuardsConfigSchema } from './git-guards.ts';
export { ProtectedPathsConfigSchema } from './protected-paths.ts';
export { SecretsConfigSchema } from './secrets.ts';
export { PostEditCheckConfigSchema } from './post-edit-check.ts';
export { TestGateConfigSchema } from './test-gate.ts';

/** Every catalog policy, in the order `hookbox policies` lists them. */
export const CATALOG: readonly CatalogPolicy[] = [PROTECTED_PATHS, COMMAND_RULES, GIT_GUARDS, SECRETS, POST_EDIT_CHECK, TEST_GATE];

/** The policy of this name, or `undefined`. */
export function catalogPolicy(name: string): CatalogPolicy | undefined {
  return CATALOG.find((policy) => policy.name === name);
}

/** The catalog's names, for messages. */
export function catalogNames(): string[] {
  return CATALOG.map((policy) => policy.name);
}

/** The built manifest of a policy (`npm run build` writes it; the package ships it). */
export function catalogManifest(name: string, root: string = PACKAGE_ROOT): string {
  return path.join(root, 'dist', 'catalog', name, 'hook.json');
}

/** A policy's hook source, built by `scripts/build.mjs`. */
export function catalogSource(name: string, root: string = PACKAGE_ROOT): string {
  return path.join(root, 'examples-hooks', 'policies', name, 'hook.ts');
}

/** The sources a policy's wasm is built from (beside the PDK): its folder, the shared code, guard-bash's parser. */
function sourceFolders(name: string, root: string): string[] {
  return [path.join(root, 'examples-hooks', 'policies', name), path.join(root, 'examples-hooks', 'policies', 'shared'), path.join(root, 'examples-hooks', 'guard-bash')];
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(file));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * In a checkout: the source a policy's built wasm is older than, or
 * `undefined` when it is current (or this is an installed package, which has
 * no sources and never rebuilds). A stale policy would test and run old code.
 */
export function staleCatalogSource(name: string, root: string = PACKAGE_ROOT, checkout: boolean = IS_CHECKOUT): string | undefined {
  if (!checkout) return undefined;
  let built: number;
  try {
    built = statSync(path.join(path.dirname(catalogManifest(name, root)), 'hook.wasm')).mtimeMs;
  } catch {
    return undefined; // not built at all: the loader says so
  }
  for (const dir of sourceFolders(name, root)) {
    try {
      if (newestMtime(dir) > built) return dir;
    } catch {
      // A folder that is not there is nothing newer.
    }
  }
  return undefined;
}
