import path from 'node:path';

/**
 * `file` relative to `root` when it is `root` itself (`''`) or lies under it, else
 * `undefined`. Judged by path segments, not by the text: `..hook.json` and `..data/` are
 * names inside `root`, only `..` and `../…` lead out. Paths are compared as written (both
 * absolute, or both relative to the cwd); symlinks are the caller's to resolve first.
 */
export function pathUnder(root: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative) ? undefined : relative;
}
