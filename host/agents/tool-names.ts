import path from 'node:path';
import { pathUnder } from '../path-under.ts';
import type { ToolResult } from '../seams/index.ts';

/**
 * The agents whose hook format hookbox also runs hooks in (imported shell
 * hooks, protocol-speaking wasm hooks), besides its own msgpack wire.
 */
export const TOOL_PROTOCOLS = ['claude-code', 'codex'] as const;
/** A coding agent's JSON-on-stdin / exit-code hook protocol. */
export type ToolProtocol = (typeof TOOL_PROTOCOLS)[number];

/** The built-in hookbox tool names (what an imported matcher is resolved against). */
export const BUILTIN_TOOLS = ['bash', 'read_file', 'write_file', 'list_dir'] as const;
type BuiltinTool = (typeof BUILTIN_TOOLS)[number];

/**
 * The one table of each protocol's tool names for hookbox's built-in tools:
 * the first name is the one its hooks are shown (`tool_name`), the rest are
 * aliases a matcher or an incoming event may use. Claude Code's `Edit`,
 * `MultiEdit` and `NotebookEdit` edit files as `Write` does (their arguments
 * are mapped by `claude-code/tools.ts`); Codex reports every shell call as
 * `Bash` (the model-facing `exec_command`, `shell`, `local_shell`,
 * `container.exec` are accepted too) and every file change as `apply_patch`
 * (`Edit` and `Write` matchers select it). The Codex bridge
 * (`codex/tools.ts`) reads the same table.
 */
export const TOOL_NAMES: Readonly<Record<ToolProtocol, Readonly<Partial<Record<BuiltinTool, readonly string[]>>>>> = {
  'claude-code': { bash: ['Bash'], read_file: ['Read'], write_file: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'], list_dir: ['LS'] },
  codex: { bash: ['Bash', 'exec_command', 'shell', 'local_shell', 'container.exec'], write_file: ['apply_patch', 'Edit', 'Write'] },
};

/** Every name of one of our tools in a protocol (the shown name first); `[]` when the protocol has none. */
export function protocolToolNames(protocol: ToolProtocol, ours: string): readonly string[] {
  return (BUILTIN_TOOLS as readonly string[]).includes(ours) ? (TOOL_NAMES[protocol][ours as BuiltinTool] ?? []) : [];
}

/** Our tool name → the protocol's (`bash` → `Bash`); unknown tools pass through. */
export function toProtocolToolName(protocol: ToolProtocol, ours: string): string {
  return protocolToolNames(protocol, ours)[0] ?? ours;
}

/** The protocol's tool name, or an alias of it, → ours (`Bash`, `exec_command` → `bash`); unknown tools pass through. */
export function fromProtocolToolName(protocol: ToolProtocol, theirs: string): string {
  for (const ours of BUILTIN_TOOLS) if (TOOL_NAMES[protocol][ours]?.includes(theirs) === true) return ours;
  return theirs;
}

/**
 * Our tool arguments in the shape the protocol's `tool_input` has: Claude
 * Code's `file_path` (absolute, as Claude Code sends it), Bash's `timeout` in
 * ms; Codex's `apply_patch {command}` for a file write (an `Add File` patch of
 * the new content). A path reaches the hook as the model wrote it: an
 * absolute one unchanged, a relative one behind the session cwd without
 * normalising, so a `..` stays visible to a hook that checks for it.
 * Arguments of unknown tools, or of an unexpected shape, pass through.
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
  const file = str('path');
  if (file === undefined) return { ...args };
  if (protocol === 'codex') {
    return toolName === 'write_file' ? { command: addFilePatch(file, str('content') ?? '') } : { ...args };
  }
  const asWritten = modelPath(cwd, file);
  if (toolName === 'read_file') return { file_path: asWritten };
  if (toolName === 'write_file') return { file_path: asWritten, content: str('content') ?? '' };
  if (toolName === 'list_dir') return { path: asWritten };
  return { ...args };
}

/** A path as the model wrote it, made absolute the way a shell would (`cwd/` + path), never normalised. */
function modelPath(cwd: string, file: string): string {
  if (file === '.' || file === '') return cwd;
  return path.isAbsolute(file) ? file : `${cwd.endsWith('/') ? cwd : `${cwd}/`}${file}`;
}

/** A whole-file write as the `apply_patch` envelope Codex shows its hooks (the path as the model wrote it). */
function addFilePatch(file: string, content: string): string {
  const body = content === '' ? [] : content.replace(/\n$/, '').split('\n').map((line) => `+${line}`);
  return ['*** Begin Patch', `*** Add File: ${file}`, ...body, '*** End Patch'].join('\n');
}

/** hookbox's bash result: stdout and stderr interleaved, then `exit code: N` (124 after "timed out after …"). */
const BASH_TRAILER = /(?:^|\n)exit code: (-?\d+)$/;

/**
 * A tool result as the protocol's `tool_response`. Claude Code's PostToolUse
 * fires only for successful calls (failures go to PostToolUseFailure);
 * hookbox's post-execute seam sees both, so a failed built-in call is reported
 * as `{success: false, error}`. Bash: `{stdout, stderr, interrupted, isImage,
 * exit_code}` with the exit code taken off hookbox's `exit code: N` line
 * (stderr is interleaved into stdout by hookbox's bash tool, so `stderr` is
 * empty). Codex gets the content string.
 */
export function toProtocolToolResponse(
  protocol: ToolProtocol,
  toolName: string,
  args: Readonly<Record<string, unknown>>,
  result: ToolResult,
  cwd: string,
): unknown {
  if (protocol === 'codex') return result.content;
  if (toolName === 'bash') return bashResponse(result);
  const builtin = (BUILTIN_TOOLS as readonly string[]).includes(toolName);
  if (!builtin) return { content: result.content, isError: result.isError };
  if (result.isError) return { success: false, error: result.content };
  const file = typeof args.path === 'string' ? modelPath(cwd, args.path) : undefined;
  if (toolName === 'read_file') return { type: 'text', file: { filePath: file, content: result.content } };
  if (toolName === 'write_file') return { type: 'create', filePath: file, content: args.content };
  return result.content;
}

/** Claude Code's Bash `tool_response` from hookbox's bash result. */
function bashResponse(result: ToolResult): Record<string, unknown> {
  const trailer = BASH_TRAILER.exec(result.content);
  if (trailer === null) return { stdout: result.content, stderr: '', interrupted: false, isImage: false };
  const exitCode = Number(trailer[1]);
  const output = result.content.slice(0, trailer.index);
  const timedOut = exitCode === 124 ? /(?:^|\n)timed out after \d+ ms$/.exec(output) : null;
  const stdout = timedOut === null ? output : output.slice(0, timedOut.index);
  return { stdout, stderr: '', interrupted: timedOut !== null, isImage: false, exit_code: exitCode };
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
export function relativeInside(cwd: string, file: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = pathUnder(cwd, absolute);
  return relative === undefined || relative === '' ? absolute : relative;
}
