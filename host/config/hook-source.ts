/**
 * Where a configured hook is built from, and where a project's config is. A config entry names
 * what the agents load (`"manifest": "hooks/x/dist/hook.json"`), not its source: the source is
 * found by the layout `hookbox init` scaffolds and its `npm run build` writes — `hook.ts` (or
 * `hook.js`) in the folder above the manifest's `dist/`, built to `dist/hook.wasm` + `dist/hook.json`.
 * A layout of one's own builds with `hookbox build <entry> -o <manifest dir>/hook.wasm`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedHookEntry } from './operator-config.ts';

/** The project config's file name, looked for from the working folder upward. */
export const PROJECT_CONFIG = 'hookbox.config.json';

/** The entry files looked for, in order, in the folder above `dist/`. */
const SOURCE_NAMES = ['hook.ts', 'hook.js'] as const;

/** How one config entry is built, or why it is not built by `hookbox build --config`. */
export type HookSource =
  | { readonly kind: 'source'; readonly entry: string; readonly wasm: string }
  | { readonly kind: 'skip'; readonly why: string }
  | { readonly kind: 'missing'; readonly why: string };

/** The source of `entry`, by the scaffold's layout (see the file comment). */
export function hookSourceFor(entry: ResolvedHookEntry): HookSource {
  if (entry.command !== undefined) return { kind: 'skip', why: 'a shell command, nothing to build' };
  if (entry.permissions !== undefined) return { kind: 'skip', why: 'permission rules, nothing to build' };
  if (entry.pin?.package !== undefined) return { kind: 'skip', why: `from the package ${entry.pin.package}, built by its author` };
  if (entry.manifest === undefined) return { kind: 'skip', why: 'a bare wasm entry (no manifest to write)' };
  const dist = path.dirname(entry.manifest);
  if (path.basename(entry.manifest) !== 'hook.json' || path.basename(dist) !== 'dist') {
    return { kind: 'missing', why: `its manifest ${entry.manifest} is not <folder>/dist/hook.json, so its source cannot be found` };
  }
  const tried = SOURCE_NAMES.map((name) => path.join(path.dirname(dist), name));
  const found = tried.find((file) => existsSync(file));
  if (found === undefined) return { kind: 'missing', why: `no source beside its dist/: ${tried.join(' or ')} does not exist` };
  return { kind: 'source', entry: found, wasm: path.join(dist, `${path.basename(found, path.extname(found))}.wasm`) };
}

/**
 * `hookbox.config.json` in `from` or the nearest folder above it, or `undefined`. For the commands
 * that read a project's config without running its hooks (`build`, `verify`): the agents' hook
 * commands name their config explicitly (a cloned repository's config may hold shell hooks).
 */
export function findProjectConfig(from: string = process.cwd()): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, PROJECT_CONFIG);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** A path as a person in the working folder types it: relative below it, else absolute. */
export function shownPath(file: string): string {
  const shown = path.relative(process.cwd(), file);
  return shown === '' || shown.startsWith('..') || path.isAbsolute(shown) ? file : shown;
}

/** The command that builds a project's hooks, as a person types it from the working folder. */
export function buildCommandFor(configFile: string): string {
  return `npx hookbox build --config ${shownPath(configFile)}`;
}
