import type { ToolResult } from '../../seams/index.ts';
import { type OurToolCall, relativeInside } from '../tool-names.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

/**
 * Every tool Qwen Code 0.24.4 offers its model headless (`--yolo`, as read
 * from the chat request it sent the mock), and how it reaches hookbox's
 * hooks. File edits are writes of the text the edit writes, as for Claude Code.
 */
export const QWEN_TOOLS: readonly AgentToolRow[] = [
  { tool: 'run_shell_command', as: 'bash', how: '`{command}` → `{command}` (`description`, `is_background` dropped)' },
  { tool: 'read_file', as: 'read_file', how: '`{file_path}` → `{path}` (`offset`, `limit` dropped)' },
  { tool: 'write_file', as: 'write_file', how: '`{file_path, content}` → `{path, content}`' },
  { tool: 'edit', as: 'write_file', how: '`{file_path, new_string}` → `{path, content: new_string}` (the text written, not the resulting file)' },
  { tool: 'notebook_edit', as: 'notebook_edit', how: 'passed: edits a notebook cell (its arguments were not measured) — a write guard must name `notebook_edit` too' },
  { tool: 'glob', as: 'glob', how: 'passed: lists file names by pattern, reads no content' },
  { tool: 'grep_search', as: 'grep_search', how: 'passed: searches file contents — a read guard must name `grep_search` too' },
  { tool: 'agent', as: 'agent', how: 'passed: starts a subagent, whose own tool calls reach hooks one by one' },
  { tool: 'list_agents', as: 'list_agents', how: 'passed: lists agents' },
  { tool: 'skill', as: 'skill', how: 'passed: loads a skill\'s instructions' },
  { tool: 'tool_search', as: 'tool_search', how: 'passed: loads deferred tool schemas' },
  { tool: 'tool_call', as: 'tool_call', how: 'passed: calls a deferred tool, which reaches hooks under its own name' },
  { tool: 'get_goal', as: 'get_goal', how: 'passed: the session\'s goal (no file or process)' },
  { tool: 'update_goal', as: 'update_goal', how: 'passed: the session\'s goal (no file or process)' },
];

/** The tools mapped onto hookbox's (by their arguments, whatever their names). */
const MAPPED = new Set(['run_shell_command', 'read_file', 'write_file', 'edit']);

const str = (input: Readonly<Record<string, unknown>>, key: string): string | undefined => (typeof input[key] === 'string' ? (input[key] as string) : undefined);

/**
 * One Qwen Code tool call → the hookbox call hooks decide on: the table
 * above; a mapped tool of an unexpected shape, or a tool the table lacks,
 * keeps its name and arguments, flagged `_hookbox.unmappedTool`.
 */
export function fromQwenTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const file = str(input, 'file_path');
  const mapped = ((): OurToolCall | undefined => {
    if (toolName === 'run_shell_command') {
      const command = str(input, 'command');
      return command === undefined ? undefined : { toolName: 'bash', arguments: { command } };
    }
    if (file === undefined) return undefined;
    if (toolName === 'read_file') return { toolName: 'read_file', arguments: { path: relativeInside(cwd, file) } };
    const content = toolName === 'write_file' ? str(input, 'content') : toolName === 'edit' ? str(input, 'new_string') : undefined;
    return content === undefined ? undefined : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
  })();
  if (mapped !== undefined) return mapped;
  // A mapped tool here had an unexpected shape: flagged, even where hookbox's tool has the same name (read_file, write_file).
  return passedCall(MAPPED.has(toolName) ? [] : QWEN_TOOLS, toolName, input);
}

/** The shell result's `Exit Code: N` line (Qwen's `llmContent` lists it among others). */
const EXIT_LINE = /(?:^|\n)Exit Code: (-?\d+)(?:\n|$)/;

/**
 * Qwen's `tool_response` `{llmContent, returnDisplay}` → hookbox's result:
 * `llmContent`, the text the model is shown; a shell result gets hookbox's
 * own `exit code: N` line at its end (test-gate reads it). Anything else as JSON.
 */
export function fromQwenToolResponse(toolName: string, response: unknown): ToolResult {
  if (typeof response === 'string') return { content: response, isError: false };
  const text = (response as { llmContent?: unknown } | null)?.llmContent;
  if (typeof text !== 'string') return { content: JSON.stringify(response) ?? '', isError: false };
  const exit = toolName === 'run_shell_command' ? EXIT_LINE.exec(text) : null;
  return { content: exit === null ? text : `${text}\nexit code: ${exit[1]!}`, isError: false };
}
