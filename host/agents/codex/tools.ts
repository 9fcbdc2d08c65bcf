import path from 'node:path';
import { type OurToolCall, fromProtocolToolName, relativeInside } from '../tool-names.ts';
import { patchFileChanges } from './patch.ts';
import { shellPatch } from './shell-patch.ts';
import { type AgentToolRow, TOOL_META_KEY, type ToolMeta, passedCall } from '../tool-table.ts';

/** Codex's patch tool: hooks see `apply_patch {command: <the patch envelope>}`. */
const PATCH_TOOL = 'apply_patch';

/**
 * Every tool Codex 0.169.0 can run (the model-facing names the census test
 * checks the binary against, and the names Codex gives its hooks), and how
 * each reaches hookbox's hooks.
 */
export const CODEX_TOOLS = [
  { tool: 'Bash', as: 'bash', how: '`{command}` → `{command}` (what Codex tells hooks for every shell call); a command that runs `apply_patch` also → its `write_file`s' },
  { tool: 'exec_command', as: 'bash', how: '`{cmd}` → `{command}`; `apply_patch <<EOF … EOF` also → its `write_file`s, from where the script\'s `cd`s lead (a `cd` only the shell can follow flags them `_hookbox.workdirUnknown`)' },
  { tool: 'shell', as: 'bash', how: '`{command: [argv]}` → `{command}` (argv quoted); `["apply_patch", patch]` and `["bash", "-lc", "apply_patch <<EOF…"]` also → its `write_file`s' },
  { tool: 'local_shell', as: 'bash', how: 'as `shell`' },
  { tool: 'container.exec', as: 'bash', how: 'as `shell`' },
  { tool: 'write_stdin', as: 'bash', how: '`{chars}` → `{command: chars}`: text typed into a running shell is a command line (an empty poll passes as `write_stdin`)' },
  { tool: 'apply_patch', as: 'write_file', how: '`{command: patch}` → one `{path, content}` per file it adds, updates, deletes or moves (parsed as Codex parses it)' },
  { tool: 'view_image', as: 'view_image', how: 'passed: attaches a local image to the conversation' },
  { tool: 'update_plan', as: 'update_plan', how: 'passed: the agent\'s own plan, no file or process' },
  { tool: 'request_user_input', as: 'request_user_input', how: 'passed: asks the person (no file or process)' },
  { tool: 'create_goal', as: 'create_goal', how: 'passed: the agent\'s own goal record' },
  { tool: 'get_goal', as: 'get_goal', how: 'passed: the agent\'s own goal record' },
  { tool: 'update_goal', as: 'update_goal', how: 'passed: the agent\'s own goal record' },
  { tool: 'tool_search', as: 'tool_search', how: 'passed: looks up deferred (MCP) tool schemas; each tool found reaches hooks as `mcp__server__tool`' },
  { tool: 'web_search', as: 'web_search', how: 'passed: a web search run by the model provider (off in the suite\'s config)' },
  { tool: 'list_mcp_resources', as: 'list_mcp_resources', how: 'passed: lists MCP resources' },
  { tool: 'list_mcp_resource_templates', as: 'list_mcp_resource_templates', how: 'passed: lists MCP resource templates' },
  { tool: 'read_mcp_resource', as: 'read_mcp_resource', how: 'passed: reads an MCP resource' },
] as const satisfies readonly AgentToolRow[];

/** A tool of Codex's table, by name (the rewrite table is keyed by them). */
export type CodexTool = (typeof CODEX_TOOLS)[number]['tool'];

/**
 * One Codex tool call → the hookbox tool call(s) hooks decide on, by the
 * table above. A shell call that Codex would apply as a patch (or that runs
 * `apply_patch` at all) is decided as `bash` **and** as the patch's writes:
 * a bash guard keeps seeing every command line, and a write guard sees each
 * file (the strictest decision answers). A patch with no file header stays
 * `apply_patch` (nothing to map). MCP tools keep their name with their server
 * in `_hookbox`; a tool the table lacks is flagged `_hookbox.unmappedTool`.
 * Paths inside the session's cwd become relative, as hookbox's tools take them.
 */
export function fromCodexTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall[] {
  if (toolName === 'write_stdin') {
    const chars = input.chars;
    return [typeof chars === 'string' && chars !== '' ? { toolName: 'bash', arguments: { command: chars } } : passedCall(CODEX_TOOLS, toolName, input)];
  }
  // Shell tools by every name Codex may use for them: the table in ../tool-names.ts.
  if (fromProtocolToolName('codex', toolName) === 'bash') {
    const shell = shellCall(input);
    if (shell === undefined) return [passedCall([], toolName, input)];
    const patch = shellPatch(shell.argv ?? [], shell.command);
    return [{ toolName: 'bash', arguments: { command: shell.command } }, ...(patch === undefined ? [] : patchWrites(patch.patch, path.resolve(cwd, patch.workdir ?? ''), cwd, patch.workdirUnknown))];
  }
  if (toolName === PATCH_TOOL) {
    const patch = [input.command, input.input, input.patch].find((value): value is string => typeof value === 'string');
    const writes = patch === undefined ? [] : patchWrites(patch, cwd, cwd);
    return writes.length === 0 ? [passedCall(CODEX_TOOLS, toolName, input)] : writes;
  }
  return [passedCall(CODEX_TOOLS, toolName, input)];
}

/**
 * One `write_file` per path the patch touches; paths resolve against `base`
 * (where the script's `cd`s lead) and show relative to `cwd`. When the script
 * moves somewhere its text does not say, each write is flagged
 * `_hookbox.workdirUnknown` and its path is read from `cwd`.
 */
function patchWrites(patch: string, base: string, cwd: string, workdirUnknown?: true): OurToolCall[] {
  const meta: ToolMeta | undefined = workdirUnknown === true ? { workdirUnknown } : undefined;
  return patchFileChanges(patch).map((change) => ({
    toolName: 'write_file',
    arguments: { path: relativeInside(cwd, path.resolve(base, change.path)), content: change.content, ...(meta !== undefined && { [TOOL_META_KEY]: meta }) },
  }));
}

/** The shell call as one command line, and its argv when Codex was given one. */
function shellCall(input: Readonly<Record<string, unknown>>): { command: string; argv?: readonly string[] } | undefined {
  const value = input.command ?? input.cmd;
  if (typeof value === 'string') return { command: value };
  // The older `shell` tool takes argv (`["bash", "-lc", "…"]`): hooks get it as one command line.
  if (Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string')) {
    const argv = value as string[];
    return { command: argv.map(quoteWord).join(' '), argv };
  }
  return undefined;
}

export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
