/**
 * Every program a shell command runs, normalised by guard-bash's parser and
 * normaliser (one implementation): pipelines, `;`/`&&`/`||`, `sudo`/`env`/
 * `VAR=…` prefixes stripped, and the scripts run by `bash -c`, `eval`, `$(…)`,
 * backticks and heredocs fed to a shell. No PDK globals.
 */
import { normalizeCommand, type Invocation } from '../../guard-bash/normalize.ts';
import { readsScriptFromStdin, scriptArgument } from './command-guard/rules.ts';
import { parseShell, type SimpleCommand } from '../../guard-bash/shell.ts';

export type { Invocation } from '../../guard-bash/normalize.ts';

/** Tools that run a shell command (hookbox's `bash` and the names agents use for theirs). */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'Bash', 'exec_command', 'shell', 'local_shell', 'container.exec', 'run_shell_command', 'Monitor']);

/** Deeper than this (`bash -c "bash -c …"`) a command is judged unreadable. */
export const MAX_NESTING = 8;

/** The shell command of a shell tool call: a string, or an argv array (Codex's `shell`). */
export function shellCommand(args: Record<string, unknown>): string | undefined {
  const command = args.command ?? args.cmd;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((w) => typeof w === 'string')) return command.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  return undefined;
}

/**
 * Calls `visit` for every simple command the script runs (`inv` undefined
 * for one that runs no program, e.g. a bare assignment with a redirect),
 * with the programs before it in its pipeline (what feeds it: `curl … | sh`).
 * Returns true when some script nests deeper than {@link MAX_NESTING}.
 */
export function walkShell(script: string, visit: (command: SimpleCommand, inv: Invocation | undefined, fedBy: readonly (Invocation | undefined)[]) => void, depth = 0): boolean {
  if (depth > MAX_NESTING) return true;
  const parsed = parseShell(script);
  let unreadable = false;
  for (const pipeline of parsed.pipelines) {
    const invs = pipeline.map(normalizeCommand);
    for (const [index, command] of pipeline.entries()) {
      const inv = invs[index];
      visit(command, inv, invs.slice(0, index));
      if (inv === undefined) continue;
      const nested = scriptArgument(inv);
      if (nested !== undefined) unreadable = walkShell(nested, visit, depth + 1) || unreadable;
      if (inv.stdinTexts.length > 0 && readsScriptFromStdin(inv)) for (const text of inv.stdinTexts) unreadable = walkShell(text, visit, depth + 1) || unreadable;
    }
  }
  for (const substitution of parsed.substitutions) unreadable = walkShell(substitution, visit, depth + 1) || unreadable;
  return unreadable;
}
