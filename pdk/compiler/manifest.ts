/** Writes `hook.json` beside a built hook, validated by the host's own manifest schema. */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { HookManifestSchema } from '../../host/config/manifest.ts';
import { DEFAULT_LIMITS, type HookLimits } from '../../host/runner/index.ts';
import { BuildError } from '../../host/errors.ts';
import { describeIssues } from '../../host/json/index.ts';
import type { SeamId } from '../../host/seams/index.ts';
import { type HookRequests, readHookRequests } from './hook-requests.ts';

/** Limits a freshly built hook asks for (the runner's defaults, and an instruction budget); operators override them per hook. */
export const DEFAULT_HOOK_LIMITS: HookLimits = {
  ...DEFAULT_LIMITS,
  // ~0.5 s of busy JS on a 2-core CI machine: a runaway loop ends with a deterministic
  // budget fault before the wall timeout (which costs a worker restart) fires.
  instructionBudget: 30_000_000,
};

interface PackageInfo {
  name?: string;
  version?: string;
  description?: string;
}

/** A manifest name from a package or directory name: lowercase, scope dropped, other characters → "-". */
function manifestName(raw: string): string {
  const name = raw
    .replace(/^@[^/]+\//, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  return name === '' ? 'hook' : name;
}

/** Name, version and description: from a package.json beside the entry, else the entry's directory name. */
export async function hookIdentity(entry: string): Promise<{ name: string; version: string; description?: string }> {
  const pkgPath = join(dirname(entry), 'package.json');
  const pkg: PackageInfo = existsSync(pkgPath) ? (JSON.parse(await readFile(pkgPath, 'utf8')) as PackageInfo) : {};
  return {
    name: manifestName(pkg.name ?? basename(dirname(entry))),
    version: pkg.version ?? '0.0.0',
    ...(pkg.description !== undefined && { description: pkg.description }),
  };
}

/** Writes `<dir of wasm>/hook.json` and returns its path. */
export async function writeManifest(options: {
  entry: string;
  wasmPath: string;
  sha256: string;
  seams: SeamId[];
  /** What the source requests, when the caller read it already ({@link readHookRequests}). */
  requests?: HookRequests;
}): Promise<string> {
  const identity = await hookIdentity(options.entry);
  const manifestPath = join(dirname(options.wasmPath), 'hook.json');
  // What the hook's source asks for (capabilities, tools, config keys, limits); the operator's grant still decides.
  const { limits, description, ...requests } = options.requests ?? readHookRequests(options.entry);
  const manifest = {
    name: identity.name,
    version: identity.version,
    protocol: 1,
    wasm: relative(dirname(manifestPath), options.wasmPath).split('\\').join('/'),
    sha256: options.sha256,
    seams: options.seams,
    ...requests,
    limits: typeof limits === 'object' && limits !== null ? { ...DEFAULT_HOOK_LIMITS, ...limits } : (limits ?? DEFAULT_HOOK_LIMITS),
    ...((description ?? identity.description) !== undefined && { description: description ?? identity.description }),
  };
  const parsed = HookManifestSchema.safeParse(manifest);
  if (!parsed.success) {
    throw new BuildError(`${options.entry}: what defineHook requests does not fit hook.json:\n${describeIssues('defineHook', parsed.error)}`);
  }
  await writeFile(manifestPath, `${JSON.stringify(parsed.data, null, 2)}\n`);
  return manifestPath;
}
