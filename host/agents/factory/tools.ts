import type { ToolResult } from '../../seams/index.ts';
import { type OurToolCall, relativeInside } from '../tool-names.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

/**
 * Every tool Factory Droid 0.225.2 offers its model in `droid exec` (read
 * from the request the mock received, with each tool's input schema), and
 * how it reaches hookbox's hooks. Edits are writes of the text they write.
 */
export const FACTORY_TOOLS = [
  { tool: 'Execute', as: 'bash', how: '`{command, summary}` → `{command}` (`summary` dropped)' },
  { tool: 'Read', as: 'read_file', how: '`{file_path}` → `{path}` (`offset`, `limit` dropped)' },
  { tool: 'Create', as: 'write_file', how: '`{file_path, content}` → `{path, content}`' },
  { tool: 'Edit', as: 'write_file', how: '`{file_path, new_str}` → `{path, content: new_str}` (the text written, not the resulting file)' },
  { tool: 'LS', as: 'list_dir', how: '`{directory_path}` → `{path}` (the session folder when absent)' },
  { tool: 'Grep', as: 'Grep', how: 'passed: searches file contents — a read guard must name `Grep` too' },
  { tool: 'Glob', as: 'Glob', how: 'passed: lists file names by pattern, reads no content' },
  { tool: 'Task', as: 'Task', how: 'passed: starts a subagent, whose own tool calls reach hooks one by one' },
  { tool: 'TaskOutput', as: 'TaskOutput', how: 'passed: reads a background task\'s output' },
  { tool: 'TaskStop', as: 'TaskStop', how: 'passed: stops a background task' },
  { tool: 'ToolSearch', as: 'ToolSearch', how: 'passed: loads deferred tool schemas' },
  { tool: 'Skill', as: 'Skill', how: 'passed: loads a skill\'s instructions' },
  { tool: 'ConnectorSearch', as: 'ConnectorSearch', how: 'passed: finds tools of connected apps (their calls reach hooks under their own names)' },
  { tool: 'GenerateImage', as: 'GenerateImage', how: 'passed: generates an image (no file or process of the project)' },
] as const satisfies readonly AgentToolRow[];

/** A tool of Factory Droid's table, by name (the rewrite table is keyed by them). */
export type FactoryTool = (typeof FACTORY_TOOLS)[number]['tool'];

const str = (input: Readonly<Record<string, unknown>>, key: string): string | undefined => (typeof input[key] === 'string' ? (input[key] as string) : undefined);

/**
 * One Factory Droid tool call → the hookbox call hooks decide on: the table
 * above; a mapped tool of an unexpected shape, or a tool the table lacks,
 * keeps its name and arguments, flagged `_hookbox.unmappedTool`.
 */
export function fromFactoryTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const file = str(input, 'file_path');
  const mapped = ((): OurToolCall | undefined => {
    if (toolName === 'Execute') {
      const command = str(input, 'command');
      return command === undefined ? undefined : { toolName: 'bash', arguments: { command } };
    }
    if (toolName === 'LS') {
      const dir = input.directory_path === undefined ? cwd : str(input, 'directory_path');
      return dir === undefined ? undefined : { toolName: 'list_dir', arguments: { path: relativeInside(cwd, dir) } };
    }
    if (file === undefined) return undefined;
    if (toolName === 'Read') return { toolName: 'read_file', arguments: { path: relativeInside(cwd, file) } };
    const content = toolName === 'Create' ? str(input, 'content') : toolName === 'Edit' ? str(input, 'new_str') : undefined;
    return content === undefined ? undefined : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
  })();
  if (mapped !== undefined) return mapped;
  const row = FACTORY_TOOLS.find((candidate) => candidate.tool === toolName);
  return passedCall(row !== undefined && row.as === row.tool ? FACTORY_TOOLS : [], toolName, input);
}

/** Execute's result trailer: `[Process exited with code N]` on the last line. */
const EXIT_TRAILER = /\n*\[Process exited with code (-?\d+)\]\s*$/;

/**
 * Factory's `tool_response` (the text the model is shown) → hookbox's result;
 * Execute's trailer becomes hookbox's own `exit code: N` line (test-gate
 * reads it). Anything but a string as JSON.
 */
export function fromFactoryToolResponse(toolName: string, response: unknown): ToolResult {
  if (typeof response !== 'string') return { content: JSON.stringify(response) ?? '', isError: false };
  const trailer = toolName === 'Execute' ? EXIT_TRAILER.exec(response) : null;
  return { content: trailer === null ? response : `${response.slice(0, trailer.index)}\nexit code: ${trailer[1]!}`, isError: false };
}
