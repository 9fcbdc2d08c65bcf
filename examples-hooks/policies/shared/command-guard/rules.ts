/**
 * The fixed command rules (recursive delete of `/`, `~` or the workspace,
 * `curl … | sh`, force push to main, `chmod -R 777`, writes to block devices,
 * `git push`), each judging one normalized program invocation (or one
 * pipeline). One implementation: the guard-bash example hook and the
 * `destructive-commands` catalog policy both judge with it (`check.ts`).
 * A finding's `why` is a fixed text per rule plus a symbolic target kind: it
 * never quotes the command, which may carry secrets in arguments or
 * environment assignments. Each consumer puts its own `<name>: <rule>:` in
 * front.
 */
import { basename, normalizeCommand, type Invocation } from '../../../guard-bash/normalize.ts';
import { isBlockDevice, protectedTarget } from '../../../guard-bash/paths.ts';
import { parseShell } from '../../../guard-bash/shell.ts';
import { readPush } from '../git-push.ts';

/** Every rule id a verdict can name. */
export type RuleId =
  | 'recursive-delete'
  | 'remote-script'
  | 'obfuscated-script'
  | 'force-push'
  | 'chmod-777'
  | 'block-device-write'
  | 'fork-bomb'
  | 'custom-pattern'
  | 'git-push'
  | 'too-complex'
  | 'invalid-arguments'
  | 'config-error';

/** Where relative paths resolve (`cwd`, after any `cd`) and the session's workspace root. */
export interface PathContext {
  readonly cwd: string;
  readonly workspace: string;
}

/** One rule's opinion about one invocation. */
export interface Finding {
  readonly action: 'deny' | 'ask';
  readonly rule: RuleId;
  /** What the rule saw, without the `<name>: <rule>:` a reason starts with. */
  readonly why: string;
}

const deny = (rule: RuleId, why: string): Finding => ({ action: 'deny', rule, why });
const ask = (rule: RuleId, why: string): Finding => ({ action: 'ask', rule, why });

/** Programs that run a script given as text or read from stdin. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
/** Interpreters that run code piped into them (`curl … | python3`), and `source`/`.` of `/dev/stdin`. */
const INTERPRETERS = new Set([...SHELLS, 'python', 'python3', 'perl', 'ruby', 'node', 'nodejs', 'deno', 'bun', 'php', 'pwsh', 'powershell', 'source', '.']);
/** `python3.12` and the like, beside the names in {@link INTERPRETERS}. */
const VERSIONED_PYTHON = /^python[0-9][0-9.]*$/;
/** The paths a program reads its stdin by (`bash /dev/stdin`). */
const STDIN_PATHS = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh']);
/** A downloading substitution inside a longer word (`"echo; $(curl …)"`), where the word is not one substitution to parse. */
const DOWNLOAD_SUBSTITUTION = /\$\(\s*(?:curl|wget|fetch|aria2c|http|https|xh)\b/;
const PROTECTED_BRANCHES = new Set(['main', 'master']);
const ECHO_OPTIONS = /^-[neE]+$/;

/** Splits options from operands: everything before `--` that starts with `-` is an option. */
function splitOptions(args: readonly string[]): { options: string[]; operands: string[] } {
  const options: string[] = [];
  const operands: string[] = [];
  let afterDashes = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!afterDashes && a === '--') afterDashes = true;
    else if (!afterDashes && a.startsWith('-') && a !== '-') options.push(a);
    else operands.push(a);
  }
  return { options, operands };
}

const hasShortFlag = (options: readonly string[], flag: string) =>
  options.some((o) => !o.startsWith('--') && o.slice(1).includes(flag));

const FIND_FILTERS = new Set(
  '-name -iname -path -ipath -wholename -iwholename -regex -iregex -newer -mtime -mmin -atime -amin -ctime -cmin -size -empty -user -group -perm -links -inum -samefile -lname -ilname -uid -gid -nouser -nogroup'.split(' '),
);

/** `rm -r` / `rm -R` / `rm --recursive` on a protected target, or any `--no-preserve-root`. */
function recursiveDelete(inv: Invocation, where: PathContext): Finding | undefined {
  if (inv.name === 'rm') {
    const { options, operands } = splitOptions(inv.args);
    const recursive = options.includes('--recursive') || hasShortFlag(options, 'r') || hasShortFlag(options, 'R');
    if (!recursive) return undefined;
    if (options.includes('--no-preserve-root')) return deny('recursive-delete', 'recursive delete with --no-preserve-root');
    for (const target of operands) {
      const kind = protectedTarget(target, where.cwd, where.workspace);
      if (kind !== undefined) return deny('recursive-delete', `recursive delete of ${kind}`);
    }
  }
  if (inv.name === 'find') {
    const firstExpr = inv.args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
    const paths = firstExpr < 0 ? inv.args : inv.args.slice(0, firstExpr);
    const expr = firstExpr < 0 ? [] : inv.args.slice(firstExpr);
    // Tests that narrow the match (`-name '*.o'`) make it a selective clean-up, not a wipe.
    if (expr.some((a) => FIND_FILTERS.has(a))) return undefined;
    const deletes =
      expr.includes('-delete') ||
      expr.some((a, i) => (a === '-exec' || a === '-execdir' || a === '-ok') && ['rm', 'shred'].includes(basename(expr[i + 1] ?? '')));
    if (!deletes) return undefined;
    for (const path of paths.length === 0 ? ['.'] : paths) {
      const kind = protectedTarget(path, where.cwd, where.workspace);
      if (kind !== undefined) return deny('recursive-delete', `find deleting everything under ${kind}`);
    }
  }
  return undefined;
}

/** `chmod -R 777` (or any recursive grant of write to everyone). */
function chmodWorldWritable(inv: Invocation): Finding | undefined {
  if (inv.name !== 'chmod') return undefined;
  const options = inv.args.filter((a) => /^--?[a-zA-Z]/.test(a) && !/^-[rwxXst]+$/.test(a));
  const recursive = options.includes('--recursive') || hasShortFlag(options, 'R');
  if (!recursive) return undefined;
  const mode = inv.args.find((a) => !options.includes(a));
  if (mode === undefined) return undefined;
  const octal = /^0*[0-7]?([0-7]{3})$/.exec(mode);
  const worldWritable = octal
    ? ['2', '3', '6', '7'].includes(octal[1]?.[2] ?? '')
    : mode.split(',').some((clause) => /^[ugo]*[ao][ugoa]*[+=][rwxXst]*w/.test(clause));
  return worldWritable ? deny('chmod-777', 'recursive chmod making files world-writable') : undefined;
}

const MKFS = /^(mkfs(\.[A-Za-z0-9]+)?|mke2fs|mkswap|mkdosfs|mkntfs|wipefs|blkdiscard|shred)$/;

/** `dd of=/dev/sda`, `mkfs.ext4 /dev/sdb1`, `wipefs`/`shred` on a disk. */
function blockDeviceWrite(inv: Invocation): Finding | undefined {
  if (inv.name === 'dd' && inv.args.some((a) => a.startsWith('of=') && isBlockDevice(a.slice(3)))) {
    return deny('block-device-write', 'dd writing to a block device');
  }
  if (MKFS.test(inv.name) && inv.args.some(isBlockDevice)) {
    return deny('block-device-write', `${inv.name} on a block device`);
  }
  return undefined;
}

/**
 * Whether a word runs a downloader in a command substitution: the whole word
 * one (`$(curl …)`, `<(wget …)`, parsed and normalised: `$(sudo curl …)`), or
 * one inside a longer word (`"echo; $(curl …)"`).
 */
function fetchesRemote(word: string): boolean {
  const m = /^\$\(([\s\S]*)\)$/.exec(word);
  if (!m) return word.indexOf('$(') >= 0 && DOWNLOAD_SUBSTITUTION.test(word);
  return parseShell(m[1] ?? '').pipelines.some((p) =>
    p.some((c) => {
      const inv = normalizeCommand(c);
      return inv !== undefined && DOWNLOADERS.has(inv.name);
    }),
  );
}

/** Whether a program downloads (`curl`, `wget`…): what it prints may be code from the network. */
export function isDownloader(inv: Invocation): boolean {
  return DOWNLOADERS.has(inv.name);
}

/**
 * The downloader whose output `inv` runs as its script, fed to it through the
 * pipeline (`curl … | sh`, `wget -O- … | sudo bash -s`, `curl … | python3 -`),
 * or `undefined`. With {@link downloadedArgument}, the one reading of "runs
 * code from the network": guard-bash's and the catalog's `remote-script`
 * (through {@link pipelineRules}) and `package-installs`' `pipe-to-shell`.
 */
export function downloadFeeding(inv: Invocation, fedBy: readonly (Invocation | undefined)[]): Invocation | undefined {
  if (!readsScriptFromStdin(inv)) return undefined;
  return fedBy.find((source) => source !== undefined && isDownloader(source));
}

/** The argument by which a program that runs text runs a download: `bash <(curl …)`, `sh -c "$(wget -O- …)"`, `eval "$(curl …)"`, `source <(curl …)`. */
export function downloadedArgument(inv: Invocation): string | undefined {
  const runsText = SHELLS.has(inv.name) || inv.name === 'eval' || inv.name === 'source' || inv.name === '.';
  return runsText ? inv.args.find(fetchesRemote) : undefined;
}

function remoteScriptArgument(inv: Invocation): Finding | undefined {
  return downloadedArgument(inv) === undefined ? undefined : deny('remote-script', 'runs a script downloaded from the network');
}

/**
 * Force-push or delete of main/master; `ask` for any other push. The push is
 * read by `readPush` (`shared/git-push.ts`), as `git-guards` reads it; what
 * this rule adds is its verdict: `--mirror` counts as a force here.
 */
function gitPush(inv: Invocation): Finding | undefined {
  const push = readPush(inv);
  if (push === undefined) return undefined;
  const force = push.force || push.mirror;
  for (const refspec of push.refspecs) {
    if (!PROTECTED_BRANCHES.has(refspec.dst)) continue;
    if (refspec.plus || force) return deny('force-push', `force push to ${refspec.dst}`);
    if (push.deleting || refspec.deletes) return deny('force-push', `deletes the remote ${refspec.dst} branch`);
  }
  if (force && (push.mirror || push.all)) return deny('force-push', 'force push of every branch, including main/master');
  if (force) return ask('git-push', 'force push to a remote; confirm the branch');
  return ask('git-push', 'pushes to a remote');
}

/**
 * Appends what the rules that judge one invocation find to `out`. Each rule
 * looks at a disjoint set of program names, so dispatching on the name first
 * finds the same (at most one) finding without running the other four.
 */
export function addInvocationFindings(out: Finding[], inv: Invocation, where: PathContext): void {
  const name = inv.name;
  const rule = RULE_BY_NAME.get(name) ?? (name.startsWith('mk') && MKFS.test(name) ? 'block-device' : undefined);
  if (rule === undefined) return;
  let finding: Finding | undefined;
  if (rule === 'delete') finding = recursiveDelete(inv, where);
  else if (rule === 'chmod') finding = chmodWorldWritable(inv);
  else if (rule === 'git') finding = gitPush(inv);
  else if (rule === 'runs-text') finding = remoteScriptArgument(inv);
  else finding = blockDeviceWrite(inv);
  if (finding !== undefined) out.push(finding);
}

/**
 * Which rule can fire for a program name (besides `mkfs.*`, `mke2fs`…, which
 * `MKFS` matches). Most programs map to none and are judged by one lookup.
 */
const RULE_BY_NAME = new Map<string, 'delete' | 'chmod' | 'git' | 'runs-text' | 'block-device'>([
  ['rm', 'delete'],
  ['find', 'delete'],
  ['chmod', 'chmod'],
  ['git', 'git'],
  ...[...SHELLS, 'eval', 'source', '.'].map((name) => [name, 'runs-text'] as const),
  ...['dd', 'wipefs', 'blkdiscard', 'shred'].map((name) => [name, 'block-device'] as const),
]);

/**
 * Whether any rule about one invocation can fire for a program name: the
 * rules of {@link addInvocationFindings}, {@link scriptArgument} and
 * {@link readsScriptFromStdin}. For any other program they find nothing.
 */
export function judgesProgram(name: string): boolean {
  return JUDGED_PROGRAMS.has(name) || (name.startsWith('mk') && MKFS.test(name));
}

/** The programs {@link judgesProgram} names, besides `mkfs.*`, `mke2fs`… (which start with `mk`). */
export const JUDGED_PROGRAMS: ReadonlySet<string> = new Set([...RULE_BY_NAME.keys(), ...INTERPRETERS, 'su']);

/** Whether a program may run a script fed to its stdin (see {@link readsScriptFromStdin}). */
export function isInterpreter(name: string): boolean {
  // The cheap test first: this runs for every piped program on guard-bash's hot path.
  return INTERPRETERS.has(name) || (name.charCodeAt(0) === 112 /* p */ && VERSIONED_PYTHON.test(name));
}

/** Rules that judge one invocation. */
export function invocationRules(inv: Invocation, where: PathContext): Finding[] {
  const findings: Finding[] = [];
  addInvocationFindings(findings, inv, where);
  return findings;
}

/** Output redirected onto a disk: `cat /dev/zero > /dev/sda`. */
export function redirectRule(redirects: readonly string[]): Finding | undefined {
  for (let i = 0; i < redirects.length; i++) {
    if (isBlockDevice(redirects[i] as string)) return deny('block-device-write', 'output redirected onto a block device');
  }
  return undefined;
}

/** Whether an interpreter invocation reads its program from stdin (no `-c`, no script file). */
export function readsScriptFromStdin(inv: Invocation): boolean {
  if (!isInterpreter(inv.name)) return false;
  const { options, operands } = splitOptions(inv.args);
  if (inv.name === 'source' || inv.name === '.') return STDIN_PATHS.has(operands[0] ?? '');
  // `deno run -`, `bun run -`; a bare `deno` reads its REPL from stdin too.
  if (inv.name === 'deno' || inv.name === 'bun') return (operands.length === 0 && inv.name === 'deno') || (operands[0] === 'run' && STDIN_PATHS.has(operands[1] ?? ''));
  // The flag that takes the program as an argument: `-c` for shells and Python, `-e` for the rest.
  const inline = SHELLS.has(inv.name) || inv.name.startsWith('python') || inv.name === 'pwsh' || inv.name === 'powershell' ? 'c' : 'e';
  if (hasShortFlag(options, inline)) return false;
  return operands.length === 0 || options.includes('-s') || STDIN_PATHS.has(operands[0] as string);
}

/** The script text a shell invocation runs from an argument (`bash -c '…'`, `eval …`, `su -c '…'`). */
export function scriptArgument(inv: Invocation): string | undefined {
  if (inv.name === 'eval') return inv.args.join(' ');
  if (!SHELLS.has(inv.name) && inv.name !== 'su') return undefined;
  for (let i = 0; i < inv.args.length; i++) {
    const a = inv.args[i] as string;
    if (a === '--command' || (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a) && !a.startsWith('--'))) {
      // The script is the next operand (later options such as `-e` may sit between).
      return inv.args.slice(i + 1).find((w) => !w.startsWith('-'));
    }
    if (a.startsWith('--command=')) return a.slice('--command='.length);
  }
  return undefined;
}

/**
 * Judges what flows through a pipeline into an interpreter: downloaded or
 * decoded code → deny; `echo '…' | sh` → the echoed text is returned as a
 * script for the caller to analyse. Takes the pipeline's commands already
 * normalized (`undefined` for one that runs nothing), which the caller
 * reuses for the per-command rules.
 */
export function pipelineRules(invocations: readonly (Invocation | undefined)[]): { findings: Finding[]; scripts: string[] } {
  const findings: Finding[] = [];
  const scripts: string[] = [];
  for (let index = 1; index < invocations.length; index++) {
    const inv = invocations[index];
    if (inv === undefined || !readsScriptFromStdin(inv)) continue;
    for (let s = 0; s < index; s++) {
      const source = invocations[s];
      if (source === undefined) continue;
      if (isDownloader(source)) findings.push(deny('remote-script', `pipes a download into ${inv.name}`));
      else if (isDecoder(source)) findings.push(deny('obfuscated-script', `pipes decoded data into ${inv.name}`));
      else if (source.name === 'echo' || source.name === 'printf') scripts.push(source.args.filter((a) => !ECHO_OPTIONS.test(a)).join(' '));
    }
  }
  return { findings, scripts };
}

function isDecoder(inv: Invocation): boolean {
  if (inv.name === 'base64' || inv.name === 'base32' || inv.name === 'basenc') {
    return inv.args.some((a) => a === '--decode' || /^-[a-zA-Z]*[dD]/.test(a));
  }
  if (inv.name === 'xxd') return inv.args.some((a) => /^-[a-z]*r/.test(a));
  if (inv.name === 'openssl') return inv.args.includes('-d') || inv.args.includes('base64');
  return inv.name === 'uudecode' || inv.name === 'rev';
}

/** A finding for a rule outside the built-in table (config, nesting, bad input). */
export function findingFor(rule: RuleId, action: 'deny' | 'ask', why: string): Finding {
  return action === 'deny' ? deny(rule, why) : ask(rule, why);
}
