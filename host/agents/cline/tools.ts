import type { ToolResult } from '../../seams/index.ts';
import { type OurToolCall, relativeInside } from '../tool-names.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

const TEAM = 'passed: Cline\'s agent-team coordination (teammates, their tasks, runs, mailbox, outcomes); a teammate\'s own tool calls reach hooks one by one';

/**
 * Every tool Cline CLI 3.0.65 offers its model in a headless `cline` run
 * (read from the request the mock received, with each tool's input schema;
 * the census test checks the binary advertises nothing else), and how each
 * reaches hookbox's hooks. A call carrying several commands or files is one
 * hookbox call per item, all decided (one deny denies the call).
 */
export const CLINE_TOOLS: readonly AgentToolRow[] = [
  { tool: 'run_commands', as: 'bash', how: '`{commands: [c, …]}` → one `{command: c}` per command' },
  { tool: 'read_files', as: 'read_file', how: '`{files: [{path, start_line, end_line}, …]}` → one `{path}` per file (the line bounds dropped)' },
  { tool: 'editor', as: 'write_file', how: '`{path, new_text}` → `{path, content: new_text}` (the text written, not the resulting file; `old_text`, `insert_line` dropped)' },
  { tool: 'search_codebase', as: 'search_codebase', how: 'passed: regex searches over the workspace\'s files — a read guard must name `search_codebase` too' },
  { tool: 'fetch_web_content', as: 'fetch_web_content', how: 'passed: fetches URLs (`{requests: [{url, prompt}]}`)' },
  { tool: 'ask_question', as: 'ask_question', how: 'passed: asks the user a question' },
  { tool: 'spawn_agent', as: 'spawn_agent', how: 'passed: starts a sub-agent, whose own tool calls reach hooks one by one' },
  ...[
    'team_spawn_teammate',
    'team_shutdown_teammate',
    'team_status',
    'team_task',
    'team_run_task',
    'team_cancel_run',
    'team_list_runs',
    'team_await_runs',
    'team_send_message',
    'team_broadcast',
    'team_read_mailbox',
    'team_mission_log',
    'team_cleanup',
    'team_create_outcome',
    'team_attach_outcome_fragment',
    'team_review_outcome_fragment',
    'team_finalize_outcome',
    'team_list_outcomes',
  ].map((tool) => ({ tool, as: tool, how: TEAM })),
];

/** The tools mapped to one of hookbox's. */
const MAPPED = new Set(['run_commands', 'read_files', 'editor']);

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function mapped(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall[] | undefined {
  if (toolName === 'run_commands') {
    const commands = input.commands;
    if (!Array.isArray(commands) || commands.length === 0 || !commands.every((command) => typeof command === 'string')) return undefined;
    return (commands as string[]).map((command) => ({ toolName: 'bash', arguments: { command } }));
  }
  if (toolName === 'read_files') {
    const files = input.files;
    if (!Array.isArray(files) || files.length === 0) return undefined;
    const paths = files.map((file) => str((file as { path?: unknown } | null)?.path));
    if (paths.some((file) => file === undefined)) return undefined;
    return (paths as string[]).map((file) => ({ toolName: 'read_file', arguments: { path: relativeInside(cwd, file) } }));
  }
  if (toolName === 'editor') {
    const file = str(input.path);
    const content = str(input.new_text);
    return file === undefined || content === undefined ? undefined : [{ toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } }];
  }
  return undefined;
}

/**
 * One Cline tool call → the hookbox calls hooks decide on (at least one): the
 * table above; a mapped tool of an unexpected shape, or a tool the table
 * lacks, keeps its name and arguments, flagged `_hookbox.unmappedTool`.
 * Paths inside the workspace become relative, as hookbox's tools take them.
 */
export function fromClineTool(toolName: string, input: unknown, cwd: string): OurToolCall[] {
  const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  return mapped(toolName, args, cwd) ?? [passedCall(MAPPED.has(toolName) ? [] : CLINE_TOOLS, toolName, args)];
}

/** A PostToolUse result → hookbox's: the text Cline hands the model (its JSON for structured output), an error unless `success`. */
export function fromClineResult(result: string, success: boolean): ToolResult {
  return { content: result, isError: !success };
}
