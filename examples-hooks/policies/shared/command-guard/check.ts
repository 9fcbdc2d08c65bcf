/**
 * The fixed command rules' walk over one command line: the command is lexed
 * (quotes, escapes, `;`/`&&`/`||`/`|`/newlines, `$(…)`/backticks,
 * heredocs), each program invocation is normalized (`sudo`, `env`,
 * `VAR=value`, `command`, `exec`, `nice`, `time`, … stripped) and judged by
 * the rules (`rules.ts`); scripts run through `bash -c`, `eval`, heredocs,
 * here-strings and `echo … | sh` are analysed recursively. One
 * implementation, judged with by the guard-bash example hook and by the
 * `destructive-commands` catalog policy. No PDK globals.
 */
import { normalizeCommand, plainProgram, PREFIX_WORDS, type Invocation } from '../../../guard-bash/normalize.ts';
import { changeDirectory } from '../../../guard-bash/paths.ts';
import { parseShell, type Pipeline, type SimpleCommand } from '../../../guard-bash/shell.ts';
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
} from './rules.ts';

export type { Finding, RuleId } from './rules.ts';

/** What {@link commandFindings} judges against besides the command itself. */
export interface GuardOptions {
  /** The session cwd: the workspace root that `.`, `*` and relative paths resolve against. */
  readonly cwd: string;
  /** Operator deny patterns (compiled), each a `custom-pattern` finding when it matches. */
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
 * What the rules find in one command line, in the order found (a script before
 * the scripts it runs).
 */
export function commandFindings(command: string, options: GuardOptions): Finding[] {
  const walk: Walk = { options, findings: [] };
  analyse(walk, command, 0, { cwd: options.cwd, workspace: options.cwd, vars: new Map() });
  return walk.findings;
}

/** The finding that decides: the first deny, else the first ask; `undefined` when there is none. */
export function decidingFinding(findings: readonly Finding[]): Finding | undefined {
  let chosen: Finding | undefined;
  for (let i = 0; i < findings.length; i++) {
    const finding = findings[i] as Finding;
    if (finding.action === 'deny') return finding;
    chosen ??= finding; // the first ask, unless a deny comes later
  }
  return chosen;
}
