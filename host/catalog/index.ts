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
import { CI_LOCKFILE_GUARD } from './ci-lockfile-guard.ts';
import { CONTEXT_INJECTION } from './context-injection.ts';
import { DESTRUCTIVE_COMMANDS } from './destructive-commands.ts';
import { FILE_LIMITS } from './file-limits.ts';
import { MCP_ALLOWLIST } from './mcp-allowlist.ts';
import { NETWORK_EGRESS } from './network-egress.ts';
import { PACKAGE_INSTALLS } from './package-installs.ts';
import { TURN_BUDGET } from './turn-budget.ts';
import { POST_EDIT_CHECK } from './post-edit-check.ts';
import { TEST_GATE } from './test-gate.ts';
import { PERMISSION_REQUESTS } from './permission-requests.ts';

export type { CatalogPolicy } from './policy.ts';
export { CommandRulesConfigSchema } from './command-rules.ts';
export { GitGuardsConfigSchema } from './git-guards.ts';
export { ProtectedPathsConfigSchema } from './protected-paths.ts';
export { SecretsConfigSchema } from './secrets.ts';
export { CiLockfileGuardConfigSchema } from './ci-lockfile-guard.ts';
export { ContextInjectionConfigSchema } from './context-injection.ts';
export { DestructiveCommandsConfigSchema } from './destructive-commands.ts';
export { FileLimitsConfigSchema } from './file-limits.ts';
export { McpAllowlistConfigSchema } from './mcp-allowlist.ts';
export { NetworkEgressConfigSchema } from './network-egress.ts';
export { PackageInstallsConfigSchema } from './package-installs.ts';
export { TurnBudgetConfigSchema } from './turn-budget.ts';
export { PostEditCheckConfigSchema } from './post-edit-check.ts';
export { TestGateConfigSchema } from './test-gate.ts';
export { PermissionRequestsConfigSchema } from './permission-requests.ts';

/** Every catalog policy, in the order `hookbox policies` lists them. */
export const CATALOG: readonly CatalogPolicy[] = [
  PROTECTED_PATHS,
  COMMAND_RULES,
  GIT_GUARDS,
  SECRETS,
  NETWORK_EGRESS,
  PACKAGE_INSTALLS,
  CI_LOCKFILE_GUARD,
  CONTEXT_INJECTION,
  MCP_ALLOWLIST,
  FILE_LIMITS,
  TURN_BUDGET,
  DESTRUCTIVE_COMMANDS,
  POST_EDIT_CHECK,
  TEST_GATE,
  PERMISSION_REQUESTS,
];

/** The policy of this name, or `undefined`. */
export function catalogPolicy(name: string): CatalogPolicy | undefined {
  return CATALOG.find((policy) => policy.name === name);
}

/** The catalog's names, for messages. */
export function catalogNames(): string[] {
  return CATALOG.map((policy) => policy.name);
}

/** The one module holding every policy's rules, in `dist/catalog/` (built from `examples-hooks/policies/hook.ts`). */
export const CATALOG_WASM = 'policies.wasm';

/** The built manifest of a policy (`npm run build` writes it; the package ships it). */
export function catalogManifest(name: string, root: string = PACKAGE_ROOT): string {
  return path.join(root, 'dist', 'catalog', name, 'hook.json');
}

/** A policy's hook source (its rules; the module's entry, `examples-hooks/policies/hook.ts`, holds them all). */
export function catalogSource(name: string, root: string = PACKAGE_ROOT): string {
  return path.join(root, 'examples-hooks', 'policies', name, 'hook.ts');
}

/**
 * The sources the catalog's module is built from (beside the PDK): every
 * policy's folder, guard-bash's parser, and the examples' shared detectors
 * (`examples-hooks/shared/secrets.ts`, which the secrets policy reads).
 */
function sourceFolders(root: string): string[] {
  return [path.join(root, 'examples-hooks', 'policies'), path.join(root, 'examples-hooks', 'guard-bash'), path.join(root, 'examples-hooks', 'shared')];
}

/** The first TypeScript file under `dir` changed after `built`, or `undefined`. */
function newerSource(dir: string, built: number): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const newer = entry.isDirectory() ? newerSource(file, built) : entry.name.endsWith('.ts') && statSync(file).mtimeMs > built ? file : undefined;
    if (newer !== undefined) return newer;
  }
  return undefined;
}

/**
 * In a checkout: a source file the catalog's built module is older than, or
 * `undefined` when it is current (or this is an installed package, which has
 * no sources and never rebuilds). A stale policy would test and run old code;
 * one module holds every policy, so any policy's change makes each one old.
 */
export function staleCatalogSource(root: string = PACKAGE_ROOT, checkout: boolean = IS_CHECKOUT): string | undefined {
  if (!checkout) return undefined;
  let built: number;
  try {
    built = statSync(path.join(root, 'dist', 'catalog', CATALOG_WASM)).mtimeMs;
  } catch {
    return undefined; // not built at all: the loader says so
  }
  for (const dir of sourceFolders(root)) {
    try {
      const newer = newerSource(dir, built);
      if (newer !== undefined) return newer;
    } catch {
      // A folder that is not there is nothing newer.
    }
  }
  return undefined;
}
