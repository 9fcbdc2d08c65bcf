/**
 * The catalog's `hook.json`s: one per policy, all pointing at the one module
 * (`dist/catalog/policies.wasm`, built from `examples-hooks/policies/hook.ts`),
 * each declaring only its policy's seams, so a policy is called on nothing
 * else. Written by `scripts/build.mjs` after it built the module.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG_WASM, type CatalogPolicy } from '../catalog/index.ts';
import { HookManifestSchema, type HookManifest } from './manifest.ts';

/** A policy's manifest: the module's (its sha256, limits, protocol) with the policy's name, seams and summary. */
export function policyManifest(policy: CatalogPolicy, module: HookManifest): HookManifest {
  return HookManifestSchema.parse({
    ...module,
    name: policy.name,
    wasm: `../${CATALOG_WASM}`,
    seams: [...policy.seams],
    config: { policyName: `which policy's rules the module runs: hookbox sets "${policy.name}"`, policy: `the policy config as JSON, validated by hookbox when it loads the config (\`hookbox policies ${policy.name}\` prints its schema)` },
    description: policy.summary,
  });
}

/**
 * Replaces the module's own `hook.json` (the compiler's, declaring every seam)
 * with one `<name>/hook.json` per policy: the module alone is not a hook an
 * operator names.
 */
export function writeCatalogManifests(catalogDir: string, policies: readonly CatalogPolicy[]): void {
  const own = path.join(catalogDir, 'hook.json');
  const module = HookManifestSchema.parse(JSON.parse(readFileSync(own, 'utf8')));
  rmSync(own);
  for (const policy of policies) {
    mkdirSync(path.join(catalogDir, policy.name), { recursive: true });
    writeFileSync(path.join(catalogDir, policy.name, 'hook.json'), `${JSON.stringify(policyManifest(policy, module), null, 2)}\n`);
  }
}
