import { OPENCODE_REWRITES, OPENCODE_TOOLS, fromOpenCodeTool } from '../opencode/tools.ts';
import { PASSED, type RewriteWay, shellWay } from '../tool-rewrite.ts';
import type { OurToolCall } from '../tool-names.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

/** The `background_process` actions that run the command they are given (the others name a process already started). */
const RUNS_COMMAND = new Set(['start', 'monitor']);

/**
 * Every tool Kilo CLI 7.7.9 offers the model with its default agent (`code`;
 * what the real binary advertised to the mock) and how each reaches hookbox's
 * hooks: OpenCode's tools, with the same arguments, then Kilo's own. A tool a
 * plugin or MCP server adds is passed under its own name, flagged
 * `_hookbox.unmappedTool`.
 */
export const KILO_TOOLS: readonly AgentToolRow[] = [
  ...OPENCODE_TOOLS,
  {
    tool: 'background_process',
    as: 'bash',
    how: '`start` and `monitor` `{action, command}` → `{command}` (they run a shell command, so a bash guard sees it; `workdir`, `ready`, lifetime dropped); `list`, `status`, `logs`, `stop`, `restart` (on a process already started) passed as `background_process`',
  },
  { tool: 'board_post', as: 'board_post', how: 'passed: posts a message to the board shared with subagents' },
  { tool: 'board_read', as: 'board_read', how: 'passed: reads that board' },
  { tool: 'schedule_wakeup', as: 'schedule_wakeup', how: 'passed: schedules a prompt to resume the session later (the prompt reaches `chat.message` when it comes)' },
  { tool: 'cancel_wakeup', as: 'cancel_wakeup', how: 'passed: lists or cancels those wakeups' },
  { tool: 'cron_create', as: 'cron_create', how: 'passed: schedules a recurring prompt for the session' },
  { tool: 'cron_delete', as: 'cron_delete', how: 'passed: deletes one' },
  { tool: 'cron_list', as: 'cron_list', how: 'passed: lists them' },
  { tool: 'goal', as: 'goal', how: "passed: starts or resumes the session's goal" },
  { tool: 'kilo_local_recall', as: 'kilo_local_recall', how: "passed: searches and reads this project's past sessions on the machine — a read guard must name it too" },
  { tool: 'link_pr', as: 'link_pr', how: 'passed: links the session to a pull request URL (creates nothing)' },
];

/**
 * One Kilo tool call → the hookbox call hooks decide on: OpenCode's mapping,
 * and a background process's command as the shell command it is. A
 * `background_process` that would run a command but names none (or not as
 * text) is passed flagged unmapped, never taken for harmless.
 */
export function fromKiloTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  if (toolName !== 'background_process') return fromOpenCodeTool(toolName, input, cwd, KILO_TOOLS);
  const { action, command } = input;
  const unmapped = (): OurToolCall => passedCall([], toolName, input);
  if (typeof action === 'string' && RUNS_COMMAND.has(action)) return typeof command === 'string' ? { toolName: 'bash', arguments: { command } } : unmapped();
  return typeof action === 'string' && command === undefined ? passedCall(KILO_TOOLS, toolName, input) : unmapped();
}

/** How each Kilo CLI tool takes a rewrite back: OpenCode's ways, a background process's command as a shell's. */
export const KILO_REWRITES: Readonly<Record<string, RewriteWay>> = {
  ...Object.fromEntries(KILO_TOOLS.map((row) => [row.tool, PASSED])),
  ...OPENCODE_REWRITES,
  background_process: shellWay('command'),
};
