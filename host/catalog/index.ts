/**
 * The built-in policy catalog: the policies a config names with
 * `"policy": "<name>"`, their config schemas, and where the build put their
 * wasm. An installed package only reads `dist/catalog/`; nothing compiles at
 * the user's.
 */
import path from 'node:path';
import { PACKAGE_ROOT } from '../package.ts';
import type { CatalogPolicy } from './policy.ts';
import { COMMAND_RULES } from './command-rules.ts';
import { PROTECTED_PATHS } from './protected-paths.ts';

export type { CatalogPolicy } from './policy.ts';
export { CommandRulesConfigSchema } from './command-rules.ts';
export { ProtectedPathsConfigSchema } from './protected-paths.ts';

/** Every catalog policy, in the order `hookbox policies` lists them. */
export const CATALOG: readonly CatalogPolicy[] = [PROTECTED_PATHS, COMMAND_RULES];

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
  return path.join(root, 'policies', name, 'hook.ts');
}
