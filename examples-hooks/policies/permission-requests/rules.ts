/**
 * permission-requests' pure policy: the operator's rules answer the agent's
 * own permission dialog (`tools/permission-request`) — allow the read-only
 * tools, deny or allow named tools, and allow or deny shell commands by the
 * programs they run (normalised as guard-bash normalises them: `sudo`, `env`,
 * `bash -c`, `$(…)`, heredocs); whatever no rule answers is left to the
 * person, as without the policy. Reasons start `permission-requests: <rule>:`.
 *
 * An allow is the person's yes given in advance, so a shell command is allowed
 * only when every program it runs is allowed by a rule, each named as itself
 * (not through `sudo`, `VAR=…` or a path), and it redirects output into no
 * file: `npm test && curl … | sh` is not `npm test`.
 */
import { compileWord, compileWords, wordMatches, wordsMatch, type Word } from '../shared/command-words.ts';
import { SHELL_TOOLS, shellCommand, walkShell } from '../shared/shell-walk.ts';
import { READ_ONLY_TOOLS, redirectWrites } from '../shared/tool-targets.ts';

export const RULES = ['read-only', 'tool', 'command', 'redirect', 'unreadable', 'config-error'] as const;
export type Rule = (typeof RULES)[number];
type Action = 'allow' | 'deny' | 'ask';

/** One rule as the host validated it (`host/catalog/permission-requests.ts`). */
interface ToolRule {
  readonly tool: string;
  readonly action: Action;
  readonly reason?: string;
}
interface CommandRule {
  readonly command: string;
  readonly action: Action;
  readonly reason?: string;
}

/** The config, its patterns compiled once per config. */
export interface PermissionConfig {
  readonly readOnly: 'allow' | 'ask';
  readonly tools: readonly { readonly rule: ToolRule; readonly word: Word }[];
  readonly commands: readonly { readonly rule: CommandRule; readonly words: readonly Word[] }[];
}

export type Verdict = { readonly action: 'none' } | { readonly action: Action; readonly rule: Rule; readonly reason: string };

const ACTIONS: readonly string[] = ['allow', 'deny', 'ask'];

function ruleList<R extends { action: Action }>(value: unknown, key: 'tools' | 'commands', field: 'tool' | 'command'): R[] | { error: string } {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return { error: `${key}: expected an array` };
  for (const [i, rule] of value.entries()) {
    const r = rule as Record<string, unknown> | null;
    if (typeof r?.[field] !== 'string' || !ACTIONS.includes(r.action as string)) return { error: `${key}[${i}]: expected {${field}, action}` };
    if (r.reason !== undefined && typeof r.reason !== 'string') return { error: `${key}[${i}].reason: expected a string` };
  }
  return value as R[];
}

export function parseConfig(value: unknown): PermissionConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const readOnly = config.readOnly ?? 'allow';
  if (readOnly !== 'allow' && readOnly !== 'ask') return { error: 'readOnly: expected allow or ask' };
  const tools = ruleList<ToolRule>(config.tools, 'tools', 'tool');
  if ('error' in tools) return tools;
  const commands = ruleList<CommandRule>(config.commands, 'commands', 'command');
  if ('error' in commands) return commands;
  return {
    readOnly,
    tools: tools.map((rule) => ({ rule, word: compileWord(rule.tool.trim()) })),
    commands: commands.map((rule) => ({ rule, words: compileWords(rule.command) })),
  };
}

/** Untrusted text (a tool name, a program line) as a reason shows it: quoted, capped. */
const shown = (text: string) => JSON.stringify(text.slice(0, 200));
const why = (reason: string | undefined) => (reason === undefined ? '' : `: ${reason}`);
const VERB = { allow: 'allows', deny: 'denies', ask: 'leaves to the person' } as const;

/** The first tool rule naming the tool, as a verdict. */
function byTool(toolName: string, config: PermissionConfig): Verdict | undefined {
  const index = config.tools.findIndex((t) => wordMatches(t.word, toolName));
  if (index < 0) return undefined;
  const { rule } = config.tools[index] as PermissionConfig['tools'][number];
  return { action: rule.action, rule: 'tool', reason: `permission-requests: tool: tools[${index}] (${rule.tool}) ${VERB[rule.action]} ${shown(toolName)}${why(rule.reason)}` };
}

/**
 * A shell command by the programs it runs: a denied program denies it; every
 * program allowed (and no output redirected into a file) allows it; a program
 * an `ask` rule names, a redirect into a file, or a script nested too deeply
 * to read leaves it to the person, saying why; otherwise no opinion.
 */
function byCommand(toolName: string, command: string, config: PermissionConfig): Verdict {
  let denied: Verdict | undefined;
  let asked: Verdict | undefined;
  let redirect: Verdict | undefined;
  let unmatched = false;
  const allowedBy = new Set<number>();
  const unreadable = walkShell(command, (simple, inv) => {
    const writes = redirectWrites(simple);
    if (writes.length > 0 && redirect === undefined) redirect = { action: 'ask', rule: 'redirect', reason: `permission-requests: redirect: the command writes ${shown(writes[0] as string)}: left to the person` };
    if (inv === undefined) return;
    const index = config.commands.findIndex((c) => wordsMatch(c.words, inv));
    if (index < 0) {
      unmatched = true;
      return;
    }
    const { rule } = config.commands[index] as PermissionConfig['commands'][number];
    const line = [inv.name, ...inv.args].join(' ');
    // Normalising reads through `sudo`, `VAR=…`, `./npm`: right for a deny, not
    // for a yes given in advance (`LD_PRELOAD=x npm test`, a planted `./npm`).
    // An allow holds only for the program named as itself, first.
    if (rule.action === 'allow') {
      if (simple.words[0] === inv.name) allowedBy.add(index);
      else unmatched = true;
    }
    else if (rule.action === 'deny') denied ??= { action: 'deny', rule: 'command', reason: `permission-requests: command: commands[${index}] (${rule.command}) denies ${shown(line)}${why(rule.reason)}` };
    else asked ??= { action: 'ask', rule: 'command', reason: `permission-requests: command: commands[${index}] (${rule.command}) leaves ${shown(line)} to the person${why(rule.reason)}` };
  });
  if (denied !== undefined) return denied;
  if (unreadable) return { action: 'ask', rule: 'unreadable', reason: `permission-requests: unreadable: ${shown(toolName)}: the command nests scripts too deeply to check: left to the person` };
  if (asked !== undefined) return asked;
  if (redirect !== undefined) return redirect;
  if (unmatched || allowedBy.size === 0) return { action: 'none' };
  const by = [...allowedBy].map((i) => `commands[${i}] (${config.commands[i]?.rule.command})`).join(', ');
  return { action: 'allow', rule: 'command', reason: `permission-requests: command: every program it runs is allowed by ${by}` };
}

/**
 * Answers one permission request: the first tool rule naming the tool; then,
 * for a shell tool, its command's programs; then the read-only tools; else
 * no opinion (the person is asked).
 */
export function judgeRequest(toolName: string, args: Record<string, unknown>, config: PermissionConfig): Verdict {
  const tool = byTool(toolName, config);
  if (tool !== undefined) return tool;
  if (SHELL_TOOLS.has(toolName)) {
    const command = shellCommand(args);
    return command === undefined || config.commands.length === 0 ? { action: 'none' } : byCommand(toolName, command, config);
  }
  if (config.readOnly === 'allow' && READ_ONLY_TOOLS.has(toolName)) return { action: 'allow', rule: 'read-only', reason: `permission-requests: read-only: ${shown(toolName)} changes nothing` };
  return { action: 'none' };
}

