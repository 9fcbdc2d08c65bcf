import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { type HookManifest, HookManifestSchema, type HookPackage, fileSha256, loadManifest, readHookPackage } from '../../config/index.ts';
import { ConfigError, HookLoadError } from '../../errors.ts';
import { readJsonFile } from '../../json/index.ts';
import { NPM_NAME, runNpm } from './npm.ts';

/** Options of {@link packHook}. */
export interface PackHookOptions {
  /** A hook project folder (built from `entry`), or a built hook's `hook.json`. */
  readonly project: string;
  /** The entry to build, relative to the project (default `hook.ts`). */
  readonly entry?: string;
  /** npm package name (default: the project's package.json, else the folder name). */
  readonly name?: string;
  /** Package version (default: the project's package.json, else the manifest's). */
  readonly version?: string;
  /** Where the tarball goes (created if missing). */
  readonly outDir: string;
  /** Keep the package folder here (must not exist or be empty); default a temporary folder, removed. */
  readonly folder?: string;
  readonly onProgress?: (message: string) => void;
}

/** What {@link packHook} produced. */
export interface PackedHook {
  /** Absolute path of the `.tgz`. */
  readonly tarball: string;
  /** The package folder, when kept (`folder`). */
  readonly folder?: string;
  readonly package: { readonly name: string; readonly version: string; readonly files: readonly string[] };
  readonly hooks: readonly { readonly name: string; readonly manifest: string; readonly sha256: string; readonly seams: readonly string[] }[];
}

/** The fields of a project's package.json a hook package carries over (never scripts or dependencies). */
const ProjectPackageSchema = z.looseObject({
  name: z.string().optional(),
  version: z.string().optional(),
  description: z.string().optional(),
  license: z.string().optional(),
  author: z.unknown().optional(),
  repository: z.unknown().optional(),
  homepage: z.string().optional(),
  keywords: z.array(z.string()).optional(),
});

const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const MANIFEST_IN_PACKAGE = 'dist/hook.json';
const WASM_IN_PACKAGE = 'dist/hook.wasm';
/** Files copied from the project when present. */
const DOCS = /^(README|LICENSE|LICENCE|NOTICE)(\.[a-z]+)?$/i;

/**
 * Makes a hook package from a hook project and packs it with `npm pack`. The
 * package is staged in a folder of its own: package.json with the `hookbox`
 * field (name, version, description and license from the project's; no
 * scripts and no dependencies — the wasm is self-contained), the wasm and its
 * manifest under `dist/`, the README and license. The staged package is read
 * back with the reader `hookbox add` uses before it is packed.
 */
export async function packHook(options: PackHookOptions): Promise<PackedHook> {
  const project = path.resolve(options.project);
  if (!existsSync(project)) throw new ConfigError(`${project}: no such hook project folder or hook.json`);
  const fromManifest = statSync(project).isFile();
  // A built hook.json sits in the project's dist/ (where `hookbox build` and `npm run build` put it).
  const projectDir = !fromManifest ? project : path.basename(path.dirname(project)) === 'dist' ? path.dirname(path.dirname(project)) : path.dirname(project);
  const info = projectPackage(projectDir);
  const stage = options.folder === undefined ? mkdtempSync(path.join(tmpdir(), 'hookbox-pack-')) : emptyFolder(path.resolve(options.folder));
  try {
    mkdirSync(path.join(stage, 'dist'), { recursive: true });
    const built = fromManifest ? copyBuilt(project, stage) : await buildInto(path.resolve(projectDir, options.entry ?? 'hook.ts'), stage, options.onProgress);
    const name = packageName(options.name ?? info.name ?? (fromManifest ? built.name : path.basename(projectDir)));
    const version = options.version ?? info.version ?? built.version;
    if (!SEMVER.test(version)) throw new ConfigError(`package version ${JSON.stringify(version)}: expected a semver version such as 1.0.0 (--package-version)`);
    writeManifest(stage, { ...built, version });
    const docs = readdirSync(projectDir).filter((file) => DOCS.test(file) && statSync(path.join(projectDir, file)).isFile());
    for (const file of docs) copyFileSync(path.join(projectDir, file), path.join(stage, file));
    const pkg = {
      name,
      version,
      ...pick(info, ['description', 'license', 'author', 'repository', 'homepage']),
      keywords: [...new Set(['hookbox', 'hookbox-hook', ...(info.keywords ?? [])])],
      files: [WASM_IN_PACKAGE, MANIFEST_IN_PACKAGE, ...docs],
      hookbox: { hooks: [MANIFEST_IN_PACKAGE] },
    };
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const staged = readHookPackage(stage);
    const outDir = path.resolve(options.outDir);
    mkdirSync(outDir, { recursive: true });
    const packed = z.array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) })).parse(
      JSON.parse(runNpm(['pack', '--json', '--pack-destination', outDir], { cwd: stage })),
    )[0];
    if (packed === undefined) throw new ConfigError(`${stage}: npm pack reported no tarball`);
    return {
      tarball: path.join(outDir, packed.filename),
      ...(options.folder !== undefined && { folder: stage }),
      package: { name, version, files: packed.files.map((file) => file.path) },
      hooks: hooksOf(staged),
    };
  } finally {
    if (options.folder === undefined) rmSync(stage, { recursive: true, force: true });
  }
}

function projectPackage(dir: string): z.infer<typeof ProjectPackageSchema> {
  const file = path.join(dir, 'package.json');
  return existsSync(file) ? readJsonFile(file, ProjectPackageSchema) : {};
}

/** An npm name from a given one or a folder name (lowercased, other characters → "-"); refused if still invalid. */
function packageName(raw: string): string {
  const name = raw.startsWith('@') ? raw : raw.toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._]+/, '');
  if (!NPM_NAME.test(name)) throw new ConfigError(`package name ${JSON.stringify(raw)}: not a valid npm package name (--package-name)`);
  return name;
}

function emptyFolder(dir: string): string {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new ConfigError(`${dir}: --folder must be a new or empty folder`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A built hook (its hook.json, the wasm checked against it) copied into the stage. */
function copyBuilt(manifestFile: string, stage: string): HookManifest {
  const manifest = loadManifest(manifestFile);
  const wasm = path.resolve(path.dirname(manifestFile), manifest.wasm);
  const sha256 = fileSha256(wasm);
  if (sha256 !== manifest.sha256) {
    throw new HookLoadError(`${wasm}: sha256 ${sha256 ?? '(unreadable)'}, but the manifest ${manifestFile} pins ${manifest.sha256}; rebuild it before packing`);
  }
  copyFileSync(wasm, path.join(stage, WASM_IN_PACKAGE));
  return manifest;
}

/** Builds the hook from source straight into the stage (the compiler writes the wasm and hook.json). */
async function buildInto(entry: string, stage: string, onProgress?: (message: string) => void): Promise<HookManifest> {
  if (!existsSync(entry)) throw new ConfigError(`${entry}: no such hook entry (--entry)`);
  // Loaded on use: the compiler pulls in TypeScript and esbuild.
  const { buildHook } = await import('../../../pdk/compiler/index.ts');
  const result = await buildHook({ entry, outFile: path.join(stage, WASM_IN_PACKAGE), ...(onProgress !== undefined && { onProgress }) });
  if (result.manifestPath === undefined) throw new ConfigError(`${entry}: the hook exports no seam handler, so there is nothing to package`);
  return loadManifest(result.manifestPath);
}

/** The package's manifest: the built one, at the package version, naming the wasm beside it. */
function writeManifest(stage: string, manifest: HookManifest): void {
  const packaged = HookManifestSchema.parse({ ...manifest, wasm: path.posix.basename(WASM_IN_PACKAGE) });
  writeFileSync(path.join(stage, MANIFEST_IN_PACKAGE), `${JSON.stringify(packaged, null, 2)}\n`);
}

function hooksOf(pkg: HookPackage): PackedHook['hooks'] {
  return pkg.hooks.map((hook) => ({ name: hook.manifest.name, manifest: hook.entry, sha256: hook.sha256, seams: hook.manifest.seams }));
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as Partial<Pick<T, K>>;
}
