import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Words `sh` runs itself: nothing to look up on PATH. */
const SHELL_WORDS = new Set([
  '.', ':', '[', '[[', '!', '{', '(', 'alias', 'cd', 'command', 'echo', 'eval', 'exec', 'exit', 'export', 'false', 'printf', 'pwd', 'read',
  'return', 'set', 'shift', 'source', 'test', 'trap', 'true', 'type', 'ulimit', 'umask', 'unset', 'wait',
  'if', 'case', 'for', 'while', 'until', 'function', 'time',
]);

/** Interpreters whose first argument is usually the hook's script: that script is checked too. */
const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'node', 'python', 'python3', 'ruby', 'perl', 'deno', 'bun', 'tsx', 'npx']);

/** One program a hook command needs and cannot find. */
export interface MissingProgram {
  /** The program or script as the command names it (after variable expansion). */
  readonly program: string;
  /** Why it cannot run: `not found on PATH`, `no such file`, `not executable`… */
  readonly problem: string;
}

/** What a check of a hook command found: what is missing, and what could not be checked. */
export interface ProgramCheck {
  readonly missing: readonly MissingProgram[];
  /** Set when the command's program cannot be told before it runs (an unset variable, shell syntax). */
  readonly unchecked?: string;
}

/**
 * Checks that the program a hook command starts exists, and the interpreter
 * a script names in its `#!` line, and the script an interpreter is given as
 * its first argument (`python3 "$CLAUDE_PROJECT_DIR"/hooks/x.py`):
 * `sh -c` would otherwise fail each call with a bare `sh: uv: not found`.
 * Only the first simple command is read (after `VAR=value` prefixes); `$VAR`
 * and `${VAR}` are expanded from `env`; relative paths resolve against `cwd`.
 */
export function checkCommandPrograms(command: string, options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv }): ProgramCheck {
  const words = leadingWords(command);
  if (words === undefined) return { missing: [], unchecked: 'starts with shell syntax hookbox does not read' };
  const expanded: string[] = [];
  for (const word of words) {
    const value = expand(word, options.env);
    if (value === undefined) return { missing: [], unchecked: `${word} uses a variable that is not set` };
    expanded.push(value);
  }
  const [program, next] = expanded;
  if (program === undefined || SHELL_WORDS.has(program)) return { missing: [] };
  const missing: MissingProgram[] = [];
  const problem = programProblem(program, options);
  if (problem !== undefined) return { missing: [{ program, problem }] };
  const file = program.includes('/') ? path.resolve(options.cwd, program) : undefined;
  if (file !== undefined) missing.push(...interpreterProblems(file, options.env));
  if (INTERPRETERS.has(path.basename(program)) && next !== undefined && next.includes('/') && !next.startsWith('-')) {
    const script = path.resolve(options.cwd, next);
    if (!isFile(script)) missing.push({ program: next, problem: `no such file (the ${path.basename(program)} script)` });
  }
  return { missing };
}

/** Why `program` cannot be started, or `undefined` when it can. */
function programProblem(program: string, options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv }): string | undefined {
  if (program.includes('/')) {
    const file = path.resolve(options.cwd, program);
    if (!isFile(file)) return 'no such file';
    return isExecutable(file) ? undefined : 'not executable (chmod +x it, or name its interpreter in the command)';
  }
  return onPath(program, options.env) === undefined ? 'not found on PATH' : undefined;
}

/** The `#!` interpreter of a script, checked (`#!/usr/bin/env uv run` → `uv` on PATH). */
function interpreterProblems(file: string, env: NodeJS.ProcessEnv): MissingProgram[] {
  let head: string;
  try {
    head = readFileSync(file, { encoding: 'latin1' }).slice(0, 256);
  } catch {
    return [];
  }
  if (!head.startsWith('#!')) return [];
  const words = head.slice(2).split('\n')[0]!.trim().split(/\s+/).filter((word) => word !== '');
  const interpreter = words[0];
  if (interpreter === undefined) return [];
  if (!isFile(interpreter)) return [{ program: interpreter, problem: `no such file (the #! interpreter of ${file})` }];
  if (path.basename(interpreter) !== 'env') return [];
  const named = words.slice(1).find((word) => !word.startsWith('-') && !word.includes('='));
  if (named === undefined || onPath(named, env) !== undefined) return [];
  return [{ program: named, problem: `not found on PATH (the #! interpreter of ${file})` }];
}

/** Where `name` is on `env.PATH`, if anywhere. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isFile(candidate) && isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The first two words of the command's first simple command, quotes removed,
 * `VAR=value` prefixes skipped; `undefined` when it opens with syntax
 * (subshell, command substitution) whose program cannot be read off.
 */
function leadingWords(command: string): string[] | undefined {
  const words: string[] = [];
  let rest = command.trimStart();
  while (words.length < 2 && rest !== '') {
    if (/^[;&|<>()`]/.test(rest) || rest.startsWith('$(')) return words.length === 0 ? undefined : words;
    // One shell word: plain characters and quoted runs, joined (`"$DIR"/hooks/x.sh`).
    const match = /^(?:[^\s;&|<>()"'`]|"(?:[^"\\]|\\.)*"|'[^']*')+/.exec(rest);
    if (match === null) return words.length === 0 ? undefined : words;
    const word = unquote(match[0]);
    rest = rest.slice(match[0].length).trimStart();
    if (words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(match[0])) continue;
    words.push(word);
  }
  return words;
}

/** Removes the quotes of one shell word (variables are kept for `expand`). */
function unquote(word: string): string {
  return word.replace(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g, (_all, double: string | undefined, single: string | undefined) =>
    single ?? (double ?? '').replace(/\\(.)/g, '$1'),
  );
}

/** `$VAR` / `${VAR}` (and a leading `~/`) expanded from `env`; `undefined` when one is unset. */
function expand(word: string, env: NodeJS.ProcessEnv): string | undefined {
  let unset = false;
  const home = word.startsWith('~/') && env.HOME !== undefined ? `${env.HOME}${word.slice(1)}` : word;
  const value = home.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_all, braced: string | undefined, bare: string | undefined) => {
    const found = env[(braced ?? bare) as string];
    if (found === undefined) unset = true;
    return found ?? '';
  });
  return unset ? undefined : value;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
