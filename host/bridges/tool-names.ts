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
