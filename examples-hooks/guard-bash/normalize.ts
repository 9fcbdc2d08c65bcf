/**
 * From a simple command's words to the program that actually runs: strips
 * assignments (`VAR=value`), shell keywords and wrapper programs (`sudo`,
 * `env`, `command`, `exec`, `nice`, `time`, …) with their own options, so
 * `FOO=1 sudo -u root env -i nice -n 5 /bin/rm -rf /` is judged as `rm -rf /`.
 */
import type { SimpleCommand } from './shell.ts';

/** A program invocation after prefix stripping. */
export interface Invocation {
  /** Basename of the program (`/usr/bin/rm` → `rm`). */
  readonly name: string;
  readonly args: readonly string[];
  readonly redirects: readonly string[];
  readonly stdinTexts: readonly string[];
}

interface Wrapper {
  /** Options that consume the following word. */
  readonly optionsWithValue: readonly string[];
  /** Positional words the wrapper itself takes before the command (`timeout 5 cmd`). */
  readonly positionals?: number;
}

const WRAPPERS = new Map<string, Wrapper>(Object.entries({
  sudo: {
    optionsWithValue: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--chdir', '--role', '--type', '--other-user', '--close-from', '--command-timeout'],
  },
  doas: { optionsWithValue: ['-u', '-C'] },
  env: { optionsWithValue: ['-u', '--unset', '-C', '--chdir'] },
  command: { optionsWithValue: [] },
  builtin: { optionsWithValue: [] },
  exec: { optionsWithValue: ['-a'] },
  nice: { optionsWithValue: ['-n', '--adjustment'] },
  time: { optionsWithValue: ['-f', '-o', '--format', '--output'] },
  nohup: { optionsWithValue: [] },
  setsid: { optionsWithValue: [] },
  busybox: { optionsWithValue: [] },
  stdbuf: { optionsWithValue: ['-i', '-o', '-e'] },
  ionice: { optionsWithValue: ['-c', '-n', '-p', '-P', '-u'] },
  timeout: { optionsWithValue: ['-s', '-k', '--signal', '--kill-after'], positionals: 1 },
  xargs: { optionsWithValue: ['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-lines'] },
} satisfies Record<string, Wrapper>));

/** Words that open or close shell constructs and run nothing themselves. */
const KEYWORDS = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac', 'in']);

/** First words `normalizeCommand` strips to find the program: keywords and wrappers. */
export const PREFIX_WORDS: ReadonlySet<string> = new Set([...KEYWORDS, ...WRAPPERS.keys()]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const BRACE_LIST = /^\{[^{}\s]*,[^{}\s]*\}$/;

/** Program basename: `/usr/bin/rm` → `rm`, `./x` → `x`. */
export function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash < 0 || slash === word.length - 1 ? word : word.slice(slash + 1);
}

// `{rm,-rf,/}` is brace-expanded by bash into `rm -rf /`.
function expandLeadingBraces(words: string[]): string[] {
  const first = words[0];
  if (first === undefined || first.charCodeAt(0) !== 123 /* { */ || !BRACE_LIST.test(first)) return words;
  return [...first.slice(1, -1).split(','), ...words.slice(1)];
}

// `env -S 'rm -rf /'` splits its argument into words itself.
function splitEnvString(words: string[], index: number): string[] | undefined {
  const word = words[index] ?? '';
  let value: string | undefined;
  let consumed = 1;
  if (word === '-S' || word === '--split-string') {
    value = words[index + 1];
    consumed = 2;
  } else if (word.startsWith('--split-string=')) value = word.slice('--split-string='.length);
  else if (/^-[^-]*S./.test(word)) value = word.slice(word.indexOf('S') + 1);
  if (value === undefined) return undefined;
  return [...value.split(/\s+/).filter((w) => w !== ''), ...words.slice(index + consumed)];
}

/** Drops a wrapper's name, its options and its own positionals; `undefined` when nothing follows. */
function stripWrapper(name: string, wrapper: Wrapper, words: string[]): string[] | undefined {
  let rest = words.slice(1);
  while (rest.length > 0) {
    const w = rest[0] as string;
    if (w === '--') {
      rest = rest.slice(1);
      break;
    }
    if (!w.startsWith('-') || w === '-') break;
    if (name === 'env') {
      const split = splitEnvString(rest, 0);
      if (split !== undefined) return split;
    }
    // `command -v rm` only looks the program up.
    if (name === 'command' && /^-[a-zA-Z]*[vV]/.test(w)) return undefined;
    rest = rest.slice(wrapper.optionsWithValue.includes(w) ? 2 : 1);
  }
  return rest.slice(wrapper.positionals ?? 0);
}

/**
 * The program a command runs when its first word already is the program (no
 * assignment, keyword, wrapper or brace list before it): then
 * `normalizeCommand` gives exactly this name, with the other words as
 * arguments. `undefined` when only `normalizeCommand` can tell. A cheap
 * look at most commands, which name programs no rule is about.
 */
export function plainProgram(words: readonly string[]): string | undefined {
  const first = words[0];
  if (first === undefined || first.charCodeAt(0) === 123 /* { */ || KEYWORDS.has(first) || (first.indexOf('=') > 0 && ASSIGNMENT.test(first))) {
    return undefined;
  }
  const name = basename(first);
  return WRAPPERS.has(name) ? undefined : name;
}

/**
 * The program a simple command runs, after stripping assignments, keywords
 * and wrappers; `undefined` when it runs nothing (only assignments, `command -v`).
 *
 * @example
 * ```ts
 * normalizeCommand({ words: ['X=1', 'sudo', '-u', 'root', '/bin/rm', '-rf', '/'], redirects: [], stdinTexts: [] });
 * // → { name: 'rm', args: ['-rf', '/'], … }
 * ```
 */
export function normalizeCommand(command: SimpleCommand): Invocation | undefined {
  let words = expandLeadingBraces(command.words);
  // Bounded: every pass removes at least one word.
  for (let guard = 0; guard < 64; guard++) {
    const first = words[0];
    if (first === undefined) return undefined;
    if (KEYWORDS.has(first) || (first.indexOf('=') > 0 && ASSIGNMENT.test(first))) {
      words = expandLeadingBraces(words.slice(1));
      continue;
    }
    const name = basename(first);
    const wrapper = WRAPPERS.get(name);
    if (wrapper !== undefined) {
      const rest = stripWrapper(name, wrapper, words);
      if (rest === undefined) return undefined;
      words = expandLeadingBraces(rest);
      continue;
    }
    return { name, args: words.slice(1), redirects: command.redirects, stdinTexts: command.stdinTexts };
  }
  return undefined;
}
