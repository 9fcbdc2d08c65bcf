/**
 * guard-bash's pure policy: judges one bash command line. No PDK globals, so
 * it runs unchanged in Node (unit tests) and in the compiled hook.
 *
 * The command is lexed (quotes, escapes, `;`/`&&`/`||`/`|`/newlines,
 * `$(…)`/backticks, heredocs), each program invocation is normalized
 * (`sudo`, `env`, `VAR=value`, `command`, `exec`, `nice`, `time`, … stripped)
 * and judged by the rules; scripts run through `bash -c`, `eval`, heredocs,
 * here-strings and `echo … | sh` are analysed recursively.
 */
import { normalizeCommand, plainProgram, PREFIX_WORDS, type Invocation } from './normalize.ts';
import { forkBomb } from './fork-bomb.ts';
import {
  addInvocationFindings,
  findingFor,
  isInterpreter,
  JUDGED_PROGRAMS,
  judgesProgram,
  pipelineRules,
  readsScriptFromStdin,
  redirectRule,
  scriptArgument,
  type Finding,
  type RuleId,
} from './rules.ts';
import { changeDirectory } from './paths.ts';
import { parseShell, type Pipeline, type SimpleCommand } from './shell.ts';

export type { RuleId } from './rules.ts';

/** What guard-bash decides about one command. */
export type Verdict =
  | { readonly action: 'allow' }
  | { readonly action: 'ask'; readonly rule: RuleId; readonly reason: string }
  | { readonly action: 'deny'; readonly rule: RuleId; readonly reason: string };

/** What `checkCommand` judges against besides the command itself. */
export interface GuardOptions {
  /** The session cwd: the workspace root that `.`, `*` and relative paths resolve against. */
  readonly cwd: string;
  /** Operator deny patterns (already compiled, see {@link parseDenyPatterns}). */
  readonly denyPatterns?: readonly RegExp[];
}

/** Deeper nesting than this (`bash -c "eval \"$(…)\""`…) is denied rather than guessed at. */
export const MAX_NESTING = 8;

interface Walk {
  readonly options: GuardOptions;
  readonly findings: Finding[];
}

function matchesCustom(walk: Walk, text: string): void {
  const patterns = walk.options.denyPatterns ?? [];
  if (patterns.length === 0) return;
  patterns.forEach((pattern, index) => {
    pattern.lastIndex = 0;
    if (pattern.test(text)) {
      walk.findings.push(findingFor('custom-pattern', 'deny', `matches operator deny pattern #${index + 1}`));
    }
  });
}

/**
 * What a script has set up so far: its directory after `cd`, and plain
 * variable assignments; with the session's workspace root it is the
 * `PathContext` the rules resolve paths in.
 */
interface Scope {
  cwd: string;
  readonly workspace: string;
  readonly vars: Map<string, string>;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;
const WHITESPACE_RUN = /\s+/g;
const VARIABLE = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/;

// `A=rm; $A -rf /`: a command word that is exactly a variable set earlier in
// the same script is replaced by its value (split like an unquoted expansion).
function expandKnownVariables(words: string[], vars: ReadonlyMap<string, string>): string[] {
  // Nothing assigned yet (the usual case): every word stays as it is.
  if (vars.size === 0) return words;
  const out: string[] = [];
  for (const word of words) {
    const m = VARIABLE.exec(word);
    const value = m ? vars.get((m[1] ?? m[2]) as string) : undefined;
    if (value === undefined) out.push(word);
    else out.push(...value.split(/\s+/).filter((w) => w !== ''));
  }
  return out;
}

/**
 * First words a command is normalized and judged for: what `normalizeCommand`
 * strips, the programs a rule is about, and `cd`/`pushd` (which move the
 * directory paths resolve against). Any other bare name (no `=`, `/`, `{`,
 * not `mk…`) is the program itself, and one no rule is about.
 */
const LOOK_CLOSER: ReadonlySet<string> = new Set([...PREFIX_WORDS, ...JUDGED_PROGRAMS, 'cd', 'pushd']);

/**
 * Whether the pipeline rules can find anything: some command after the first
 * may be an interpreter reading its stdin. No when each of them plainly names
 * a program that is not one.
 */
function mayRunPipedScript(pipeline: Pipeline): boolean {
  for (let c = 1; c < pipeline.length; c++) {
    const program = plainProgram((pipeline[c] as SimpleCommand).words);
    if (program === undefined || isInterpreter(program)) return true;
  }
  return false;
}

/** A nested script starts where its parent is, with a copy of its variables. */
function childScope(scope: Scope): Scope {
  return { cwd: scope.cwd, workspace: scope.workspace, vars: new Map(scope.vars) };
}

function analyse(walk: Walk, script: string, depth: number, scope: Scope): void {
  if (depth > MAX_NESTING) {
    walk.findings.push(findingFor('too-complex', 'deny', 'command nests scripts too deeply to check'));
    return;
  }
  const bomb = forkBomb(script);
  if (bomb !== undefined) walk.findings.push(bomb);
  if (walk.options.denyPatterns?.length) matchesCustom(walk, script.replace(WHITESPACE_RUN, ' ').trim());

  const parsed = parseShell(script);
  const findings = walk.findings;
  const hasPatterns = walk.options.denyPatterns !== undefined && walk.options.denyPatterns.length > 0;
  // Index loops and no spreads or closures below: in the hook's interpreter every
  // call, closure and iterator step costs, and this loop runs once per simple command.
  const pipelines = parsed.pipelines;
  for (let p = 0; p < pipelines.length; p++) {
    const pipeline = pipelines[p] as Pipeline;
    // A pipeline's commands as written, normalized once: for the pipeline rules,
    // and again below for every command whose words no variable changed.
    let asWritten: (Invocation | undefined)[] | undefined;
    if (pipeline.length > 1 && mayRunPipedScript(pipeline)) {
      asWritten = [];
      for (let c = 0; c < pipeline.length; c++) asWritten.push(normalizeCommand(pipeline[c] as SimpleCommand));
      const piped = pipelineRules(asWritten);
      for (let i = 0; i < piped.findings.length; i++) findings.push(piped.findings[i] as Finding);
      for (let i = 0; i < piped.scripts.length; i++) analyse(walk, piped.scripts[i] as string, depth + 1, childScope(scope));
    }
    for (let c = 0; c < pipeline.length; c++) {
      const raw = pipeline[c] as SimpleCommand;
      const words = scope.vars.size === 0 ? raw.words : expandKnownVariables(raw.words, scope.vars);
      const command = words === raw.words ? raw : { words, redirects: raw.redirects, stdinTexts: raw.stdinTexts };
      if (command.redirects.length > 0) {
        const redirect = redirectRule(command.redirects);
        if (redirect !== undefined) findings.push(redirect);
      }
      // A program no rule is about (most of them): nothing below can find anything.
      // First the common case in one set lookup (a bare name), then any other plain one.
      if (!hasPatterns) {
        const first = words[0];
        if (first !== undefined && !LOOK_CLOSER.has(first) && first.indexOf('=') < 0 && first.indexOf('/') < 0 && first.charCodeAt(0) !== 123 && !first.startsWith('mk')) {
          continue;
        }
        const program = plainProgram(words);
        if (program !== undefined && program !== 'cd' && program !== 'pushd' && !judgesProgram(program)) continue;
      }
      const inv = asWritten !== undefined && command === raw ? asWritten[c] : normalizeCommand(command);
      if (inv === undefined) {
        for (let w = 0; w < words.length; w++) {
          const m = ASSIGNMENT.exec(words[w] as string);
          if (m) scope.vars.set(m[1] as string, m[2] as string);
        }
        continue;
      }
      if ((inv.name === 'cd' || inv.name === 'pushd') && pipeline.length === 1) {
        let target: string | undefined;
        for (let a = 0; a < inv.args.length && target === undefined; a++) if (!(inv.args[a] as string).startsWith('-')) target = inv.args[a];
        scope.cwd = changeDirectory(target, scope.cwd);
      }
      if (hasPatterns) matchesCustom(walk, inv.args.length === 0 ? inv.name : `${inv.name} ${inv.args.join(' ')}`);
      addInvocationFindings(findings, inv, scope);
      const nested = scriptArgument(inv);
      if (nested !== undefined) analyse(walk, nested, depth + 1, childScope(scope));
      // A heredoc or here-string fed to a shell is a script it runs.
      if (inv.stdinTexts.length > 0 && readsScriptFromStdin(inv)) {
        for (let i = 0; i < inv.stdinTexts.length; i++) analyse(walk, inv.stdinTexts[i] as string, depth + 1, childScope(scope));
      }
    }
  }
  const substitutions = parsed.substitutions;
  for (let i = 0; i < substitutions.length; i++) analyse(walk, substitutions[i] as string, depth + 1, childScope(scope));
}

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
  const walk: Walk = { options, findings: [] };
  analyse(walk, command, 0, { cwd: options.cwd, workspace: options.cwd, vars: new Map() });
  let chosen: Finding | undefined;
  for (let i = 0; i < walk.findings.length; i++) {
    const finding = walk.findings[i] as Finding;
    if (finding.action === 'deny') {
      chosen = finding;
      break;
    }
    chosen ??= finding; // the first ask, unless a deny comes later
  }
  return chosen === undefined ? { action: 'allow' } : { action: chosen.action, rule: chosen.rule, reason: chosen.reason };
}

/**
 * Judges a pre-tool call's arguments: a missing or non-string `command`
 * cannot be checked, so it is denied.
 */
export function checkBashArguments(args: Readonly<Record<string, unknown>>, options: GuardOptions): Verdict {
  const command = args.command;
  if (typeof command !== 'string') {
    const f = findingFor('invalid-arguments', 'deny', 'bash call without a string "command" argument');
    return { action: 'deny', rule: f.rule, reason: f.reason };
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
