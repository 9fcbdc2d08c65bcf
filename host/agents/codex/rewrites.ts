import { PASSED, type RewriteCase, type RewriteWay, type RewriteWays, denyWay, rewriteBack, shellWay } from '../tool-rewrite.ts';
import { type CodexTool, fromCodexTool, quoteWord } from './tools.ts';

/**
 * hookbox's command line of an argv call back into argv: the exact inverse of
 * `quoteWord` joined by spaces (bare words and single-quoted ones with
 * `'\''`); anything else has no exact argv, so it is undefined.
 */
export function argvOf(command: string): string[] | undefined {
  const words: string[] = [];
  const word = /([A-Za-z0-9_@%+=:,./-]+|'(?:[^']|'\\'')*')(?: |$)/y;
  while (word.lastIndex < command.length) {
    const start = word.lastIndex;
    const match = word.exec(command);
    if (match === null || match.index !== start) return undefined;
    const text = match[1]!;
    words.push(text.startsWith("'") ? text.slice(1, -1).replaceAll(`'\\''`, "'") : text);
  }
  if (words.length === 0 || words.map(quoteWord).join(' ') !== command) return undefined;
  return words;
}

/** A shell tool that takes argv or a string (`shell`, `local_shell`): the rewrite in the original's form. */
const argvShell: RewriteWay = {
  kind: 'map',
  back({ call, after }) {
    if (Object.keys(after).some((key) => key !== 'command')) return 'the rewrite has keys other than "command", which the tool does not take';
    if (typeof after.command !== 'string') return 'the rewrite has no command string';
    if (!Array.isArray(call.input.command)) return { ...call.input, command: after.command };
    const argv = argvOf(after.command);
    return argv === undefined ? 'the call gave argv and the rewritten command line does not split into words exactly' : { ...call.input, command: argv };
  },
};

/**
 * How each Codex tool takes a pre-tool rewrite back as `updatedInput`
 * (docs/rfc-tool-input-rewrite.md, "Every agent"): the shell tools exactly,
 * in the original's form (a string, `cmd`, or argv); `apply_patch` is a
 * deny (hooks see its writes, and an envelope is no argument object);
 * `write_stdin` is text typed into a running shell, not a call to rewrite.
 */
export const CODEX_REWRITES: RewriteWays<CodexTool> = {
  Bash: shellWay('command'),
  exec_command: shellWay('cmd'),
  shell: argvShell,
  local_shell: argvShell,
  'container.exec': argvShell,
  write_stdin: denyWay('it types text into a running shell; hookbox does not rewrite keystrokes'),
  apply_patch: denyWay('hooks see a patch as the writes it makes, and a rewrite of one write has no exact patch envelope'),
  view_image: PASSED,
  update_plan: PASSED,
  request_user_input: PASSED,
  create_goal: PASSED,
  get_goal: PASSED,
  update_goal: PASSED,
  tool_search: PASSED,
  web_search: PASSED,
  list_mcp_resources: PASSED,
  list_mcp_resource_templates: PASSED,
  read_mcp_resource: PASSED,
};

/** A Codex rewrite: a shell call that also applies a patch is several calls at once, so it is a deny. */
export function codexRewriteBack(rewrite: RewriteCase): ReturnType<typeof rewriteBack> {
  if (fromCodexTool(rewrite.call.toolName, rewrite.call.input, rewrite.cwd).length > 1) {
    return { kind: 'deny', why: `${rewrite.call.toolName}: the command also applies a patch, and hooks decided it as several calls` };
  }
  return rewriteBack(CODEX_REWRITES, rewrite);
}
