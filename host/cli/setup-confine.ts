import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.ts';
import { pathUnder } from '../path-under.ts';

/** Where a link on the way to a settings file leads, as far as it resolves (a dangling link: its text, from its folder). */
function targetOf(link: string): string {
  try {
    return realpathSync(link);
  } catch {
    return path.resolve(path.dirname(link), readlinkSync(link));
  }
}

/**
 * Refuses a settings file `setup` would write (or delete) through a link
 * that leads out of `root` — the project, or with `--user` the home folder.
 * A repository can commit `.github` as a link to `~/.copilot`, and a project
 * setup would then write a user-wide hook file (one the agent runs in every
 * project). Each existing part of the path from `root` to the file is looked
 * at with lstat: a link whose target's realpath is outside root's realpath
 * is named in the error (`<project>/.github -> /root/.copilot`), before
 * anything is written. The parts not there yet are made by setup as real
 * folders. A file outside `root` as written (`CODEX_HOME` elsewhere) was
 * named by the user and is not judged here.
 */
export function refuseLinkOut(file: string, root: string, rootName: string): void {
  const inside = pathUnder(root, file);
  if (inside === undefined || inside === '') return;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return; // no root yet: setup makes it, with nothing linked in it
  }
  let at = root;
  for (const part of inside.split(path.sep)) {
    at = path.join(at, part);
    const stat = lstatSync(at, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (!stat.isSymbolicLink()) continue;
    const target = targetOf(at);
    if (pathUnder(realRoot, target) === undefined) {
      throw new ConfigError(
        `${at} -> ${readlinkSync(at)}: a link that leads out of the ${rootName} (${realRoot}); setup writes nothing through it, so ${file} would land in ${target}. Replace the link with a real folder, or set up that folder by itself`,
      );
    }
  }
}
