/**
 * git-guards' pure policy: force pushes, `--no-verify`, pushes to protected
 * branches and history rewrites, in every `git` a shell command runs
 * (normalised as guard-bash normalises it: `sudo`, `env`, `bash -c`, `$(…)`,
 * heredocs; git's own `-C dir` / `-c key=value` skipped). Reasons start
 * `git-guards: <rule>:`.
 */
import { gitSubcommand, readPush } from '../shared/git-push.ts';
import { SHELL_TOOLS, shellCommand, walkShell, type Invocation } from '../shared/shell-walk.ts';

export const RULES = ['force-push', 'no-verify', 'protected-branch', 'history-rewrite', 'unreadable', 'config-error'] as const;
export type Rule = (typeof RULES)[number];
type Action = 'deny' | 'ask' | 'allow';

/** The config as the host validated it (defaults filled in): `host/catalog/git-guards.ts`. */
export interface GitGuardsConfig {
  readonly protectedBranches: readonly string[];
  readonly forcePush: Action;
  readonly noVerify: Action;
  readonly protectedBranch: Action;
  readonly historyRewrite: Action;
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny' | 'ask'; readonly rule: Rule; readonly reason: string };

export function parseConfig(raw: string | undefined): GitGuardsConfig | { error: string } {
  try {
    const parsed = JSON.parse(raw ?? '') as GitGuardsConfig;
    if (!Array.isArray(parsed.protectedBranches)) return { error: 'protectedBranches: expected an array' };
    for (const key of ['forcePush', 'noVerify', 'protectedBranch', 'historyRewrite'] as const) {
      if (!['deny', 'ask', 'allow'].includes(parsed[key])) return { error: `${key}: expected deny, ask or allow` };
    }
    return parsed;
  } catch {
    return { error: 'the policy config is not JSON' };
  }
}

interface Finding {
  readonly rule: Rule;
  readonly why: string;
}

const hasShort = (args: readonly string[], letter: string) => args.some((a) => /^-[a-zA-Z]+$/.test(a) && a.includes(letter));

function findings(inv: Invocation, config: GitGuardsConfig): Finding[] {
  const sub = gitSubcommand(inv);
  if (sub === undefined) return [];
  const { name, args } = sub;
  const out: Finding[] = [];
  const operands = args.filter((a) => !a.startsWith('-'));
  if (args.includes('--no-verify') || (name === 'commit' && hasShort(args, 'n'))) out.push({ rule: 'no-verify', why: `git ${name} --no-verify skips the repository's hooks` });
  // The push as the shared reader reads it (the guard-bash example's force-push rule reads the same).
  const push = readPush(inv);
  if (push !== undefined) {
    if (push.force || push.forceIfIncludes || push.refspecs.some((r) => r.plus)) out.push({ rule: 'force-push', why: 'git push --force rewrites the remote branch' });
    if (push.mirror || push.all || push.deleting) out.push({ rule: 'history-rewrite', why: `git push ${args.find((a) => a.startsWith('-')) ?? ''} changes or deletes remote branches wholesale`.trim() });
    for (const refspec of push.refspecs) {
      if (config.protectedBranches.includes(refspec.dst)) out.push({ rule: 'protected-branch', why: `git push to the protected branch ${JSON.stringify(refspec.dst)}` });
    }
  }
  if (name === 'filter-branch' || name === 'filter-repo' || (name === 'reflog' && operands[0] === 'expire')) out.push({ rule: 'history-rewrite', why: `git ${name} rewrites history` });
  if (name === 'rebase' || (name === 'commit' && args.includes('--amend')) || (name === 'reset' && args.includes('--hard'))) {
    out.push({ rule: 'history-rewrite', why: `git ${name}${name === 'commit' ? ' --amend' : name === 'reset' ? ' --hard' : ''} rewrites local history` });
  }
  if ((name === 'branch' && (args.includes('-D') || args.includes('-f') || args.includes('--force'))) || (name === 'checkout' && args.includes('-B'))) {
    for (const branch of operands) if (config.protectedBranches.includes(branch)) out.push({ rule: 'protected-branch', why: `git ${name} ${args.join(' ')} forces or deletes the protected branch ${JSON.stringify(branch)}` });
  }
  return out;
}

const ACTION_OF: Record<Exclude<Rule, 'unreadable' | 'config-error'>, keyof GitGuardsConfig> = {
  'force-push': 'forcePush',
  'no-verify': 'noVerify',
  'protected-branch': 'protectedBranch',
  'history-rewrite': 'historyRewrite',
};

/** Judges one pre-tool call; the most restrictive finding wins (deny over ask), the first among equals. */
export function judgeCall(toolName: string, args: Record<string, unknown>, config: GitGuardsConfig): Verdict {
  if (!SHELL_TOOLS.has(toolName)) return { action: 'allow' };
  const command = shellCommand(args);
  if (command === undefined) return { action: 'allow' };
  let worst: { action: 'deny' | 'ask'; finding: Finding } | undefined;
  const unreadable = walkShell(command, (_command, inv) => {
    if (inv === undefined) return;
    for (const finding of findings(inv, config)) {
      const action = config[ACTION_OF[finding.rule as keyof typeof ACTION_OF]] as Action;
      if (action === 'allow') continue;
      if (worst === undefined || (action === 'deny' && worst.action === 'ask')) worst = { action, finding };
    }
  });
  if (worst !== undefined) return { action: worst.action, rule: worst.finding.rule, reason: `git-guards: ${worst.finding.rule}: ${worst.finding.why}` };
  if (unreadable) return { action: 'deny', rule: 'unreadable', reason: `git-guards: unreadable: ${toolName}: the command nests scripts too deeply to check` };
  return { action: 'allow' };
}
