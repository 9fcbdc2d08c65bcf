import type { ToolResult } from '../../seams/index.ts';
import { type OurToolCall, relativeInside } from '../tool-names.ts';
import { PASSED, type RewriteWay, editWay, fileWay, shellWay } from '../tool-rewrite.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

/**
 * Every tool Gemini CLI 0.61.0 can run (the census test checks the binary
 * advertises nothing else) and how each reaches hookbox's hooks.
 */
export const GEMINI_TOOLS: readonly AgentToolRow[] = [
  { tool: 'run_shell_command', as: 'bash', how: '`{command}` → `{command}` (`description`, `dir_path` dropped)' },
  { tool: 'read_file', as: 'read_file', how: '`{file_path}` → `{path}` (`start_line`, `end_line` dropped)' },
  { tool: 'write_file', as: 'write_file', how: '`{file_path, content}` → `{path, content}`' },
  { tool: 'replace', as: 'write_file', how: '`{file_path, new_string}` → `{path, content: new_string}` (the text written, not the resulting file)' },
  { tool: 'list_directory', as: 'list_dir', how: '`{dir_path}` → `{path}`' },
  { tool: 'glob', as: 'glob', how: 'passed: lists file names by pattern, reads no content' },
  { tool: 'grep_search', as: 'grep_search', how: 'passed: searches file contents — a read guard must name `grep_search` too' },
  { tool: 'search_file_content', as: 'search_file_content', how: 'passed: the older name of `grep_search`' },
  { tool: 'read_many_files', as: 'read_many_files', how: 'passed: reads files by glob patterns (`include`) — a read guard must name it too' },
  { tool: 'web_fetch', as: 'web_fetch', how: 'passed: fetches the URLs in `prompt` (no hookbox tool does)' },
  { tool: 'google_web_search', as: 'google_web_search', how: 'passed: a web search (no hookbox tool does)' },
  { tool: 'save_memory', as: 'save_memory', how: 'passed: appends a fact to Gemini CLI\'s own memory file (`GEMINI.md` in its home)' },
  { tool: 'write_todos', as: 'write_todos', how: 'passed: the agent\'s own task list' },
  { tool: 'update_topic', as: 'update_topic', how: 'passed: names the conversation\'s current topic' },
  { tool: 'enter_plan_mode', as: 'enter_plan_mode', how: 'passed: enters plan mode (no file or process)' },
  { tool: 'exit_plan_mode', as: 'exit_plan_mode', how: 'passed: leaves plan mode (no file or process)' },
  { tool: 'ask_user', as: 'ask_user', how: 'passed: asks the person (no file or process)' },
  { tool: 'invoke_agent', as: 'invoke_agent', how: 'passed: starts a subagent, whose own tool calls reach hooks one by one' },
  { tool: 'activate_skill', as: 'activate_skill', how: 'passed: loads a skill\'s instructions' },
  { tool: 'list_background_processes', as: 'list_background_processes', how: 'passed: lists the shell\'s background processes' },
  { tool: 'read_background_output', as: 'read_background_output', how: 'passed: reads a background process\'s output' },
];

/**
 * One Gemini CLI tool call → the hookbox tool call hooks decide on:
 *
 * - `run_shell_command {command}` → `bash {command}` (its `description` and
 *   `dir_path` are display/working-folder fields hookbox's bash has none of);
 * - `read_file {file_path}` → `read_file {path}`;
 * - `write_file {file_path, content}` → `write_file {path, content}`;
 * - `replace {file_path, old_string, new_string}` (an edit) →
 *   `write_file {path, content: new_string}`: a write to that path, whose
 *   content is the replacement text, not the whole file;
 * - `list_directory {dir_path}` → `list_dir {path}`;
 * - anything else keeps Gemini's name and arguments (a tool the table above
 *   lacks, or a known one of an unexpected shape, flagged
 *   `_hookbox.unmappedTool`; an MCP tool named `mcp__server__tool` with its
 *   server in `_hookbox`).
 *
 * Paths inside the session's cwd become relative, as hookbox's tools take them.
 */
export function fromGeminiTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const str = (...keys: string[]): string | undefined => {
    for (const key of keys) if (typeof input[key] === 'string') return input[key] as string;
    return undefined;
  };
  // A mapped tool of an unexpected shape: flagged, even where hookbox's tool has the same name (read_file, write_file).
  const same: OurToolCall = passedCall([], toolName, input);
  const file = str('file_path', 'absolute_path', 'path');
  switch (toolName) {
    case 'run_shell_command': {
      const command = str('command');
      return command === undefined ? same : { toolName: 'bash', arguments: { command } };
    }
    case 'read_file':
      return file === undefined ? same : { toolName: 'read_file', arguments: { path: relativeInside(cwd, file) } };
    case 'write_file': {
      const content = str('content');
      return file === undefined || content === undefined ? same : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
    }
    case 'replace': {
      const content = str('new_string');
      return file === undefined || content === undefined ? same : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
    }
    case 'list_directory': {
      const dir = str('dir_path', 'path');
      return dir === undefined ? same : { toolName: 'list_dir', arguments: { path: relativeInside(cwd, dir) } };
    }
    default:
      // Every mapped row's name has its case above: a name that gets here is passed, or unknown (flagged).
      return passedCall(GEMINI_TOOLS, toolName, input);
  }
}

/**
 * Gemini CLI's `tool_response` (`{llmContent, returnDisplay, error?}`) →
 * hookbox's tool result: what the model would read (`llmContent`), an error
 * when `error` is set. A shell result also gets hookbox's bash ending,
 * `exit code: N`: Gemini writes an `Exit Code: N` line only for a non-zero
 * exit, so none (and no `Signal:` or `Error:` line) means 0.
 */
export function fromGeminiToolResponse(toolName: string, response: unknown): ToolResult {
  if (typeof response === 'string') return { content: response, isError: false };
  if (typeof response !== 'object' || response === null) return { content: JSON.stringify(response) ?? '', isError: false };
  const record = response as Record<string, unknown>;
  const llm = record.llmContent;
  const content = typeof llm === 'string' ? llm : JSON.stringify(llm ?? response);
  const isError = record.error !== undefined && record.error !== null;
  if (toolName !== 'run_shell_command' || typeof llm !== 'string') return { content, isError };
  const exit = /^Exit Code: (-?\d+)$/m.exec(llm)?.[1] ?? (/^(Signal|Error): /m.test(llm) ? undefined : '0');
  return { content: exit === undefined ? content : `${content}\nexit code: ${exit}`, isError: isError || (exit !== undefined && exit !== '0') };
}

/**
 * How each Gemini CLI tool takes a rewrite back as BeforeTool's
 * `hookSpecificOutput.tool_input`, which Gemini merges over the call's
 * arguments: the whole input goes back, every key it sent kept
 * (`description`, `dir_path`, `start_line`); `replace` only when its path
 * changed (old/new strings); a passed tool never.
 */
export const GEMINI_REWRITES: Readonly<Record<string, RewriteWay>> = {
  ...Object.fromEntries(GEMINI_TOOLS.map((row) => [row.tool, PASSED])),
  run_shell_command: shellWay('command'),
  read_file: fileWay('file_path'),
  write_file: fileWay('file_path', 'content'),
  replace: editWay('file_path', 'replace'),
  list_directory: fileWay('dir_path'),
};
