import type { ToolResult } from '../../seams/index.ts';
import { type OurToolCall, relativeInside } from '../tool-names.ts';
import { PASSED, type RewriteWay, editWay, fileWay, shellWay } from '../tool-rewrite.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

/**
 * Every tool OpenCode 1.18.33 offers the model with the default agent (what
 * the real binary advertised to the mock) and how each reaches hookbox's
 * hooks. A tool a plugin or MCP server adds is passed under its own name,
 * flagged `_hookbox.unmappedTool`.
 */
export const OPENCODE_TOOLS: readonly AgentToolRow[] = [
  { tool: 'bash', as: 'bash', how: '`{command}` → `{command}` (`timeout`, `workdir` dropped)' },
  { tool: 'read', as: 'read_file', how: '`{filePath}` → `{path}` (`offset`, `limit` dropped)' },
  { tool: 'write', as: 'write_file', how: '`{filePath, content}` → `{path, content}`' },
  { tool: 'edit', as: 'write_file', how: '`{filePath, newString}` → `{path, content: newString}` (the text written, not the resulting file)' },
  { tool: 'glob', as: 'glob', how: 'passed: lists file names by pattern, reads no content' },
  { tool: 'grep', as: 'grep', how: 'passed: searches file contents — a read guard must name `grep` too' },
  { tool: 'webfetch', as: 'webfetch', how: 'passed: fetches a URL (no hookbox tool does)' },
  { tool: 'todowrite', as: 'todowrite', how: "passed: the agent's own task list" },
  { tool: 'task', as: 'task', how: 'passed: starts a subagent (its own tool calls reach the plugin too)' },
  { tool: 'skill', as: 'skill', how: 'passed: loads a skill\'s instructions' },
];

/**
 * One OpenCode tool call → the hookbox call hooks decide on; a known tool of
 * an unexpected shape is passed flagged unmapped. `table` is the agent's
 * (Kilo CLI has OpenCode's tools and more): a tool it passes by name is
 * passed unflagged.
 */
export function fromOpenCodeTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string, table: readonly AgentToolRow[] = OPENCODE_TOOLS): OurToolCall {
  const str = (key: string): string | undefined => (typeof input[key] === 'string' ? (input[key] as string) : undefined);
  const file = str('filePath');
  const unmapped = (): OurToolCall => passedCall([], toolName, input);
  switch (toolName) {
    case 'bash': {
      const command = str('command');
      return command === undefined ? unmapped() : { toolName: 'bash', arguments: { command } };
    }
    case 'read':
      return file === undefined ? unmapped() : { toolName: 'read_file', arguments: { path: relativeInside(cwd, file) } };
    case 'write': {
      const content = str('content');
      return file === undefined || content === undefined ? unmapped() : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
    }
    case 'edit': {
      const content = str('newString');
      return file === undefined || content === undefined ? unmapped() : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
    }
    default:
      return passedCall(table.filter((row) => row.as === row.tool), toolName, input);
  }
}

/**
 * OpenCode's tool output (the text the model reads) → hookbox's result. A
 * shell result gets hookbox's bash ending, `exit code: N`, from the exit
 * code the plugin read in the tool's metadata; an error when it is not 0.
 */
export function fromOpenCodeToolOutput(toolName: string, output: string, exitCode: number | undefined): ToolResult {
  if (toolName !== 'bash' || exitCode === undefined) return { content: output, isError: false };
  return { content: `${output}\nexit code: ${exitCode}`, isError: exitCode !== 0 };
}

/**
 * How each OpenCode tool takes a rewrite back: the plugin replaces the keys
 * of `tool.execute.before`'s `output.args` with the input sent back, every
 * key OpenCode sent kept; `edit` only when its path changed (old/new
 * strings); a passed tool never.
 */
export const OPENCODE_REWRITES: Readonly<Record<string, RewriteWay>> = {
  ...Object.fromEntries(OPENCODE_TOOLS.map((row) => [row.tool, PASSED])),
  bash: shellWay('command'),
  read: fileWay('filePath'),
  write: fileWay('filePath', 'content'),
  edit: editWay('filePath', 'edit'),
};
