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
  /** The `cd DIR &&` before it: where the patch's relative paths start. */
  readonly workdir?: string;
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
const CD_PREFIX = /^\s*cd\s+("[^"]*"|'[^']*'|[^\s;&|'"]+)\s*&&\s*apply_?patch\b/;

/** The patch a shell call applies, or undefined when it applies none. `argv` is empty for a command string. */
export function shellPatch(argv: readonly string[], command: string): ShellPatch | undefined {
  if (argv.length === 2 && /^apply_?patch$/.test(path.basename(argv[0]!))) return { patch: argv[1]! };
  const script = argv.length === 0 ? command : shellScript(argv);
  const texts = script !== undefined ? [script] : argv;
  if (!texts.some((text) => APPLY_PATCH.test(text))) return undefined;
  for (const text of texts) {
    const patch = heredocAfterApplyPatch(text) ?? fromBeginMarker(text);
    if (patch === undefined) continue;
    const cd = CD_PREFIX.exec(text)?.[1];
    return { patch, ...(cd !== undefined && { workdir: unquote(cd) }) };
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

function unquote(word: string): string {
  return /^(["']).*\1$/.test(word) ? word.slice(1, -1) : word;
}
