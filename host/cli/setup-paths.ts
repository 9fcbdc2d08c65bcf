import { appendFileSync, existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AGENT_BRIDGES, type AgentBridge } from '../agents/index.ts';
import { ConfigError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package.ts';

/**
 * The command clients `setup` can write: `sh` (host/cli/hookbox-hook.sh: no
 * Node start while the server is up; it hands every other case to the Node
 * client) and `node` (host/cli/hookbox-hook.cjs). Both take the same
 * arguments and answer the same.
 */
export type HookClientKind = 'sh' | 'node';

/** Where each client sits inside hookbox's package, and the interpreter the agent's shell runs it with (from its PATH). */
const CLIENTS: Readonly<Record<HookClientKind, { readonly file: readonly string[]; readonly interpreter: string }>> = {
  sh: { file: ['host', 'cli', 'hookbox-hook.sh'], interpreter: 'sh' },
  node: { file: ['host', 'cli', 'hookbox-hook.cjs'], interpreter: 'node' },
};

/** The client `setup` writes when none is asked for: the sh one wherever there is a POSIX `sh` (every platform but Windows). */
export function defaultHookClient(platform: NodeJS.Platform = process.platform): HookClientKind {
  return platform !== 'win32' && existsSync('/bin/sh') ? 'sh' : 'node';
}

/** `--client`'s value as a kind, or a clear error naming it. */
export function hookClientKind(value: string | undefined): HookClientKind {
  if (value === undefined) return defaultHookClient();
  if (value === 'sh' || value === 'node') return value;
  throw new ConfigError(`--client: expected "sh" or "node", got "${value}"`);
}

/** Which client a command line `setup` wrote runs (undefined when it runs neither file). */
export function hookClientOf(command: string): HookClientKind | undefined {
  if (/hookbox-hook\.sh\b/.test(command)) return 'sh';
  if (/hookbox-hook\.cjs\b|hookbox(\.mjs)?['"]?\s+['"]?hook\b/.test(command)) return 'node';
  return undefined;
}

/**
 * The variable each agent names the project folder by in a hook command's
 * environment (each bridge's `projectDirVariable`). An agent that names none
 * (Codex) runs hooks in the session's folder, so its command is relative to that.
 */
export const PROJECT_DIR_VARIABLE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(AGENT_BRIDGES).flatMap((bridge: AgentBridge) => (bridge.projectDirVariable === undefined ? [] : [[bridge.name, bridge.projectDirVariable]])),
);

/** The per-project socket `setup` points the client at, relative to the project (a server serves one project). */
export const PROJECT_SOCKET = path.join('.hookbox', 'run', 'serve.sock');

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
 * installed there — behind the agent's project-folder variable, or relative
 * for Codex — so a committed settings file runs on every machine with the
 * same checkout. When it is not (a development checkout, a global install,
 * a user-wide setup), the client's absolute path, and `portable` says so.
 */
export function clientCommand(
  agent: string,
  scope: { kind: 'project'; dir: string } | { kind: 'user' },
  kind: HookClientKind = defaultHookClient(),
): { words: string[]; portable: boolean; client: string } {
  const { file, interpreter } = CLIENTS[kind];
  const absolute = path.join(PACKAGE_ROOT, ...file);
  if (scope.kind === 'project' && installedIn(scope.dir)) {
    const inProject = ['node_modules', 'hookbox', ...file].join('/');
    const variable = PROJECT_DIR_VARIABLE[agent];
    // Double quotes so the agent's shell expands the variable; the rest is plain ASCII.
    const client = variable === undefined ? inProject : `"$${variable}/${inProject}"`;
    return { words: [interpreter, client], portable: true, client };
  }
  return { words: [interpreter, shellQuote(absolute)], portable: false, client: absolute };
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
