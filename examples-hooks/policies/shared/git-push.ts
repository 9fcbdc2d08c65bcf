/**
 * How a normalised `git` invocation reads, one implementation for the rules
 * about it: the `git-guards` policy (force pushes, protected branches) and the
 * fixed command rules the guard-bash example judges with
 * (`command-guard/rules.ts`, its `force-push`). Each decides on what this
 * reads; none parses git's command line itself. No PDK globals.
 */
import type { Invocation } from '../../guard-bash/normalize.ts';

/** git's global options that take the next word as their value (`git -C dir push`). */
const GLOBAL_WITH_VALUE: ReadonlySet<string> = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);
/** `git push` options that take the next word as their value (`-o ci.skip`). */
const PUSH_WITH_VALUE: ReadonlySet<string> = new Set(['-o', '--push-option', '--repo', '--receive-pack', '--exec']);

/** The subcommand of a `git` invocation and its arguments, git's global options skipped; `undefined` for none. */
export function gitSubcommand(inv: Invocation): { readonly name: string; readonly args: readonly string[] } | undefined {
  if (inv.name !== 'git') return undefined;
  for (let i = 0; i < inv.args.length; i++) {
    const arg = inv.args[i] as string;
    if (GLOBAL_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) return { name: arg, args: inv.args.slice(i + 1) };
  }
  return undefined;
}

/** One refspec a push names after its remote. */
export interface PushRefspec {
  /** Written `+src:dst`: forces this one ref. */
  readonly plus: boolean;
  /** The remote branch it updates, `refs/heads/` taken off (`HEAD:main` → `main`). */
  readonly dst: string;
  /** Written `:dst`: deletes the remote branch. */
  readonly deletes: boolean;
}

/** What a `git push` asks for. */
export interface GitPush {
  /** `--force`, `-f` (also inside `-uf`), `--force-with-lease[=…]`. */
  readonly force: boolean;
  /** `--force-if-includes` (a force only together with a lease, which git-guards counts as one). */
  readonly forceIfIncludes: boolean;
  readonly mirror: boolean;
  readonly all: boolean;
  /** `--delete`, `-d`. */
  readonly deleting: boolean;
  readonly refspecs: readonly PushRefspec[];
}

const hasShortFlag = (options: readonly string[], flag: string) => options.some((o) => !o.startsWith('--') && o.slice(1).includes(flag));

/** The push a `git` invocation runs (through `git -C dir push …`), or `undefined` when it is no push. */
export function readPush(inv: Invocation): GitPush | undefined {
  // No `push` word at all (git add, git status…): not a push, whatever the options. The cheap test first.
  if (inv.name !== 'git' || inv.args.indexOf('push') < 0) return undefined;
  const sub = gitSubcommand(inv);
  if (sub?.name !== 'push') return undefined;
  const options: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < sub.args.length; i++) {
    const a = sub.args[i] as string;
    if (a === '--') {
      operands.push(...sub.args.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      options.push(a);
      if (PUSH_WITH_VALUE.has(a)) i++;
    } else operands.push(a);
  }
  const refspecs = operands.slice(1).map((spec): PushRefspec => {
    const plus = spec.startsWith('+');
    const body = plus ? spec.slice(1) : spec;
    const colon = body.indexOf(':');
    return { plus, dst: (colon < 0 ? body : body.slice(colon + 1)).replace(/^refs\/heads\//, ''), deletes: colon === 0 && body.length > 1 };
  });
  return {
    force: options.some((o) => o === '--force' || o.startsWith('--force-with-lease')) || hasShortFlag(options, 'f'),
    forceIfIncludes: options.includes('--force-if-includes'),
    mirror: options.includes('--mirror'),
    all: options.includes('--all'),
    deleting: options.includes('--delete') || hasShortFlag(options, 'd'),
    refspecs,
  };
}
