import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { type HookPackage, readHookPackage } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { parseJsonText } from '../../json/index.ts';
import { NPM_NAME, runNpm } from './npm.ts';

/** Where a package comes from: a tarball or folder on disk (absolute path), or a name npm resolves. */
export interface PackageSource {
  readonly kind: 'tarball' | 'folder' | 'registry';
  /** What npm is given: an absolute path, or the name (`@acme/guard`, `guard@^1`). */
  readonly spec: string;
}

/**
 * Reads `hookbox add`'s argument: an existing file is a tarball, an existing
 * directory a package folder, anything else a package name for npm. A
 * path-looking argument that does not exist is an error, not a registry
 * lookup; so is one starting with `-` (npm would read it as a flag).
 */
export function packageSource(argument: string, cwd: string): PackageSource {
  if (argument.startsWith('-')) throw new ConfigError(`${JSON.stringify(argument)}: expected a tarball, a package folder or a package name, not an option`);
  const absolute = path.resolve(cwd, argument);
  if (existsSync(absolute)) return { kind: statSync(absolute).isDirectory() ? 'folder' : 'tarball', spec: absolute };
  if (/^[./~]|\.(tgz|tar\.gz|tar)$/.test(argument) || argument.includes(path.sep) && !argument.startsWith('@')) {
    throw new ConfigError(`${absolute}: no such tarball or package folder`);
  }
  return { kind: 'registry', spec: argument };
}

/** Options of an install. */
export interface InstallOptions {
  /** Only tarballs, folders and npm's cache (`npm --offline`). */
  readonly offline?: boolean;
}

const PrefixPackageJsonSchema = z.object({ dependencies: z.record(z.string(), z.string()).optional() });

/**
 * Installs a package with npm into `prefix` (its own package.json and lock,
 * the package under `prefix/node_modules`) and reads it as a hook package.
 * Folders are copied, not linked (`--install-links`): the project keeps the
 * reviewed bytes even if the folder changes. `name` is the package expected;
 * without it, `prefix` must be a fresh folder and the one dependency npm
 * recorded there is the package.
 */
export function installHookPackage(source: PackageSource, prefix: string, options: InstallOptions & { name?: string } = {}): HookPackage {
  mkdirSync(prefix, { recursive: true });
  runNpm(['install', '--prefix', prefix, '--install-links', '--save', source.spec], { cwd: prefix, ...options });
  const name = options.name ?? onlyDependency(prefix, source);
  if (!NPM_NAME.test(name)) throw new ConfigError(`${source.spec}: ${JSON.stringify(name)} is not an npm package name`);
  return readHookPackage(path.join(prefix, 'node_modules', ...name.split('/')));
}

function onlyDependency(prefix: string, source: PackageSource): string {
  const file = path.join(prefix, 'package.json');
  const parsed = PrefixPackageJsonSchema.safeParse(parseJsonText(file, readFileSync(file, 'utf8')));
  const names = Object.keys((parsed.success ? parsed.data.dependencies : undefined) ?? {});
  if (names.length !== 1 || names[0] === undefined) throw new ConfigError(`${source.spec}: npm installed ${names.length} packages where one was expected`);
  return names[0];
}
