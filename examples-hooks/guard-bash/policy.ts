/**
 * guard-bash's pure policy: judges one bash command line with the fixed
 * command rules in the catalog's shared code
 * (`policies/shared/command-guard/`, one implementation, which the
 * `destructive-commands` policy judges with too), adding the operator's
 * `denyPatterns` and the `guard-bash: <rule>:` reasons. No PDK globals, so it
 * runs unchanged in Node (unit tests) and in the compiled hook.
 */
import { commandFindings, decidingFinding, type GuardOptions, type RuleId } from '../policies/shared/command-guard/check.ts';

export type { GuardOptions, RuleId } from '../policies/shared/command-guard/check.ts';
export { MAX_NESTING } from '../policies/shared/command-guard/check.ts';

/** What guard-bash decides about one command. */
export type Verdict =
  | { readonly action: 'allow' }
  | { readonly action: 'ask'; readonly rule: RuleId; readonly reason: string }
  | { readonly action: 'deny'; readonly rule: RuleId; readonly reason: string };

/**
 * Judges one bash command line: `deny` for destructive commands, `ask` for
 * `git push`, `allow` otherwise. The most restrictive finding wins (deny
 * over ask); among equals, the first found.
 *
 * @example
 * ```ts
 * checkCommand('sudo rm -rf /', { cwd: '/work/app' });
 * // → { action: 'deny', rule: 'recursive-delete', reason: 'guard-bash: recursive-delete: recursive delete of the filesystem root' }
 * checkCommand('git push origin feature', { cwd: '/work/app' }).action; // 'ask'
 * checkCommand('ls -la', { cwd: '/work/app' }).action;                  // 'allow'
 * ```
 */
export function checkCommand(command: string, options: GuardOptions): Verdict {
  const chosen = decidingFinding(commandFindings(command, options));
  return chosen === undefined ? { action: 'allow' } : { action: chosen.action, rule: chosen.rule, reason: `guard-bash: ${chosen.rule}: ${chosen.why}` };
}

/**
 * Judges a pre-tool call's arguments: a missing or non-string `command`
 * cannot be checked, so it is denied.
 */
export function checkBashArguments(args: Readonly<Record<string, unknown>>, options: GuardOptions): Verdict {
  const command = args.command;
  if (typeof command !== 'string') {
    return { action: 'deny', rule: 'invalid-arguments', reason: 'guard-bash: invalid-arguments: bash call without a string "command" argument' };
  }
  return checkCommand(command, options);
}

/**
 * Parses the `denyPatterns` config value: a JSON array of regular-expression
 * strings, or one pattern per line (blank lines and `#` comments skipped).
 * A pattern written `/body/flags` keeps its flags. Returns an error message
 * (naming the entry, not echoing it) when any pattern is invalid.
 *
 * @example
 * ```ts
 * parseDenyPatterns('["\\\\bterraform\\\\s+destroy\\\\b", "/DROP\\\\s+TABLE/i"]');
 * // → { patterns: [/\bterraform\s+destroy\b/, /DROP\s+TABLE/i] }
 * parseDenyPatterns('kubectl delete ns\n# comment\n'); // → { patterns: [/kubectl delete ns/] }
 * ```
 */
export function parseDenyPatterns(raw: string | undefined): { patterns: RegExp[] } | { error: string } {
  if (raw === undefined || raw.trim() === '') return { patterns: [] };
  let sources: unknown[];
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (!Array.isArray(parsed)) return { error: 'denyPatterns is not a JSON array' };
      sources = parsed;
    } catch {
      return { error: 'denyPatterns is not valid JSON' };
    }
  } else {
    sources = raw.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  }
  const patterns: RegExp[] = [];
  for (let i = 0; i < sources.length; i++) {
    const source = sources[i];
    if (typeof source !== 'string' || source === '') return { error: `denyPatterns entry #${i + 1} is not a non-empty string` };
    const literal = /^\/(.+)\/([imsu]*)$/.exec(source);
    try {
      patterns.push(literal ? new RegExp(literal[1] as string, literal[2]) : new RegExp(source));
    } catch {
      return { error: `denyPatterns entry #${i + 1} is not a valid regular expression` };
    }
  }
  return { patterns };
}
