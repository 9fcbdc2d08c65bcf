import { realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { PermissionBehaviour } from './permission-schema.ts';

export { PERMISSION_BEHAVIOURS, PermissionRulesSchema } from './permission-schema.ts';
export type { PermissionBehaviour, PermissionRules } from './permission-schema.ts';

/** One rule, compiled: which hookbox tools it covers and whether a call of one matches. */
export interface CompiledRule {
  readonly behaviour: PermissionBehaviour;
  /** The rule as written (`Bash(rm:*)`). */
  readonly rule: string;
  /** Where it sits (`permissions.deny[0]`). */
  readonly at: string;
  matches(toolName: string, args: Readonly<Record<string, unknown>>, cwd: string): boolean;
}

/** Claude Code's rule tools → the hookbox tools they cover (Read rules cover every reading tool, Edit rules every editing tool). */
const RULE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Bash: ['bash'],
  Read: ['read_file', 'list_dir'],
  LS: ['list_dir'],
  Edit: ['write_file'],
  Write: ['write_file'],
  MultiEdit: ['write_file'],
};

const RULE = /^([A-Za-z_][\w.-]*)(?:\((.*)\))?$/s;

/**
 * Compiles one Claude Code permission rule — `Tool` or `Tool(specifier)` —
 * into a matcher over hookbox tool calls, or says why it cannot be enforced:
 *
 * - `Bash` (every command), `Bash(npm test)` (exactly), `Bash(rm:*)` /
 *   `Bash(rm *)` (the word `rm`, then anything), `Bash(git * main)` (`*` is
 *   any text). The command is split at `&&`, `||`, `;`, `|`, `&`, newlines,
 *   `$(`, backticks and parentheses, and `VAR=value` prefixes are dropped: a
 *   deny or ask matches when any part matches; an allow only when every part does.
 * - `Read(pattern)` (also list_dir), `Edit(pattern)` / `Write(…)` / `MultiEdit(…)`
 *   (write_file): gitignore-style globs (picomatch, dotfiles included) over the
 *   path the tool would touch, normalised (`..` resolved) and, when it exists,
 *   through symlinks too. `//p` is absolute, `~/p` under the home directory,
 *   `/p` under `root` (the settings file's project), `./p` or `a/b` under the
 *   session cwd (so are `.` and `..`); a pattern without a slash (`.env*`)
 *   matches a file name at any depth. A pattern also covers everything under
 *   a directory it names.
 * - A bare tool name hookbox does not have matches a tool of that name; with a
 *   specifier (`WebFetch(domain:x)`, `mcp__…(…)`) it cannot be enforced.
 */
export function compileRule(behaviour: PermissionBehaviour, rule: string, at: string, root: string): CompiledRule | { readonly why: string } {
  const parsed = RULE.exec(rule.trim());
  if (parsed === null) return { why: 'not a permission rule ("Tool" or "Tool(specifier)")' };
  const tool = parsed[1]!;
  const specifier = parsed[2];
  const tools = RULE_TOOLS[tool];
  const covers = (toolName: string): boolean => (tools === undefined ? toolName === tool : tools.includes(toolName));
  if (specifier === undefined || specifier === '' || specifier === '*') {
    return { behaviour, rule, at, matches: (toolName) => covers(toolName) };
  }
  if (tools === undefined) return { why: `hookbox has no ${tool} tool to apply "${specifier}" to` };
  if (tool === 'Bash') {
    const test = commandMatcher(specifier);
    const every = behaviour === 'allow';
    return {
      behaviour,
      rule,
      at,
      matches: (toolName, args) => {
        if (!covers(toolName) || typeof args.command !== 'string') return false;
        const parts = commandParts(args.command);
        return every ? parts.length > 0 && parts.every(test) : parts.some(test);
      },
    };
  }
  const test = pathMatcher(specifier, root);
  return {
    behaviour,
    rule,
    at,
    matches: (toolName, args, cwd) => covers(toolName) && typeof args.path === 'string' && test(args.path, cwd),
  };
}

/** The simple commands of a command line, `VAR=value` prefixes dropped. */
export function commandParts(command: string): string[] {
  return command
    .split(/&&|\|\||[;|&\n`()]|\$\(/)
    .map((part) => part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '').trim())
    .filter((part) => part !== '');
}

/** A Bash rule's specifier as a test of one simple command. */
function commandMatcher(specifier: string): (part: string) => boolean {
  // Claude Code's older `prefix:*` means `prefix *`: the word, then anything.
  const spec = specifier.endsWith(':*') ? `${specifier.slice(0, -2)} *` : specifier;
  if (!spec.includes('*')) return (part) => part === spec;
  const escaped = spec.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  // A trailing ` *` also matches the bare word (`ls *` matches `ls`).
  const source = spec.endsWith(' *') ? `${escaped.slice(0, -1).join('.*').replace(/ $/, '')}(?: .*)?` : escaped.join('.*');
  const regex = new RegExp(`^${source}$`, 's');
  return (part) => regex.test(part);
}

/** A file rule's pattern as a test of a tool's path argument. */
function pathMatcher(pattern: string, root: string): (file: string, cwd: string) => boolean {
  const home = process.env.HOME ?? '/';
  const anchored = (base: string, rest: string): string => path.join(base, rest);
  // `.` and `..` are the cwd and its parent, not names at any depth (a normalised path has no such segment: they matched nothing).
  const trimmed = pattern.replace(/\/$/, '');
  const underCwd = trimmed.includes('/') || trimmed === '.' || trimmed === '..';
  const build = (cwd: string): string[] => {
    let absolute: string;
    if (pattern.startsWith('//')) absolute = pattern.slice(1);
    else if (pattern.startsWith('~/')) absolute = anchored(home, pattern.slice(2));
    else if (pattern.startsWith('/')) absolute = anchored(root, pattern.slice(1));
    else if (underCwd) absolute = anchored(cwd, pattern);
    else absolute = `**/${pattern}`;
    const base = absolute.replace(/\/+$/, '');
    return [base, `${base}/**`];
  };
  const cache = new Map<string, picomatch.Matcher>();
  return (file, cwd) => {
    let match = cache.get(cwd);
    if (match === undefined) {
      match = picomatch(build(cwd), { dot: true });
      cache.set(cwd, match);
    }
    const resolved = path.resolve(cwd, file);
    if (match(resolved)) return true;
    try {
      return match(realpathSync(resolved));
    } catch {
      return false;
    }
  };
}
