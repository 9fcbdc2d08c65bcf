/**
 * `hookbox init` inside a project: the project's `prepare` script builds its hooks, so that a
 * teammate's fresh clone (`dist/` is not in git: the scaffold's .gitignore leaves it out) gets
 * them built by its `npm ci` / `npm install`, as the first thing, with no step to remember.
 */
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package.ts';

/** The script `init` writes; the config is the one `setup` and the README's path use. */
export const PREPARE_SCRIPT = 'hookbox build --config hookbox.config.json';

/** What {@link wirePrepareScript} did, for init to say. */
export type PrepareWiring =
  | { readonly status: 'added' | 'present'; readonly packageJson: string }
  | { readonly status: 'other'; readonly packageJson: string; readonly script: string }
  | { readonly status: 'no-project' };

/**
 * Adds `scripts.prepare` to the package.json of the project around `target` (the nearest one
 * above it) when it has none; a `prepare` of its own is left alone, and init prints the line to
 * add. hookbox's own checkout and packages under node_modules are never edited.
 */
export function wirePrepareScript(target: string): PrepareWiring {
  const file = enclosingPackageJson(path.dirname(target));
  if (file === undefined) return { status: 'no-project' };
  let pkg: { scripts?: Record<string, unknown> } & Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as typeof pkg;
  } catch {
    return { status: 'no-project' }; // not a package.json npm could run either; init says what to add
  }
  const existing = pkg.scripts?.prepare;
  if (typeof existing === 'string') {
    return existing.includes('hookbox build') ? { status: 'present', packageJson: file } : { status: 'other', packageJson: file, script: existing };
  }
  pkg.scripts = { ...pkg.scripts, prepare: PREPARE_SCRIPT };
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  return { status: 'added', packageJson: file };
}

function enclosingPackageJson(from: string): string | undefined {
  const self = realpathSync(PACKAGE_ROOT);
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) {
      const real = realpathSync(dir);
      return real === self || real.split(path.sep).includes('node_modules') ? undefined : candidate;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
