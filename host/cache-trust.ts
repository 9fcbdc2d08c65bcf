import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * Caches hookbox runs as code — TypeScript's V8 code cache (V8 takes cached
 * data for any script of the same source length, so a forged file runs its
 * author's code in the build, outside every sandbox) and the QuickJS engine
 * every hook is built on. A cache is used only when it is the user's own:
 * owned by this user, writable by no group or other (links followed: the
 * target is what is read). `undefined` when it is; else what is wrong, for
 * a one-line warning or error. No check where there are no POSIX owners
 * (Windows: `process.getuid` is absent).
 */
export function cacheProblem(file: string): string | undefined {
  if (typeof process.getuid !== 'function') return undefined;
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return undefined; // absent: nothing to trust yet
  }
  const uid = process.getuid();
  if (stat.uid !== uid) return `is owned by uid ${stat.uid}, not by this user (uid ${uid})`;
  if ((stat.mode & 0o022) !== 0) return `is writable by ${(stat.mode & 0o020) !== 0 ? 'its group' : 'others'} (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}

/**
 * Makes `dir` a folder only this user can use (mode 0700), creating it so;
 * `undefined` when it is one (or cannot be made at all: then there is
 * nothing in it to read), else what is wrong with it or its parent
 * (`root`, checked first). A folder of the user's own that only others may
 * read (0755, as older hookbox made it) is narrowed to 0700: nobody else
 * could have written in it. One owned by another user, or writable by group
 * or others, is left as it is and reported.
 */
export function privateCacheDir(root: string, dir: string): string | undefined {
  const parent = cacheProblem(root);
  if (parent !== undefined) return `${root} ${parent}`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined; // cannot be made (a read-only install): nothing can be read from it, nor written
  }
  const problem = cacheProblem(dir);
  if (problem !== undefined) return `${dir} ${problem}`;
  if (typeof process.getuid === 'function' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return undefined;
}
