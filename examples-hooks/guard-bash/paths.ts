/**
 * Judges a path word symbolically (no filesystem access, no environment):
 * is it the filesystem root, a top-level system directory, the home
 * directory, the workspace root (the session cwd), one of its ancestors, or
 * "everything inside" one of those (`/*`, `~/*`, `*` at the workspace root)?
 */

/** Why a path is protected, used in reasons. */
export type ProtectedKind =
  | 'the filesystem root'
  | 'a system directory'
  | 'the home directory'
  | 'the workspace root'
  | 'an ancestor of the workspace';

// Top-level directories whose recursive removal wrecks the machine.
const SYSTEM_DIRS = new Set([
  'bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'opt', 'proc', 'root', 'sbin', 'srv', 'sys', 'usr', 'var', 'Users', 'System', 'Applications', 'Library',
]);

type Base = 'root' | 'home' | 'cwd';

interface Resolved {
  readonly base: Base;
  readonly segments: string[];
  /** `..` climbed above a base whose absolute location is unknown (`~/..`). */
  readonly above: boolean;
}

// A last segment made only of wildcards and dots (`*`, `.*`, `*.*`, `{*,.*}`)
// names everything in its directory.
const EVERYTHING_GLOB = /^[*?.[\]!{},]+$/;

function resolve(base: Base, initial: string[], rest: string): Resolved {
  const segments = initial.slice();
  let above = false;
  for (const seg of rest.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (segments.length > 0) segments.pop();
      else if (base !== 'root') above = true;
      continue;
    }
    segments.push(seg);
  }
  return { base, segments, above };
}

function splitAbsolute(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

/**
 * Resolves a path word against the session cwd, symbolically. Returns
 * `undefined` for words it cannot place (other variables, substitutions).
 */
function resolveWord(word: string, cwd: string): Resolved | undefined {
  // An absolute path (the usual word) cannot be one of the `~`/`$` forms below.
  if (word.startsWith('/')) return resolve('root', [], word);
  const home = /^(~[A-Za-z0-9._-]*|\$HOME|\$\{HOME\})(\/.*)?$/.exec(word);
  if (home) return resolve('home', [], home[2] ?? '');
  const pwd = /^(\$PWD|\$\{PWD\}|\$\(\s*pwd\s*\))(\/.*)?$/.exec(word);
  if (pwd) return resolveFromCwd(cwd, pwd[2] ?? '');
  if (word.startsWith('$') || word.startsWith('`')) return undefined;
  return resolveFromCwd(cwd, word);
}

/** A relative path from `cwd`; `undefined` when `cwd` itself is unknown. */
function resolveFromCwd(cwd: string, rest: string): Resolved | undefined {
  if (cwd.startsWith('/')) return resolve('root', splitAbsolute(cwd), rest);
  if (cwd === '~' || cwd.startsWith('~/')) return resolve('home', splitAbsolute(cwd.slice(1)), rest);
  // After `cd $SOMEWHERE` the directory is unknown: relative paths cannot be judged.
  return cwd === UNKNOWN_DIR ? undefined : resolve('cwd', [], rest);
}

/** The effective directory after `cd` to somewhere this module cannot place. */
export const UNKNOWN_DIR = '?';

/**
 * Where `cd <word>` leads from `cwd`, as an absolute path, `~`-relative path
 * or {@link UNKNOWN_DIR}; the same vocabulary `protectedTarget` accepts as `cwd`.
 */
export function changeDirectory(word: string | undefined, cwd: string): string {
  const resolved = resolveWord(word ?? '~', cwd);
  if (resolved === undefined || resolved.above || resolved.base === 'cwd') return UNKNOWN_DIR;
  const path = resolved.segments.join('/');
  return resolved.base === 'home' ? (path === '' ? '~' : `~/${path}`) : `/${path}`;
}

function isPrefix(prefix: readonly string[], of: readonly string[]): boolean {
  return prefix.length <= of.length && prefix.every((s, i) => s === of[i]);
}

/**
 * What protected location a path word names (or names everything inside of),
 * or `undefined` when it is an ordinary path. `cwd` is where relative paths
 * resolve (after any `cd`); `workspace` is the session's workspace root.
 *
 * @example
 * ```ts
 * protectedTarget('/', '/work/app');          // 'the filesystem root'
 * protectedTarget('*', '/work/app');          // 'the workspace root'  (everything in it)
 * protectedTarget('../', '/work/app');        // 'an ancestor of the workspace'
 * protectedTarget('$HOME/*', '/work/app');     // 'the home directory'
 * protectedTarget('build', '/work/app');      // undefined
 * ```
 */
export function protectedTarget(word: string, cwd: string, workspace: string = cwd): ProtectedKind | undefined {
  const resolved = resolveWord(word, cwd);
  if (resolved === undefined) return undefined;
  const { base, above } = resolved;
  let segments = resolved.segments;
  const last = segments[segments.length - 1];
  if (last !== undefined && /[*?]/.test(last) && EVERYTHING_GLOB.test(last)) segments = segments.slice(0, -1);
  if (above) return base === 'home' ? 'the home directory' : 'an ancestor of the workspace';
  if (base === 'home') return segments.length === 0 ? 'the home directory' : undefined;
  // A symbolic cwd only arises when the session cwd itself is not absolute.
  if (base === 'cwd') return segments.length === 0 ? 'the workspace root' : undefined;
  if (segments.length === 0) return 'the filesystem root';
  const cwdSegments = workspace.startsWith('/') ? splitAbsolute(workspace) : undefined;
  if (cwdSegments !== undefined && cwdSegments.length > 0 && isPrefix(segments, cwdSegments)) {
    return segments.length === cwdSegments.length ? 'the workspace root' : 'an ancestor of the workspace';
  }
  if (segments.length === 1 && SYSTEM_DIRS.has(segments[0] as string)) return 'a system directory';
  if (segments.length === 2 && (segments[0] === 'home' || segments[0] === 'Users')) return 'the home directory';
  return undefined;
}

/** Whether a path names a block device (disks, partitions, loop/md/dm devices). */
export function isBlockDevice(path: string): boolean {
  return /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|loop\d|md\d|dm-\d|mapper\/|sr\d|fd\d|disk\/|block\/)/.test(path);
}
