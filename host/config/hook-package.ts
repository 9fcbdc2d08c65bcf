import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathUnder } from '../path-under.ts';
import * as z from 'zod';
import { ConfigError, HookLoadError } from '../errors.ts';
import { readJsonFile } from '../json/index.ts';
import { fileSha256 } from './hook-pin.ts';
import { type HookManifest, HookManifestSchema } from './manifest.ts';

/**
 * The `hookbox` field of a hook package's package.json: the manifests
 * (`hook.json`, each pinning its wasm's sha256) it ships, relative to the
 * package root.
 */
export const HookPackageFieldSchema = z.strictObject({
  hooks: z.array(z.string().min(1)).min(1),
});

/** The parts of a hook package's package.json hookbox reads; other fields are npm's business. */
export const HookPackageJsonSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().optional(),
  hookbox: HookPackageFieldSchema,
});
/** A hook package's package.json, as far as hookbox reads it. */
export type HookPackageJson = z.infer<typeof HookPackageJsonSchema>;

/** One hook of a package: its manifest and the digest of the wasm on disk (equal to the manifest's). */
export interface PackagedHook {
  /** Absolute path of the hook.json. */
  readonly manifestFile: string;
  /** The entry of `hookbox.hooks` it came from, as written. */
  readonly entry: string;
  readonly manifest: HookManifest;
  /** Absolute path of the wasm. */
  readonly wasmFile: string;
  readonly sha256: string;
}

/** A hook package on disk (an installed or unpacked npm package). */
export interface HookPackage {
  /** Absolute path of the package root. */
  readonly dir: string;
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly hooks: readonly PackagedHook[];
}

/**
 * Reads a hook package: its package.json's `hookbox.hooks`, each manifest,
 * and each wasm's sha256, which must equal the manifest's. Every path must
 * stay inside the package (symlinks resolved): a package is hostile, and
 * one that points at files outside itself is refused. Errors name the file
 * and the JSON path.
 */
export function readHookPackage(dir: string): HookPackage {
  const root = realpathSync(dir);
  const packageFile = path.join(root, 'package.json');
  const pkg = readJsonFile(packageFile, HookPackageJsonSchema);
  const names = new Map<string, number>();
  const hooks = pkg.hookbox.hooks.map((entry, index): PackagedHook => {
    const at = `${packageFile}: hookbox.hooks[${index}]`;
    const manifestFile = inside(root, entry, at);
    const manifest = readJsonFile(manifestFile, HookManifestSchema);
    const previous = names.get(manifest.name);
    if (previous !== undefined) throw new ConfigError(`${at}: hook name "${manifest.name}" is already used by hookbox.hooks[${previous}]`);
    names.set(manifest.name, index);
    const wasmFile = inside(path.dirname(manifestFile), manifest.wasm, `${manifestFile}: wasm`, root);
    const sha256 = fileSha256(wasmFile);
    if (sha256 === undefined) throw new HookLoadError(`${manifestFile}: wasm: cannot read ${wasmFile}`);
    if (sha256 !== manifest.sha256) {
      throw new HookLoadError(`${wasmFile}: sha256 mismatch: the manifest ${manifestFile} pins ${manifest.sha256}, the file has ${sha256}; refusing the package`);
    }
    return { manifestFile, entry, manifest, wasmFile, sha256 };
  });
  return { dir: root, name: pkg.name, version: pkg.version, ...(pkg.description !== undefined && { description: pkg.description }), hooks };
}

/** `relative` resolved against `base`, refused unless it lies inside `root`, by name and by realpath (symlinks). */
function inside(base: string, relative: string, at: string, root = base): string {
  // The root itself is no file of the package either.
  const outside = (file: string) => (pathUnder(root, file) ?? '') === '';
  const refuse = (file: string) =>
    new ConfigError(`${at}: ${JSON.stringify(relative)} resolves outside the package (${file}); a hook package may only name its own files`);
  const resolved = path.resolve(base, relative);
  if (outside(resolved)) throw refuse(resolved);
  let real: string;
  try {
    real = realpathSync(resolved);
  } catch (error) {
    throw new ConfigError(`${at}: ${JSON.stringify(relative)}: no such file in the package (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`, { cause: error });
  }
  if (outside(real)) throw refuse(real);
  return real;
}
