import path from 'node:path';
import type { ToolResult } from '../seams/index.ts';
import type { ToolProtocol } from './protocol.ts';

/**
 * hookbox's built-in tools under the names each protocol's hooks know them by.
 * Codex names its shell tool `Bash` and has no file tools of these shapes, so
 * only `bash` is renamed there. Every other tool keeps its name both ways.
 */
const NAMES: Readonly<Record<ToolProtocol, Readonly<Record<string, string>>>> = {
  'claude-code': { bash: 'Bash', read_file: 'Read', write_file: 'Write', list_dir: 'LS' },
  codex: { bash: 'Bash' },
};

/** The built-in hookbox tool names (what an imported matcher is resolved against). */
export const BUILTIN_TOOLS = ['bash', 'read_file', 'write_file', 'list_dir'] as const;

/** Our tool name → the protocol's (`bash` → `Bash`); unknown tools pass through. */
export function toProtocolToolName(protocol: ToolProtocol, ours: string): string {
  return NAMES[protocol][ours] ?? ours;
}

/** The protocol's tool name → ours (`Bash` → `bash`); unknown tools pass through. */
export function fromProtocolToolName(protocol: ToolProtocol, theirs: string): string {
  for (const [ours, name] of Object.entries(NAMES[protocol])) if (name === theirs) return ours;
  return theirs;
}

/**
 * Our tool arguments in the shape the protocol's `tool_input` has: Claude
 * Code's `file_path` (absolute, as Claude Code sends it), Bash's `timeout` in
 * ms. Arguments of unknown tools, or of an unexpected shape, pass through.
 */
export function toProtocolToolInput(
  protocol: ToolProtocol,
  toolName: string,
  args: Readonly<Record<string, unknown>>,
  cwd: string,
): Record<string, unknown> {
  const str = (key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
  if (toolName === 'bash' && str('command') !== undefined) {
    const timeout = typeof args.timeoutMs === 'number' ? { timeout: args.timeoutMs } : {};
    return { command: str('command'), ...(protocol === 'claude-code' ? timeout : {}) };
  }
  if (protocol !== 'claude-code') return { ...args };
  const file = str('path');
  if (file === undefined) return { ...args };
  const absolute = path.resolve(cwd, file);
  if (toolName === 'read_file') return { file_path: absolute };
  if (toolName === 'write_file') return { file_path: absolute, content: str('content') ?? '' };
  if (toolName === 'list_dir') return { path: absolute };
  return { ...args };
}

/**
 * A tool result as the protocol's `tool_response`. Claude Code's PostToolUse
 * fires only for successful calls (failures go to PostToolUseFailure);
 * hookbox's post-execute seam sees both, so a failed built-in call is reported
 * as `{success: false, error}`. Bash output is hookbox's (stdout and stderr
 * interleaved, ending with `exit code: N`). Codex gets the content string.
 */
export function toProtocolToolResponse(
  protocol: ToolProtocol,
  toolName: string,
  args: Readonly<Record<string, unknown>>,
  result: ToolResult,
  cwd: string,
): unknown {
  if (protocol === 'codex') return result.content;
  if (toolName === 'bash') return { stdout: result.content, stderr: '', interrupted: false, isImage: false };
  const builtin = (BUILTIN_TOOLS as readonly string[]).includes(toolName);
  if (!builtin) return { content: result.content, isError: result.isError };
  if (result.isError) return { success: false, error: result.content };
  const file = typeof args.path === 'string' ? path.resolve(cwd, args.path) : undefined;
  if (toolName === 'read_file') return { type: 'text', file: { filePath: file, content: result.content } };
  if (toolName === 'write_file') return { type: 'create', filePath: file, content: args.content };
  return result.content;
}

/** A tool call as hookbox's hooks see it. */
export interface OurToolCall {
  readonly toolName: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * The reverse of `toProtocolToolInput`, for events that come from the agent
 * (`hookbox serve`): the agent's tool name and `tool_input` → ours, so one
 * hook decides alike in hookbox's loop and inside the agent. Claude Code's
 * `Bash {command, timeout}` → `bash {command, timeoutMs}` (its `description`
 * and other display fields are dropped: hookbox's bash has none),
 * `Read`/`Write {file_path}` → `read_file`/`write_file {path}`, `LS {path}` →
 * `list_dir`. Paths inside `cwd` become relative to it, as hookbox's model
 * writes them. Unknown tools, and known ones of an unexpected shape, keep the
 * agent's name and arguments.
 */
export function fromProtocolToolInput(protocol: ToolProtocol, theirs: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const ours = fromProtocolToolName(protocol, theirs);
  const str = (key: string): string | undefined => (typeof input[key] === 'string' ? (input[key] as string) : undefined);
  const passThrough = { toolName: theirs, arguments: { ...input } };
  if (ours === 'bash') {
    const command = str('command');
    if (command === undefined) return passThrough;
    const timeout = typeof input.timeout === 'number' && protocol === 'claude-code' ? { timeoutMs: input.timeout } : {};
    return { toolName: ours, arguments: { command, ...timeout } };
  }
  if (ours === theirs) return passThrough;
  const file = str(ours === 'list_dir' ? 'path' : 'file_path');
  if (file === undefined) return passThrough;
  const relative = relativeInside(cwd, file);
  if (ours === 'write_file') {
    const content = str('content');
    return content === undefined ? passThrough : { toolName: ours, arguments: { path: relative, content } };
  }
  return { toolName: ours, arguments: { path: relative } };
}

/**
 * The agent's `tool_response` (or a failure's `error` text) → hookbox's tool
 * result. Claude Code's Bash `{stdout, stderr, interrupted}` → stdout then
 * stderr, an error when interrupted; Read's `{file: {content}}` → the
 * content; a string → itself; anything else → its JSON.
 */
export function fromProtocolToolResponse(protocol: ToolProtocol, theirs: string, response: unknown): ToolResult {
  if (typeof response === 'string') return { content: response, isError: false };
  if (typeof response !== 'object' || response === null) return { content: JSON.stringify(response) ?? '', isError: false };
  const record = response as Record<string, unknown>;
  const ours = fromProtocolToolName(protocol, theirs);
  if (ours === 'bash' && typeof record.stdout === 'string') {
    const stderr = typeof record.stderr === 'string' && record.stderr !== '' ? `\n${record.stderr}` : '';
    return { content: `${record.stdout}${stderr}`, isError: record.interrupted === true };
  }
  const file = record.file as Record<string, unknown> | undefined;
  if (ours === 'read_file' && typeof file?.content === 'string') return { content: file.content, isError: false };
  return { content: JSON.stringify(response), isError: false };
}

/** `file` relative to `cwd` when it lies inside it, else absolute. */
function relativeInside(cwd: string, file: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
