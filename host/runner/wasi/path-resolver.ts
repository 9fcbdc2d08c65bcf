import path from 'node:path';
import { walkInRoot } from './dir-walk.ts';

export { MAX_SYMLINKS } from './dir-walk.ts';

/** A guest path resolved inside a root: the host path and its components below the root. */
export interface ResolvedPath {
  /** Absolute host path as a string (for messages and checks only: the path calls act through `walkInRoot`'s opened directory). */
  readonly host: string;
  /** Components below the root (`[]` = the root itself). */
  readonly rel: readonly string[];
  /** Whether the final component exists (`lstat` succeeded). */
  readonly exists: boolean;
}

/**
 * Where `guestPath` (relative to the directory `base`, components below
 * `root`) leads inside `root`, by the walk of `walkInRoot` (dir-walk.ts):
 * symlinks followed only while they stay inside, `..` never above the root,
 * the final component followed only when `followFinal` or the path ends in
 * `/`. The directories it opened are closed again; a call that acts on the
 * result uses `walkInRoot` itself, so that nothing can change between the
 * check and the use. Throws `WasiErrno`.
 */
export function resolveInRoot(root: string, base: readonly string[], guestPath: string, followFinal: boolean): ResolvedPath {
  const walked = walkInRoot(root, base, guestPath, followFinal);
  walked.close();
  return { host: walked.rel.length === 0 ? root : path.join(root, ...walked.rel), rel: walked.rel, exists: walked.exists };
}
