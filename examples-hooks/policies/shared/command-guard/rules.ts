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
/** Interpreters that run code piped into them (`curl … | python3`). */
const INTERPRETERS = new Set([...SHELLS, 'python', 'python3', 'perl', 'ruby', 'node', 'php']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh']);
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

/** Whether a word is a command substitution whose script runs a downloader (`$(curl …)`, `<(wget …)`). */
function fetchesRemote(word: string): boolean {
  const m = /^\$\(([\s\S]*)\)$/.exec(word);
  if (!m) return false;
  return parseShell(m[1] ?? '').pipelines.some((p) =>
    p.some((c) => {
      const inv = normalizeCommand(c);
      return inv !== undefined && DOWNLOADERS.has(inv.name);
    }),
  );
}

/** `bash <(curl …)`, `sh -c "$(wget -O- …)"`, `eval "$(curl …)"`, `source <(curl …)`. */
function remoteScriptArgument(inv: Invocation): Finding | undefined {
  const runsText = SHELLS.has(inv.name) || inv.name === 'eval' || inv.name === 'source' || inv.name === '.';
  if (runsText && inv.args.some(fetchesRemote)) return deny('remote-script', 'runs a script downloaded from the network');
  return undefined;
}

/** Force-push or delete of main/master; `ask` for any other push. */
function gitPush(inv: Invocation): Finding | undefined {
  // No `push` word at all (git add, git status…): not a push, whatever the options.
  if (inv.name !== 'git' || inv.args.indexOf('push') < 0) return undefined;
  let args = inv.args.slice();
  // Global options before the subcommand (`git -C dir -c k=v push`).
  while (args.length > 0 && (args[0] as string).startsWith('-')) {
    const opt = args[0] as string;
    args = args.slice(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--exec-path'].includes(opt) ? 2 : 1);
  }
  if (args[0] !== 'push') return undefined;
  const rest = args.slice(1);
  const options: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--') {
      operands.push(...rest.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      options.push(a);
      if (['-o', '--push-option', '--repo', '--receive-pack', '--exec'].includes(a)) i++;
    } else operands.push(a);
  }
  const force =
    options.some((o) => o === '--force' || o.startsWith('--force-with-lease') || o === '--mirror') || hasShortFlag(options, 'f');
  const deleting = options.includes('--delete') || hasShortFlag(options, 'd');
  const refspecs = operands.slice(1);
  for (const spec of refspecs) {
    const plus = spec.startsWith('+');
    const body = plus ? spec.slice(1) : spec;
    const colon = body.indexOf(':');
    const dst = (colon < 0 ? body : body.slice(colon + 1)).replace(/^refs\/heads\//, '');
    if (!PROTECTED_BRANCHES.has(dst)) continue;
    if (plus || force) return deny('force-push', `force push to ${dst}`);
    if (deleting || (colon === 0 && body.length > 1)) return deny('force-push', `deletes the remote ${dst} branch`);
  }
  if (force && (options.includes('--mirror') || options.includes('--all'))) {
    return deny('force-push', 'force push of every branch, including main/master');
  }
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
  return INTERPRETERS.has(name);
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
  if (!INTERPRETERS.has(inv.name)) return false;
  const { options, operands } = splitOptions(inv.args);
  // The flag that takes the program as an argument: `-c` for shells and Python, `-e` for the rest.
  const inline = SHELLS.has(inv.name) || inv.name.startsWith('python') ? 'c' : 'e';
  if (hasShortFlag(options, inline)) return false;
  return operands.length === 0 || options.includes('-s') || operands[0] === '-';
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
      if (DOWNLOADERS.has(source.name)) findings.push(deny('remote-script', `pipes a download into ${inv.name}`));
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
