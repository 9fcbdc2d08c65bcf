import type { ToolResult } from '../../seams/index.ts';
import { copilotResult } from '../claude-format/copilot-shapes.ts';
import { type OurToolCall, relativeInside } from '../tool-names.ts';
import { PASSED, type RewriteWay, editWay, fileWay, shellWay } from '../tool-rewrite.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

/**
 * Every tool Copilot CLI 1.0.102 offers its model in `copilot -p` (read from
 * the request the mock received, with each tool's input schema; the census
 * test checks the binary advertises nothing else), and how each reaches
 * hookbox's hooks. Edits are writes of the text they write.
 */
export const COPILOT_TOOLS: readonly AgentToolRow[] = [
  { tool: 'bash', as: 'bash', how: '`{command}` → `{command}` (`description`, `shellId`, `mode`, … dropped)' },
  { tool: 'view', as: 'read_file', how: '`{path}` → `{path}` (`view_range` dropped; a folder\'s path lists it, still a `read_file`)' },
  { tool: 'create', as: 'write_file', how: '`{path, file_text}` → `{path, content}`' },
  { tool: 'edit', as: 'write_file', how: '`{path, new_str}` → `{path, content: new_str}` (the text written, not the resulting file)' },
  { tool: 'read_bash', as: 'read_bash', how: 'passed: reads a running shell\'s output (`{shellId, delay}`)' },
  { tool: 'stop_bash', as: 'stop_bash', how: 'passed: stops a running shell' },
  { tool: 'list_bash', as: 'list_bash', how: 'passed: lists the running shells' },
  { tool: 'grep', as: 'grep', how: 'passed: searches file contents — a read guard must name `grep` too' },
  { tool: 'glob', as: 'glob', how: 'passed: lists file names by pattern, reads no content' },
  { tool: 'task', as: 'task', how: 'passed: starts a subagent, whose own tool calls reach hooks one by one' },
  { tool: 'read_agent', as: 'read_agent', how: 'passed: reads a background agent\'s status' },
  { tool: 'write_agent', as: 'write_agent', how: 'passed: a message to a background agent' },
  { tool: 'list_agents', as: 'list_agents', how: 'passed: lists background agents' },
  { tool: 'skill', as: 'skill', how: 'passed: loads a skill\'s instructions' },
  { tool: 'sql', as: 'sql', how: 'passed: queries the session\'s own SQLite scratch database (todos), not the project\'s files' },
  { tool: 'session_store_sql', as: 'session_store_sql', how: 'passed: a read-only query of Copilot\'s own session history' },
  { tool: 'fetch_copilot_cli_documentation', as: 'fetch_copilot_cli_documentation', how: 'passed: reads Copilot\'s bundled documentation' },
];

/** The tools mapped to one of hookbox's (`bash` keeps its name but is mapped all the same). */
const MAPPED = new Set(['bash', 'view', 'create', 'edit']);

const str = (input: Readonly<Record<string, unknown>>, key: string): string | undefined => (typeof input[key] === 'string' ? (input[key] as string) : undefined);

/**
 * One Copilot CLI tool call → the hookbox call hooks decide on: the table
 * above; a mapped tool of an unexpected shape, or a tool the table lacks,
 * keeps its name and arguments, flagged `_hookbox.unmappedTool`. Paths inside
 * the session's cwd become relative, as hookbox's tools take them.
 */
export function fromCopilotTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const file = str(input, 'path');
  const mapped = ((): OurToolCall | undefined => {
    if (toolName === 'bash') {
      const command = str(input, 'command');
      return command === undefined ? undefined : { toolName: 'bash', arguments: { command } };
    }
    if (file === undefined) return undefined;
    if (toolName === 'view') return { toolName: 'read_file', arguments: { path: relativeInside(cwd, file) } };
    const content = toolName === 'create' ? str(input, 'file_text') : toolName === 'edit' ? (str(input, 'new_str') ?? '') : undefined;
    return content === undefined ? undefined : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
  })();
  if (mapped !== undefined) return mapped;
  // A mapped tool here had an unexpected shape: flagged like a tool the table lacks.
  return passedCall(MAPPED.has(toolName) ? [] : COPILOT_TOOLS, toolName, input);
}

/** A postToolUse `toolResult` → hookbox's result (a shell's trailer becomes hookbox's `exit code: N` line). */
export function fromCopilotResult(result: { readonly resultType: string; readonly textResultForLlm: string }): ToolResult {
  return copilotResult(result.resultType, result.textResultForLlm);
}

/**
 * How each Copilot CLI tool takes a rewrite back as preToolUse's
 * `modifiedArgs`, the tool's whole arguments with every key Copilot sent
 * kept; `edit` only when its path changed (old/new strings); a passed tool never.
 */
export const COPILOT_REWRITES: Readonly<Record<string, RewriteWay>> = {
  ...Object.fromEntries(COPILOT_TOOLS.map((row) => [row.tool, PASSED])),
  bash: shellWay('command'),
  view: fileWay('path'),
  create: fileWay('path', 'file_text'),
  edit: editWay('path', 'edit'),
};
