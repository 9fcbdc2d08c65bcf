import { PASSED, type RewriteWays, denyWay, editWay, fileWay, shellWay } from '../tool-rewrite.ts';
import type { ClaudeCodeTool } from './tools.ts';

const SUBAGENT = denyWay('it starts a subagent from a prompt; hookbox shows no arguments of it to map a rewrite back onto');

/**
 * How each Claude Code tool takes a pre-tool rewrite back as
 * `updatedInput` (docs/rfc-tool-input-rewrite.md, "Every agent"): the shell
 * and plain file tools exactly, keeping the keys hookbox does not show
 * (`description`, `run_in_background`, `offset`, `limit`); an edit only when
 * its path changed; every passed tool is a deny.
 */
export const CLAUDE_CODE_REWRITES: RewriteWays<ClaudeCodeTool> = {
  Bash: shellWay('command', 'timeout'),
  Monitor: shellWay('command'),
  Read: fileWay('file_path'),
  Write: fileWay('file_path', 'content'),
  Edit: editWay('file_path', 'Edit'),
  MultiEdit: editWay('file_path', 'MultiEdit'),
  NotebookEdit: editWay('notebook_path', 'NotebookEdit'),
  LS: fileWay('path'),
  Agent: SUBAGENT,
  Task: SUBAGENT,
  Workflow: PASSED,
  ListAgents: PASSED,
  SendMessage: PASSED,
  Skill: PASSED,
  ToolSearch: PASSED,
  DeferredToolPlaceholder: PASSED,
  ReportFindings: PASSED,
  ScheduleWakeup: PASSED,
  CronCreate: PASSED,
  CronDelete: PASSED,
  CronList: PASSED,
  EnterWorktree: PASSED,
  ExitWorktree: PASSED,
  TaskCreate: PASSED,
  TaskGet: PASSED,
  TaskList: PASSED,
  TaskUpdate: PASSED,
  TaskStop: PASSED,
  TaskOutput: PASSED,
  TodoWrite: PASSED,
  WebFetch: PASSED,
  WebSearch: PASSED,
  Glob: PASSED,
  Grep: PASSED,
  BashOutput: PASSED,
  KillShell: PASSED,
  ExitPlanMode: PASSED,
  EnterPlanMode: PASSED,
  AskUserQuestion: PASSED,
  ListMcpResourcesTool: PASSED,
  ReadMcpResourceTool: PASSED,
};
