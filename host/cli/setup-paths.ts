import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AGENT_BRIDGES, type AgentBridge } from '../agents/index.ts';
import { ConfigError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package.ts';

/**
 * The command clients `setup` can write: `sh` (host/cli/hookbox-hook.sh: no
 * Node start while the server is up; it hands every other case to the Node
 * client) and `node` (host/cli/hookbox-hook.cjs), and `native`
 * (host/cli/native/hookbox-hook.c, built into dist/native/<platform>/ where
 * `npm run build` found a C compiler: no interpreter start at all). All take
 * the same arguments and answer the same.
 */
export type HookClientKind = 'sh' | 'node' | 'native';

/** Where each client sits inside hookbox's package, and the interpreter the agent's shell runs it with (from its PATH). */
const CLIENTS: Readonly<Record<HookClientKind, { readonly file: readonly string[]; readonly interpreter: string }>> = {
  sh: { file: ['host', 'cli', 'hookbox-hook.sh'], interpreter: 'sh' },
  node: { file: ['host', 'cli', 'hookbox-hook.cjs'], interpreter: 'node' },
  // Run as itself: no interpreter word.
  native: { file: ['dist', 'native', `${process.platform}-${process.arch}`, 'hookbox-hook'], interpreter: '' },
};

/** A client's file, absolute: through `dir`'s own node_modules/hookbox when this hookbox is installed there (a reinstall keeps it), else in this hookbox. */
export function clientFile(kind: HookClientKind, dir: string): string {
  return installedIn(dir) ? path.join(dir, 'node_modules', 'hookbox', ...CLIENTS[kind].file) : path.join(PACKAGE_ROOT, ...CLIENTS[kind].file);
}

/** Why the native client cannot be set up here (undefined: it is built and runs). */
export function nativeClientMissing(): string | undefined {
  const binary = path.join(PACKAGE_ROOT, ...CLIENTS.native.file);
  if (!existsSync(binary)) return `${binary} is not built (npm run build found no C compiler for ${process.platform}-${process.arch})`;
  const probe = spawnSync(binary, ['--probe'], { encoding: 'utf8', timeout: 10_000 });
  return probe.status === 0 && probe.stdout.startsWith('hookbox-hook native') ? undefined : `${binary} does not run here (${probe.error?.message ?? `exit ${String(probe.status)}`})`;
}

/**
 * The client `setup` writes when none is asked for: the native one where
 * `npm run build` built it for this platform and it runs; else the sh one
 * wherever there is a POSIX `sh` (every platform but Windows); else node.
 */
export function defaultHookClient(platform: NodeJS.Platform = process.platform, native: () => string | undefined = nativeClientMissing): HookClientKind {
  if (platform === process.platform && native() === undefined) return 'native';
  return platform !== 'win32' && existsSync('/bin/sh') ? 'sh' : 'node';
}

/** `--client`'s value as a kind, or a clear error naming it. */
export function hookClientKind(value: string | undefined): HookClientKind {
  if (value === undefined) return defaultHookClient();
  if (value === 'sh' || value === 'node') return value;
  if (value === 'native') {
    const missing = nativeClientMissing();
    if (missing !== undefined) throw new ConfigError(`--client native: ${missing}; use --client sh`);
    return value;
  }
  throw new ConfigError(`--client: expected "sh", "node" or "native", got "${value}"`);
}

/** Which client a command line `setup` wrote runs (undefined when it runs neither file). */
export function hookClientOf(command: string): HookClientKind | undefined {
  if (/hookbox-hook\.sh\b/.test(command)) return 'sh';
  if (/hookbox-hook\.cjs\b|hookbox(\.mjs)?['"]?\s+['"]?hook\b/.test(command)) return 'node';
  if (/native\/[\w-]+\/hookbox-hook(?![\w.-])/.test(command)) return 'native';
  return undefined;
}

/**
 * The variable each agent names the project folder by in a hook command's
 * environment (each bridge's `projectDirVariable`). An agent that names none
 * (Codex) runs hooks in the session's folder, so its command walks up from
 * there to the project (`hookCommand`).
 */
export const PROJECT_DIR_VARIABLE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(AGENT_BRIDGES).flatMap((bridge: AgentBridge) => (bridge.projectDirVariable === undefined ? [] : [[bridge.name, bridge.projectDirVariable]])),
);

/** The per-project socket `setup` points the client at, relative to the project (a server serves one project). */
export const PROJECT_SOCKET = path.join('.hookbox', 'run', 'serve.sock');

/**
 * What marks a folder as a hookbox project: its config (committed), or the
 * `.hookbox/run/` a server made there (not `.hookbox/` alone: that is also
 * the user-wide folder in the home folder).
 */
const PROJECT_MARKERS = ['hookbox.config.json', path.join('.hookbox', 'run')];

/**
 * The hookbox project a folder belongs to: `start` itself or the nearest
 * folder above it holding `hookbox.config.json` or `.hookbox/run/`; undefined
 * when none does. How `setup` and `doctor` with no `--project` find the
 * project from a subfolder, as the hook command's prologue does.
 */
export function findProjectRoot(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (PROJECT_MARKERS.some((marker) => existsSync(path.join(dir, marker)))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * What an agent that reads its settings only where it starts does when
 * started in `cwd`, a subfolder of the project `root`; undefined when that
 * does not arise (also when `guarded`: that folder's own settings hold
 * hookbox's entries). setup prints it; doctor reports it as a failure.
 */
export function startFolderNote(bridge: AgentBridge, root: string, cwd: string, guarded: (dir: string) => boolean): { what: string; fix: string } | undefined {
  const reads = bridge.setup.startFolderOnly;
  // Set up in that folder too (`setup --project <subfolder>`): it runs hookbox's entries from there.
  if (reads === undefined || path.resolve(cwd) === path.resolve(root) || guarded(cwd)) return undefined;
  const here = bridge.setup.settingsPath({ kind: 'project', dir: cwd });
  return {
    what: `${reads}: started in ${cwd}, ${bridge.label} reads ${here}${existsSync(here) ? '' : ' (there is none)'}, not ${bridge.setup.settingsPath({ kind: 'project', dir: root })}: no hookbox hook runs and nothing it does is checked`,
    fix: `start ${bridge.label} in ${root}; or guard this folder too: hookbox setup ${bridge.name} --project ${cwd} (its settings then find the project above)${bridge.setup.locator !== undefined ? `; or every folder below the project: hookbox setup ${bridge.name} --project ${root} without --no-locator (the user-level locator)` : ''}`,
  };
}

/** POSIX single-quoting for one word of the command line the agent runs through `sh`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function real(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Is this very hookbox installed in `dir`'s `node_modules` (so a relative path reaches it on any machine with the checkout)? */
export function installedIn(dir: string): boolean {
  const here = real(path.join(dir, 'node_modules', 'hookbox'));
  return here !== undefined && here === real(PACKAGE_ROOT);
}

/** A path as the client should get it: relative to the project when inside it, else absolute. */
export function projectRelative(dir: string, file: string): string {
  const absolute = path.resolve(file);
  const inside = path.relative(dir, absolute);
  return inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside) ? inside : absolute;
}

/**
 * The start of the command line an agent runs per event: `sh <client>` or
 * `node <client>`, the one place every agent's setup gets it from.
 * The interpreter from the agent's PATH (never this machine's absolute one); the
 * client through the project's own `node_modules/hookbox` when hookbox is
 * installed there — behind the agent's project-folder variable (and `up` to
 * the project from a subfolder's settings), or relative to the project for
 * Codex, whose `hookCommand` prologue runs it there — so a committed settings file runs on every machine with the
 * same checkout. When it is not (a development checkout, a global install,
 * a user-wide setup), the client's absolute path, and `portable` says so.
 */
export function clientCommand(
  agent: string,
  scope: { kind: 'project'; dir: string } | { kind: 'user' },
  kind: HookClientKind = defaultHookClient(),
  options: { variable?: boolean; up?: string } = {},
): { words: string[]; portable: boolean; client: string } {
  const { file, interpreter } = CLIENTS[kind];
  const absolute = path.join(PACKAGE_ROOT, ...file);
  if (scope.kind === 'project' && installedIn(scope.dir)) {
    // `up`: from the folder the agent's variable names (a subfolder of the project) to the project (`..`).
    const inProject = [...(options.up === undefined || options.up === '' ? [] : options.up.split(path.sep)), 'node_modules', 'hookbox', ...file].join('/');
    const variable = options.variable === false ? undefined : PROJECT_DIR_VARIABLE[agent];
    // Double quotes so the agent's shell expands the variable; the rest is plain ASCII.
    const client = variable === undefined ? inProject : `"$${variable}/${inProject}"`;
    return { words: interpreter === '' ? [client] : [interpreter, client], portable: true, client };
  }
  return { words: interpreter === '' ? [shellQuote(absolute)] : [interpreter, shellQuote(absolute)], portable: false, client: absolute };
}

/**
 * The whole command line a project's agent runs per event, with every path
 * reaching the project from wherever the agent was started (a teammate may
 * start it in `src/`): behind the agent's project-folder variable where it
 * has one (the clients resolve --socket and --config from it too); else a
 * `sh -c` prologue walks up from the working folder to the folder holding
 * every one of `markers` (the config and the agent's settings file, relative
 * to the project), names it to the client
 * (`HOOKBOX_PROJECT_DIR`, which the clients put before the agent's variable)
 * and runs the client there — never the working folder. No such folder: exit 2 with
 * the reason on stderr, which every agent of this kind takes as a block.
 * A user-wide setup names absolute paths and needs neither.
 */
export function hookCommand(
  agent: string,
  scope: { kind: 'project'; dir: string } | { kind: 'user' },
  client: { words: string[] },
  args: { before: string[]; socket: string; config: string; after: string[] },
  markers: readonly string[],
  options: { variable?: boolean } = {},
): string {
  const words = [...args.before, '--socket', args.socket, '--config', args.config, ...args.after].map(shellQuote);
  // The clients resolve a relative --socket and --config from the agent's project variable (else the working folder).
  // Settings in a subfolder of the project (`variable: false`): that variable names the subfolder, so the prologue finds the project.
  if (scope.kind === 'user' || (options.variable !== false && PROJECT_DIR_VARIABLE[agent] !== undefined)) return [...client.words, ...words].join(' ');
  const seek = markers.map((marker) => marker.split(path.sep).join('/'));
  for (const file of seek) if (!/^[\w./-]+$/.test(file)) throw new ConfigError(`${file}: the hook command finds the project by this file; name it with letters, digits, ".", "_", "-" and "/" only`);
  // Every marker in one folder: a config planted in a folder on the way up is not enough to be taken for the project.
  const found = seek.map((file) => `[ -e "$r/${file}" ]`).join(' && ');
  const prologue =
    `r=$PWD; until ${found}; do [ "$r" = / ] && { echo "hookbox: no ${seek.join(' with ')} in $PWD or any folder above it: not a hookbox project, refusing the event" >&2; exit 2; }; r=$(dirname "$r"); done; ` +
    `export HOOKBOX_PROJECT_DIR="$r"; cd "$r" || exit 2; exec ${client.words.join(' ')} "$@"`;
  // $0 is the client's path, so the line reads as hookbox's (`…/hookbox-hook.sh codex`) to setup --remove and doctor.
  return ['sh', '-c', shellQuote(prologue), shellQuote(client.words.at(-1)!.replace(/^'(.*)'$/, '$1').replace(/'\\''/g, "'")), ...words].join(' ');
}

/**
 * Adds each entry to the project's `.gitignore` unless its lines already
 * leave it ignored; returns the entries added. `setup --remove` leaves them:
 * the lines are harmless without hookbox and may be the user's own as well.
 */
export function ensureGitignored(dir: string, entries: readonly string[]): string[] {
  const file = path.join(dir, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = text.split(/\r?\n/);
  const missing = entries.filter((entry) => !ignoredBy(lines, entry));
  if (missing.length === 0) return [];
  const lead = text === '' || text.endsWith('\n') ? '' : '\n';
  appendFileSync(file, `${lead}# hookbox: session logs (raw tool output), sockets, local settings with secrets\n${missing.join('\n')}\n`);
  return missing;
}

/**
 * Whether `.gitignore` lines leave `entry` (a project-relative path, a folder
 * ending in `/`) ignored, by git's rules for the lines that name exactly it:
 * as written, anchored with a leading `/`, or a folder without its slash. The
 * last such line decides (a later `!entry` un-ignores it); comments and blank
 * lines name nothing; a leading space is part of a pattern, an unescaped
 * trailing one is not. A near miss (`.claude/settings.local.json.bak`, `#
 * .hookbox/`) names another path: the entry is then added.
 */
export function ignoredBy(lines: readonly string[], entry: string): boolean {
  const bare = entry.replace(/\/$/, '');
  const names = new Set([entry, `/${entry}`, bare, `/${bare}`]);
  let ignored = false;
  for (const raw of lines) {
    const line = raw.replace(/(?<!\\) +$/, '');
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('!')) {
      if (names.has(line.slice(1))) ignored = false;
    } else if (names.has(line)) ignored = true;
  }
  return ignored;
}
