import path from 'node:path';

/**
 * A patch that a Codex shell call applies. Codex intercepts `apply_patch
 * <patch>` (argv), and a shell script (`bash|zsh|sh -c|-lc`, `pwsh
 * [-NoProfile] -Command`, `cmd /c`; `exec_command {cmd}` runs as one) that is
 * `apply_patch <<'EOF' … EOF` or `cd DIR && apply_patch <<'EOF' … EOF` — any
 * heredoc delimiter, `applypatch` too — and applies the heredoc as a patch.
 * Codex also puts an `apply_patch` program on the shell's PATH, so any other
 * script that runs it writes files as well. Hence this reads more than
 * Codex's exact forms: any call whose command line names `apply_patch` or
 * `applypatch` and carries a heredoc after it, or a `*** Begin Patch`, has
 * that text read as a patch. Reading too much only adds writes to decide
 * (stricter); reading too little would let a write past a guard.
 */
export interface ShellPatch {
  readonly patch: string;
  /**
   * Where the patch's relative paths start, relative to the call's cwd (or
   * absolute): the `cd`s the script runs before `apply_patch`, followed in
   * turn (`cd src && apply_patch`, `echo x; cd a; cd ../b && apply_patch`).
   * Absent when the script changes no directory.
   */
  readonly workdir?: string;
  /**
   * The script changes directory in a way that cannot be read from its text
   * (`cd "$DIR"`, `cd ~`, `cd -`, a bare `cd`, `pushd`, a `cd` in a subshell,
   * pipeline or `||` branch, or a heredoc before it): where the patch's paths
   * land is known only to the shell.
   */
  readonly workdirUnknown?: true;
}

const APPLY_PATCH = /(?:^|[\s;&|()`'"/])apply_?patch(?=$|[\s;&|()<'"`])/;
const SHELLS: Readonly<Record<string, (flag: string) => boolean>> = {
  bash: (flag) => flag === '-c' || flag === '-lc',
  zsh: (flag) => flag === '-c' || flag === '-lc',
  sh: (flag) => flag === '-c' || flag === '-lc',
  pwsh: (flag) => flag.toLowerCase() === '-command',
  powershell: (flag) => flag.toLowerCase() === '-command',
  cmd: (flag) => flag.toLowerCase() === '/c',
};

/** The patch a shell call applies, or undefined when it applies none. `argv` is empty for a command string. */
export function shellPatch(argv: readonly string[], command: string): ShellPatch | undefined {
  if (argv.length === 2 && /^apply_?patch$/.test(path.basename(argv[0]!))) return { patch: argv[1]! };
  const script = argv.length === 0 ? command : shellScript(argv);
  const texts = script !== undefined ? [script] : argv;
  if (!texts.some((text) => APPLY_PATCH.test(text))) return undefined;
  for (const text of texts) {
    const patch = heredocAfterApplyPatch(text) ?? fromBeginMarker(text);
    if (patch === undefined) continue;
    // The text before the `apply_patch` word (an argv word holding only the patch has none).
    const word = APPLY_PATCH.exec(text);
    return { patch, ...workdirBefore(word === null ? '' : text.slice(0, word.index + word[0].search(/apply_?patch/))) };
  }
  return undefined;
}

/** The script of `[shell, flag, script]` (or `[pwsh, -NoProfile, -Command, script]`). */
function shellScript(argv: readonly string[]): string | undefined {
  const stem = (word: string): string => path.basename(word).replace(/\.exe$/i, '').toLowerCase();
  if (argv.length === 3 && SHELLS[stem(argv[0]!)]?.(argv[1]!) === true) return argv[2];
  if (argv.length === 4 && ['pwsh', 'powershell'].includes(stem(argv[0]!)) && argv[1]!.toLowerCase() === '-noprofile' && SHELLS.pwsh!(argv[2]!)) return argv[3];
  return undefined;
}

/** The body of the first heredoc that follows an `apply_patch` word, up to its delimiter line (or the end). */
function heredocAfterApplyPatch(text: string): string | undefined {
  const start = /apply_?patch\b[^\n]*?<<(-?)[ \t]*(['"]?)([^\s'"<>;&|()]+)\2[^\n]*\n/.exec(text);
  if (start === null) return undefined;
  const [whole, dash, , delimiter] = start;
  const lines = text.slice(start.index + whole.length).split('\n');
  const end = lines.findIndex((line) => (dash === '-' ? line.replace(/^\t+/, '') : line).replace(/\r$/, '') === delimiter);
  const body = end === -1 ? lines : lines.slice(0, end);
  return (dash === '-' ? body.map((line) => line.replace(/^\t+/, '')) : body).join('\n').replace(/\n+$/, '');
}

/** From a `*** Begin Patch` line (however indented) to the end of the text. */
function fromBeginMarker(text: string): string | undefined {
  const begin = /(?:^|\n)[^\S\n]*\*\*\* Begin Patch/.exec(text);
  return begin === null ? undefined : text.slice(begin.index).replace(/^\n/, '');
}

type Workdir = Pick<ShellPatch, 'workdir' | 'workdirUnknown'>;
const UNKNOWN: Workdir = { workdirUnknown: true };
/** Words that change the shell's directory. */
const DIRECTORY_CHANGE = /^(?:cd|chdir|pushd|popd|Set-Location|sl)$/i;

/**
 * Where the script stands when it reaches `apply_patch`: the `cd`s in the
 * text before it, each a literal word, followed in turn. A directory change
 * that cannot be followed from the text makes the place unknown.
 */
function workdirBefore(prefix: string): Workdir {
  if (prefix.includes('<<')) return /\b(?:cd|chdir|pushd|popd|Set-Location|sl)\b/i.test(prefix) ? UNKNOWN : {};
  let workdir: string | undefined;
  let before = '';
  for (const { words, after } of simpleCommands(prefix)) {
    const joined = [before, after];
    before = after;
    const [first, ...rest] = words;
    if (first === undefined) continue;
    if (first.startsWith('(') || first.startsWith('{')) {
      if (words.some((word) => DIRECTORY_CHANGE.test(word.replace(/^[({]+/, '')))) return UNKNOWN;
      continue;
    }
    if (!DIRECTORY_CHANGE.test(first)) continue;
    // Only `cd` (with `-P`/`-L`/`--`) to one literal word, run in this shell, can be followed.
    const args = rest.filter((word, i) => !(['-P', '-L', '--'].includes(word) && rest.slice(0, i).every((flag) => ['-P', '-L', '--'].includes(flag))));
    const target = args.length === 1 ? literalWord(args[0]!) : undefined;
    // A `cd` in a pipeline, in the background or in an `||` branch may not move this shell.
    if (first !== 'cd' || target === undefined || target === '-' || joined.some((separator) => ['|', '||', '&'].includes(separator))) return UNKNOWN;
    workdir = workdir === undefined || path.posix.isAbsolute(target) ? target : target === '' ? workdir : path.posix.join(workdir, target);
  }
  return workdir === undefined ? {} : { workdir };
}

/**
 * The script split at `;`, `&&`, `||`, `|`, `&` and newlines outside quotes,
 * each piece as its words (quotes kept) and the separator that ends it.
 */
function simpleCommands(script: string): { words: string[]; after: string }[] {
  const commands: { words: string[]; after: string }[] = [];
  let words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const endWord = (): void => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < script.length; i++) {
    const char = script[i]!;
    if (quote !== undefined) {
      word = `${word ?? ''}${char}`;
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < script.length) word += script[++i]!;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word = (word ?? '') + char;
    } else if (char === '\\' && i + 1 < script.length) {
      word = (word ?? '') + char + script[++i];
    } else if (/[;&|\n]/.test(char)) {
      endWord();
      const pair = script.slice(i, i + 2);
      const after = pair === '&&' || pair === '||' ? pair : char;
      i += after.length - 1;
      commands.push({ words, after });
      words = [];
    } else if (/\s/.test(char)) {
      endWord();
    } else {
      word = (word ?? '') + char;
    }
  }
  endWord();
  commands.push({ words, after: '' });
  return commands;
}

/** A word's literal text (its quotes taken off), or undefined when the shell would expand it (`$`, `` ` ``, `~`, globs, escapes). */
function literalWord(word: string): string | undefined {
  const single = /^'([^']*)'$/.exec(word);
  if (single !== null) return single[1];
  const double = /^"([^"$`\\]*)"$/.exec(word);
  if (double !== null) return double[1];
  return /^[^'"$`\\~*?[{]+$/.test(word) && !word.startsWith('~') ? word : undefined;
}
