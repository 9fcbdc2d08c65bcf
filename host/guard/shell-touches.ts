import path from 'node:path';
import { parse, type ParseEntry } from 'shell-quote';
import type { ProtectedSet } from './protected-set.ts';

/**
 * Programs that only read (their arguments name what they read): a command
 * of one of these may mention a protected path. Anything else that names
 * one — `cp`, `mv`, `ln`, `rm`, `tee`, `sed -i`, `install`, `dd`, an
 * interpreter's inline code — is taken as a change. `sort -o`, `xxd -r`,
 * `yq -i` write, so they are not here.
 */
const READ_ONLY = new Set([
  'cat', 'head', 'tail', 'less', 'more', 'ls', 'stat', 'file', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'diff', 'cmp',
  'sha256sum', 'sha1sum', 'md5sum', 'jq', 'test', '[', 'echo', 'printf', 'true', 'false', 'realpath', 'readlink',
  'basename', 'dirname', 'tree', 'du', 'cd', 'pushd', 'popd', 'pwd', 'which', 'type', 'od', 'hexdump',
]);
const READ_ONLY_GIT = new Set(['status', 'diff', 'log', 'show', 'ls-files', 'blame', 'grep', 'rev-parse', 'check-ignore']);
/** `find` actions that change or run something. */
const FIND_ACTIONS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls']);
/** Words that run the rest of the command line as a program of its own. */
const WRAPPERS = new Set(['sudo', 'env', 'command', 'builtin', 'nice', 'nohup', 'time', 'timeout', 'exec', 'doas']);
/** Wrapper options whose value is the next word (`sudo -u root`, `timeout -s KILL`). */
const OPTION_WITH_VALUE = new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-s', '-k']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'busybox']);
/** Separators between simple commands. */
const SEPARATORS = new Set([';', '&&', '||', '|', '|&', '&', '(', ')', ';;']);

/** Why a command changes a protected path, and which. */
export interface ShellTouch {
  readonly how: string;
  readonly path: string;
}

/** One simple command: its words and where its output is redirected to. */
interface SimpleCommand {
  readonly words: string[];
  /** Redirection targets (`> f`, `>> f`, `&> f`, `<> f`); `glob` when the shell expands the word. */
  readonly writes: { readonly word: string; readonly glob: boolean }[];
  readonly globs: string[];
}

/**
 * Why a shell command would change a protected path, or `undefined` when
 * nothing in it does as far as its text shows. Literal `cd`s are followed;
 * `~`, `$HOME` and `$PWD` are expanded; `sh -c`/`eval` text is read as a
 * command of its own. What only the shell can know (a variable, a computed
 * name) is not guessed here: the tamper check after the tool catches it.
 */
export function shellTouch(command: string, cwd: string, home: string, guarded: ProtectedSet, depth = 0): ShellTouch | undefined {
  let dir: string | undefined = cwd;
  for (const simple of simpleCommands(command)) {
    const expand = (word: string): string => expandWord(word, dir, home);
    for (const target of simple.writes) {
      const hit = target.glob ? guarded.matchGlob(path.resolve(dir ?? '/', expand(target.word))) : resolvedTouch(expand(target.word), dir, guarded);
      if (hit !== undefined) return { how: `it redirects output into ${hit}`, path: hit };
    }
    const [program, ...args] = programAndArgs(simple.words);
    if (program === undefined) continue;
    const name = path.basename(program);
    if (name === 'cd' || name === 'pushd') {
      const to = args.find((arg) => !arg.startsWith('-'));
      dir = to === undefined ? home : to.includes('$') || to === '-' ? undefined : dir === undefined && !path.isAbsolute(expand(to)) ? undefined : path.resolve(dir ?? '/', expand(to));
      continue;
    }
    if ((SHELLS.has(name) || name === 'eval') && depth < 3) {
      const script = name === 'eval' ? args.join(' ') : args[args.indexOf('-c') + 1];
      if (script !== undefined && (name === 'eval' || args.includes('-c'))) {
        const inner = shellTouch(script, dir ?? cwd, home, guarded, depth + 1);
        if (inner !== undefined) return inner;
      }
    }
    if (isHookboxSetup(name, args)) return { how: "it runs hookbox setup, which changes the agents' hook settings", path: 'hookbox setup' };
    if (readOnly(name, args)) continue;
    for (const pattern of simple.globs) {
      const hit = guarded.matchGlob(path.resolve(dir ?? '/', expand(pattern)));
      if (hit !== undefined) return { how: `${name} would change ${hit}`, path: hit };
    }
    const words = [...args, ...args.flatMap((arg) => (arg.includes('=') ? [arg.slice(arg.lastIndexOf('=') + 1)] : []))];
    const hit = firstOf(words, (word) => resolvedTouch(expand(word), dir, guarded)) ?? firstOf(args, (word) => guarded.mentioned(word));
    if (hit !== undefined) return { how: `${name} would change ${hit}`, path: hit };
  }
  return undefined;
}

function firstOf(words: readonly string[], find: (word: string) => string | undefined): string | undefined {
  for (const word of words) {
    const found = find(word);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A protected path a word names, resolved from `dir` (or, with the folder unknown, by the name's tail). */
function resolvedTouch(word: string, dir: string | undefined, guarded: ProtectedSet): string | undefined {
  if (word === '' || word.includes('$')) return undefined;
  if (dir === undefined && !path.isAbsolute(word)) return guarded.endingWith(word);
  return guarded.touch(path.resolve(dir ?? '/', word))?.path;
}

function expandWord(word: string, dir: string | undefined, home: string): string {
  if (word === '~' || word.startsWith('~/')) return home + word.slice(1);
  return word.replace(/^\$\{?HOME\}?(?=\/|$)/, home).replace(/^\$\{?PWD\}?(?=\/|$)/, dir ?? '$PWD');
}

/** The program and its arguments, past variable assignments and wrappers (`FOO=1 sudo -u x cp …` → `cp …`). */
function programAndArgs(words: readonly string[]): string[] {
  let rest = [...words];
  for (;;) {
    while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!)) rest = rest.slice(1);
    if (rest.length === 0 || !WRAPPERS.has(path.basename(rest[0]!))) return rest;
    rest = rest.slice(1);
    while (rest.length > 0 && (rest[0]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!) || /^\d+[smhd]?$/.test(rest[0]!))) {
      rest = rest.slice(OPTION_WITH_VALUE.has(rest[0]!) ? 2 : 1);
    }
  }
}

function readOnly(name: string, args: readonly string[]): boolean {
  if (name === 'git') return READ_ONLY_GIT.has(args.find((arg) => !arg.startsWith('-')) ?? '');
  if (name === 'find') return !args.some((arg) => FIND_ACTIONS.has(arg));
  return READ_ONLY.has(name);
}

/** `hookbox setup …` however hookbox is started (`npx hookbox`, `node …/hookbox.mjs`). */
function isHookboxSetup(name: string, args: readonly string[]): boolean {
  const words = [name, ...args];
  const at = words.findIndex((word) => /(^|\/)hookbox(\.mjs)?$/.test(word));
  return at >= 0 && words.slice(at + 1).includes('setup');
}

/**
 * The command's simple commands. shell-quote tokenizes (quotes, escapes,
 * operators, globs); newlines and backticks, which it does not split on,
 * are turned into `;` first when they stand outside quotes.
 */
function simpleCommands(command: string): SimpleCommand[] {
  const tokens = parse(unquotedSeparators(foldHeredocs(command)), (key) => `$${key}`);
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], writes: [], globs: [] };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ParseEntry;
    if (typeof token === 'string') {
      current.words.push(token);
      continue;
    }
    if ('comment' in token) continue;
    if (token.op === 'glob') {
      current.words.push(token.pattern);
      current.globs.push(token.pattern);
      continue;
    }
    if (SEPARATORS.has(token.op)) {
      commands.push(current);
      current = { words: [], writes: [], globs: [] };
      continue;
    }
    const next = tokens[i + 1];
    if (token.op.includes('>') && typeof next === 'string') {
      if (!(token.op === '>&' && /^\d+$/.test(next))) current.writes.push({ word: next, glob: false });
      i++;
    } else if (token.op.includes('>') && typeof next === 'object' && 'op' in next && next.op === 'glob') {
      current.writes.push({ word: next.pattern, glob: true });
      i++;
    }
  }
  commands.push(current);
  return commands;
}

/**
 * Each here-document's body taken off its lines and put on the command line
 * that reads it, as one quoted word: the body is that program's input, not
 * commands of the script (a patch's `*** Begin Patch` is no glob), yet a
 * program that is not read-only and is fed a body naming a protected path
 * (`python3 <<EOF`, `sh <<EOF`) still counts as naming it.
 */
function foldHeredocs(command: string): string {
  const lines = command.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = unquotedHeredoc(line);
    const opened = at < 0 ? null : /^<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(line.slice(at));
    if (opened === null) {
      out.push(line);
      continue;
    }
    const [, strip, , delimiter] = opened;
    const body: string[] = [];
    while (i + 1 < lines.length && (strip === '-' ? lines[i + 1]!.replace(/^\t+/, '') : lines[i + 1]) !== delimiter) body.push(lines[++i]!);
    i++;
    out.push(`${line} '${body.join('\n').replace(/'/g, `'\\''`)}'`);
  }
  return out.join('\n');
}

/** Where a here-document operator (`<<`, not `<<<`) stands outside quotes on a line, else -1. */
function unquotedHeredoc(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === undefined && c === '\\') i++;
    else if (quote === undefined && (c === '"' || c === "'")) quote = c;
    else if (quote === c) quote = undefined;
    else if (quote === undefined && line.startsWith('<<', i) && line[i + 2] !== '<' && line[i - 1] !== '<') return i;
  }
  return -1;
}

/** `command` with every newline and backtick outside quotes made a `;`. */
function unquotedSeparators(command: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === undefined && c === '\\') {
      out += c + (command[i + 1] ?? '');
      i++;
    } else if (quote === undefined && (c === '"' || c === "'")) {
      quote = c;
      out += c;
    } else if (quote === c) {
      quote = undefined;
      out += c;
    } else if (quote === undefined && (c === '\n' || c === '`')) out += ';';
    else out += c;
  }
  return out;
}
