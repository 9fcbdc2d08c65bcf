import path from 'node:path';
import picomatch from 'picomatch';
import { type ProtectedPath, agentProtectedPaths } from '../agents/index.ts';
import { pathUnder } from '../path-under.ts';

/** Where hookbox runs for one session: what its self-protection guards is derived from these. */
export interface GuardRoots {
  /** The project (the folder of the project config, else the session's folder). */
  readonly project: string;
  /** The user's home folder. */
  readonly home: string;
  /** The configuration layer files (organisation, user, project), present or not: creating one is a change too. */
  readonly configFiles: readonly string[];
}

/**
 * A protected path; `live`: hookbox itself writes there while it runs (the
 * session logs, the server's socket and token in `.hookbox/`), so it is
 * refused to the agent's tools but not compared after them.
 */
export interface GuardedPath extends ProtectedPath {
  readonly live?: true;
}

/** How a path relates to what is protected. */
export type Touch =
  /** It is a protected file, or lies inside a protected folder. */
  | { readonly kind: 'protected'; readonly path: string }
  /** A protected path lies inside it (removing or moving it takes the protected path along). */
  | { readonly kind: 'ancestor'; readonly path: string };

/**
 * The protected paths of one session: every agent's hook settings at the
 * project, at the session's folder (an agent reads its settings from where
 * it starts) and at the user's home, hookbox's own `.hookbox/` folders and
 * its configuration layer files. Built per call from the agents' setup
 * modules (a few path joins), so nothing here can go stale.
 */
export class ProtectedSet {
  readonly paths: readonly GuardedPath[];
  /**
   * Names a command line may mention them by: project- or home-relative
   * (`.claude/settings.json`), else absolute; and each one's folder
   * (`.claude`), which counts only as itself (moving or removing it), not
   * with a path after it (`.github/workflows/ci.yml` is no mention of `.github`).
   */
  readonly names: readonly { readonly name: string; readonly folderOnly: boolean }[];
  readonly #roots: readonly string[];

  constructor(roots: GuardRoots, cwd: string) {
    const dirs = [...new Set([roots.project, cwd].map((dir) => path.resolve(dir)))];
    const paths: GuardedPath[] = [
      ...agentProtectedPaths([...dirs.map((dir) => ({ kind: 'project' as const, dir })), { kind: 'user', home: roots.home }]),
      ...[...dirs, roots.home].map((dir) => ({ path: path.join(dir, '.hookbox'), folder: true as const, live: true as const })),
      ...roots.configFiles.map((file) => ({ path: path.resolve(file) })),
    ];
    const unique = new Map<string, GuardedPath>(paths.map((entry) => [entry.path, entry]));
    this.paths = [...unique.values()];
    this.#roots = [...dirs, roots.home];
    const names = new Map<string, boolean>();
    for (const entry of this.paths) {
      const [name, folder] = this.#namesOf(entry);
      names.set(name, false);
      if (folder !== undefined && !names.has(folder)) names.set(folder, true);
    }
    this.names = [...names].map(([name, folderOnly]) => ({ name, folderOnly })).sort((a, b) => b.name.length - a.name.length);
  }

  /** How an absolute path relates to the protected set, if at all. Ancestors count only below a root (the project itself, or home, do not). */
  touch(file: string): Touch | undefined {
    const target = path.resolve(file);
    // Plain prefix tests on resolved paths (`path.resolve` normalised both): this runs for every word of every command.
    for (const entry of this.paths) {
      if (target === entry.path || (entry.folder === true && target.startsWith(`${entry.path}${path.sep}`))) return { kind: 'protected', path: entry.path };
    }
    if (this.#roots.includes(target) || target === path.parse(target).root) return undefined;
    const prefix = `${target}${path.sep}`;
    for (const entry of this.paths) {
      if (entry.path.startsWith(prefix)) return { kind: 'ancestor', path: entry.path };
    }
    return undefined;
  }

  /** A protected path an absolute glob pattern matches as the shell would (a file, a folder, or something inside a folder). */
  matchGlob(pattern: string): string | undefined {
    // As the shell expands it: `*` does not match a leading dot unless the pattern spells the dot (`.c*`).
    const matches = picomatch(pattern, { dot: false });
    for (const entry of this.paths) {
      if (matches(entry.path) || (entry.folder === true && matches(path.join(entry.path, 'x.json')))) return entry.path;
    }
    return undefined;
  }

  /** A protected path whose last segments are `tail` (for a relative name whose folder cannot be known). */
  endingWith(tail: string): string | undefined {
    const normal = path.normalize(tail).replace(/^(\.\/)+/, '');
    if (normal === '' || normal === '.' || normal.startsWith('..')) return undefined;
    return this.paths.find((entry) => entry.path.endsWith(`${path.sep}${normal}`))?.path;
  }

  /** The first protected name `text` mentions as a path (bounded by separators, quotes or spaces), if any. */
  mentioned(text: string): string | undefined {
    return this.names.find(({ name, folderOnly }) => {
      let from = 0;
      for (;;) {
        const at = text.indexOf(name, from);
        if (at < 0) return false;
        const before = at === 0 ? '' : text[at - 1]!;
        const after = text[at + name.length] ?? '';
        if (!/[A-Za-z0-9_.-]/.test(before) && !/[A-Za-z0-9_-]/.test(after) && !(folderOnly && after === '/' && !/^\/*(['"\s;|&)]|$)/.test(text.slice(at + name.length)))) return true;
        from = at + 1;
      }
    })?.name;
  }

  /** The path's name and its folder's, relative to the first root it lies under (else absolute). */
  #namesOf(entry: ProtectedPath): [string, string | undefined] {
    for (const root of this.#roots) {
      const relative = pathUnder(root, entry.path);
      if (relative === undefined || relative === '') continue;
      const parent = path.dirname(relative);
      return [relative, parent === '.' ? undefined : parent];
    }
    return [entry.path, path.dirname(entry.path)];
  }
}
