/**
 * command-rules' pure policy: the operator's deny / ask / allow rules over
 * every program a shell command runs, normalised as guard-bash normalises it
 * (`sudo`, `env`, `VAR=…`, `bash -c`, `$(…)`, heredocs). Reasons start with
 * `command-rules: <action>: rules[<i>]` so `hookbox test` counts what decided.
 */
import { compileWords, wordsMatch, type Word } from '../shared/command-words.ts';
import { SHELL_TOOLS, shellCommand, walkShell, type Invocation } from '../shared/shell-walk.ts';

export const RULES = ['deny', 'ask', 'allow', 'unreadable', 'config-error'] as const;

/** One rule as the host validated it (`host/catalog/command-rules.ts`). */
export interface CommandRule {
  /** Words the command starts with; `*` in a word stands for any characters (`*` alone: any one word), a final `**` for any rest. */
  readonly command: string;
  readonly action: 'deny' | 'ask' | 'allow';
  readonly reason?: string;
}

interface Compiled {
  readonly index: number;
  /** Each word: itself, or a regular expression when it holds a `*`. */
  readonly words: readonly Word[];
  readonly rule: CommandRule;
}

export type Verdict = { readonly action: 'allow'; readonly rule?: number } | { readonly action: 'deny' | 'ask'; readonly reason: string };

export function compileConfig(raw: string | undefined): Compiled[] | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch {
    return { error: 'the policy config is not JSON' };
  }
  const rules = (parsed as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return { error: 'rules: expected an array' };
  const out: Compiled[] = [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as CommandRule;
    if (typeof rule?.command !== 'string' || !['deny', 'ask', 'allow'].includes(rule.action)) return { error: `rules[${i}]: expected {command, action}` };
    out.push({ index: i, words: compileWords(rule.command), rule });
  }
  return out;
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/**
 * Judges one pre-tool call: for each program the command runs, the first
 * rule that matches it; the most restrictive of those wins (deny > ask >
 * allow). No rule matching: allow (no objection).
 */
export function judgeCall(toolName: string, args: Record<string, unknown>, rules: readonly Compiled[]): Verdict {
  if (!SHELL_TOOLS.has(toolName)) return { action: 'allow' };
  const command = shellCommand(args);
  if (command === undefined) return { action: 'allow' };
  let worst: { compiled: Compiled; inv: Invocation } | undefined;
  const unreadable = walkShell(command, (_command, inv) => {
    if (inv === undefined) return;
    const first = rules.find((compiled) => wordsMatch(compiled.words, inv));
    if (first !== undefined && (worst === undefined || RANK[first.rule.action] > RANK[worst.compiled.rule.action])) worst = { compiled: first, inv };
  });
  if (unreadable && (worst === undefined || worst.compiled.rule.action !== 'deny')) {
    return { action: 'deny', reason: `command-rules: unreadable: ${toolName}: the command nests scripts too deeply to check` };
  }
  if (worst === undefined) return { action: 'allow' };
  const { compiled, inv } = worst;
  if (compiled.rule.action === 'allow') return { action: 'allow', rule: compiled.index };
  const shown = [inv.name, ...inv.args].join(' ').slice(0, 200);
  const why = compiled.rule.reason === undefined ? '' : `: ${compiled.rule.reason}`;
  return { action: compiled.rule.action, reason: `command-rules: ${compiled.rule.action}: rules[${compiled.index}] (${compiled.rule.command}) matches ${JSON.stringify(shown)}${why}` };
}
