import { appendFileSync, existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AGENT_BRIDGES, type AgentBridge } from '../agents/index.ts';
import { PACKAGE_ROOT } from '../package.ts';

/** Where `hookbox hook` sits inside hookbox's package. */
const CLIENT_IN_PACKAGE = ['host', 'cli', 'hookbox-hook.cjs'] as const;

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
 * The start of the command line an agent runs per event: `node <client>`.
 * `node` from the agent's PATH (never this machine's absolute node); the
 * client through the project's own `node_modules/hookbox` when hookbox is
 * installed there — behind the agent's project-folder variable, or relative
 * for Codex — so a committed settings file runs on every machine with the
 * same checkout. When it is not (a development checkout, a global install,
 * a user-wide setup), the client's absolute path, and `portable` says so.
 */
export function clientCommand(agent: string, scope: { kind: 'project'; dir: string } | { kind: 'user' }): { words: string[]; portable: boolean; client: string } {
  const absolute = path.join(PACKAGE_ROOT, ...CLIENT_IN_PACKAGE);
  if (scope.kind === 'project' && installedIn(scope.dir)) {
    const inProject = ['node_modules', 'hookbox', ...CLIENT_IN_PACKAGE].join('/');
    const variable = PROJECT_DIR_VARIABLE[agent];
    // Double quotes so the agent's shell expands the variable; the rest is plain ASCII.
    const client = variable === undefined ? inProject : `"$${variable}/${inProject}"`;
    return { words: ['node', client], portable: true, client };
  }
  return { words: ['node', shellQuote(absolute)], portable: false, client: absolute };
}

/**
 * Adds each entry to the project's `.gitignore` unless a line already says
 * it; returns the entries added. `setup --remove` leaves them: the lines
 * are harmless without hookbox and may be the user's own as well.
 */
export function ensureGitignored(dir: string, entries: readonly string[]): string[] {
  const file = path.join(dir, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = entries.filter((entry) => !lines.has(entry) && !lines.has(`/${entry}`) && !lines.has(entry.replace(/\/$/, '')));
  if (missing.length === 0) return [];
  const lead = text === '' || text.endsWith('\n') ? '' : '\n';
  appendFileSync(file, `${lead}# hookbox: session logs (raw tool output), sockets, local settings with secrets\n${missing.join('\n')}\n`);
  return missing;
}
