import { type OurToolCall, fromProtocolToolInput, relativeInside } from '../tool-names.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';
import { claudeShapedInput } from '../claude-format/copilot-shapes.ts';

/**
 * Every tool Claude Code 2.1.328 can run, and how it reaches hookbox's hooks
 * (the census test checks the binary advertises nothing else; the README's
 * table is checked against this one). File edits are writes: hooks see
 * `write_file {path, content}` where `content` is the text the edit writes
 * (`new_string`; a MultiEdit's new strings joined by newlines; a notebook
 * cell's `new_source`), not the resulting file — hookbox does not read the
 * user's file to build it (no race with the agent's own read, no file-sized
 * payloads, no content the model did not write handed to a hook).
 */
export const CLAUDE_CODE_TOOLS = [
  { tool: 'Bash', as: 'bash', how: '`{command, timeout}` → `{command, timeoutMs}` (`description` dropped)' },
  { tool: 'Read', as: 'read_file', how: '`{file_path}` → `{path}` (`offset`, `limit`, `pages` dropped); Copilot CLI\'s `{path}` alike' },
  { tool: 'Write', as: 'write_file', how: '`{file_path, content}` → `{path, content}`; Copilot CLI\'s `{path, file_text}` alike' },
  { tool: 'Edit', as: 'write_file', how: '`{file_path, new_string}` → `{path, content: new_string}` (the text written, not the resulting file); Copilot CLI\'s `{path, new_str}` alike' },
  { tool: 'MultiEdit', as: 'write_file', how: '`{file_path, edits[]}` → `{path, content}`: every edit\'s `new_string`, joined by newlines' },
  { tool: 'NotebookEdit', as: 'write_file', how: '`{notebook_path, new_source}` → `{path, content: new_source}` (empty for a cell delete)' },
  { tool: 'Monitor', as: 'bash', how: '`{command}` → `{command}` (a background script; a `ws` monitor opens a WebSocket and passes as `Monitor`)' },
  { tool: 'LS', as: 'list_dir', how: '`{path}` → `{path}` (older versions)' },
  { tool: 'Agent', as: 'Agent', how: 'passed: starts a subagent, whose own tool calls reach hooks one by one' },
  { tool: 'Task', as: 'Task', how: 'passed: the subagent tool\'s older name' },
  { tool: 'Workflow', as: 'Workflow', how: 'passed: runs a script that orchestrates subagents, whose tool calls reach hooks one by one' },
  { tool: 'ListAgents', as: 'ListAgents', how: 'passed: lists agents' },
  { tool: 'SendMessage', as: 'SendMessage', how: 'passed: a message to another agent' },
  { tool: 'Skill', as: 'Skill', how: 'passed: loads a skill\'s instructions; its tool calls reach hooks one by one' },
  { tool: 'ToolSearch', as: 'ToolSearch', how: 'passed: loads deferred tool schemas' },
  { tool: 'DeferredToolPlaceholder', as: 'DeferredToolPlaceholder', how: 'passed: an empty stand-in for the deferred tools' },
  { tool: 'ReportFindings', as: 'ReportFindings', how: 'passed: a review\'s findings, no file or process' },
  { tool: 'ScheduleWakeup', as: 'ScheduleWakeup', how: 'passed: resumes the session later' },
  { tool: 'CronCreate', as: 'CronCreate', how: 'passed: schedules a prompt (its tool calls reach hooks when it runs)' },
  { tool: 'CronDelete', as: 'CronDelete', how: 'passed: cancels a scheduled prompt' },
  { tool: 'CronList', as: 'CronList', how: 'passed: lists scheduled prompts' },
  { tool: 'EnterWorktree', as: 'EnterWorktree', how: 'passed: creates a git worktree and moves the session there' },
  { tool: 'ExitWorktree', as: 'ExitWorktree', how: 'passed: leaves (or removes) that worktree' },
  { tool: 'TaskCreate', as: 'TaskCreate', how: 'passed: the agent\'s own task list' },
  { tool: 'TaskGet', as: 'TaskGet', how: 'passed: the agent\'s own task list' },
  { tool: 'TaskList', as: 'TaskList', how: 'passed: the agent\'s own task list' },
  { tool: 'TaskUpdate', as: 'TaskUpdate', how: 'passed: the agent\'s own task list' },
  { tool: 'TaskStop', as: 'TaskStop', how: 'passed: stops a background task' },
  { tool: 'TaskOutput', as: 'TaskOutput', how: 'passed: reads a background task\'s output' },
  { tool: 'TodoWrite', as: 'TodoWrite', how: 'passed: the older task list' },
  { tool: 'WebFetch', as: 'WebFetch', how: 'passed: fetches a URL (no hookbox tool does)' },
  { tool: 'WebSearch', as: 'WebSearch', how: 'passed: a web search (no hookbox tool does)' },
  { tool: 'Glob', as: 'Glob', how: 'passed (older versions): lists file names by pattern, reads no content' },
  { tool: 'Grep', as: 'Grep', how: 'passed (older versions): searches file contents — a read guard must name `Grep` too' },
  { tool: 'BashOutput', as: 'BashOutput', how: 'passed (older versions): reads a background shell\'s output' },
  { tool: 'KillShell', as: 'KillShell', how: 'passed (older versions): stops a background shell' },
  { tool: 'ExitPlanMode', as: 'ExitPlanMode', how: 'passed: leaves plan mode (no file or process)' },
  { tool: 'EnterPlanMode', as: 'EnterPlanMode', how: 'passed: enters plan mode (no file or process)' },
  { tool: 'AskUserQuestion', as: 'AskUserQuestion', how: 'passed: asks the person (not offered headless)' },
  { tool: 'ListMcpResourcesTool', as: 'ListMcpResourcesTool', how: 'passed: lists MCP resources' },
  { tool: 'ReadMcpResourceTool', as: 'ReadMcpResourceTool', how: 'passed: reads an MCP resource' },
] as const satisfies readonly AgentToolRow[];

/** A tool of Claude Code's table, by name (the rewrite table is keyed by them). */
export type ClaudeCodeTool = (typeof CLAUDE_CODE_TOOLS)[number]['tool'];

const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * One Claude Code tool call → the hookbox call hooks decide on: the table
 * above; an MCP tool keeps its name with its server in `_hookbox`; a tool the
 * table lacks keeps its name and arguments, flagged `_hookbox.unmappedTool`.
 * A known tool of an unexpected shape is passed on as it came (flagged
 * unmapped when it was meant to map: no guard should take it for mapped).
 */
export function fromClaudeCodeTool(toolName: string, sent: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const input = claudeShapedInput(toolName, sent);
  if (EDIT_TOOLS.has(toolName)) return editCall(toolName, input, cwd) ?? unmapped(toolName, input);
  if (toolName === 'Monitor') {
    if (typeof input.command === 'string') return { toolName: 'bash', arguments: { command: input.command } };
    return input.ws !== undefined ? passedCall([{ tool: 'Monitor', as: 'Monitor', how: '' }], toolName, input) : unmapped(toolName, input);
  }
  const mapped = fromProtocolToolInput('claude-code', toolName, input, cwd);
  const row = CLAUDE_CODE_TOOLS.find((candidate) => candidate.tool === toolName);
  if (row !== undefined && row.as !== row.tool && mapped.toolName === toolName) return unmapped(toolName, input);
  return mapped.toolName === toolName ? passedCall(CLAUDE_CODE_TOOLS, toolName, input) : mapped;
}

function unmapped(toolName: string, input: Readonly<Record<string, unknown>>): OurToolCall {
  return passedCall([], toolName, input);
}

/** An edit as the write it is; undefined when its arguments are not of the documented shape. */
function editCall(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall | undefined {
  const file = input[toolName === 'NotebookEdit' ? 'notebook_path' : 'file_path'];
  if (typeof file !== 'string') return undefined;
  let content: string | undefined;
  if (toolName === 'Edit') content = typeof input.new_string === 'string' ? input.new_string : undefined;
  if (toolName === 'NotebookEdit') content = typeof input.new_source === 'string' ? input.new_source : input.edit_mode === 'delete' ? '' : undefined;
  if (toolName === 'MultiEdit' && Array.isArray(input.edits)) {
    const texts = (input.edits as unknown[]).map((edit) => (typeof edit === 'object' && edit !== null ? (edit as Record<string, unknown>).new_string : undefined));
    content = texts.every((text): text is string => typeof text === 'string') ? texts.join('\n') : undefined;
  }
  return content === undefined ? undefined : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
}
