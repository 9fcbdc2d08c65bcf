import type { OurToolCall } from './tool-names.ts';

/**
 * One row of an agent's closed-world tool table: every tool the pinned agent
 * version can run is listed, either mapped to a hookbox tool (`as` is
 * `bash`, `read_file`, `write_file` or `list_dir`) or deliberately passed
 * under its own name (`as` is the agent's name). The census test compares
 * what the real binary advertises to the model against these rows, and the
 * README's per-agent tool tables are checked against them.
 */
export interface AgentToolRow {
  /** The tool's name as the agent runs it (what the model calls, or what the agent's hooks are told). */
  readonly tool: string;
  /** The hookbox tool name hooks see it as (the agent's own name when it is passed). */
  readonly as: string;
  /** One line: which arguments it maps to, or why it is passed (for the README). */
  readonly how: string;
}

/**
 * The reserved argument key hookbox adds to a tool call it passes under the
 * agent's name: what the bridge knows about the call that its arguments do
 * not say. A value the agent sent under this key is replaced, never trusted.
 */
export const TOOL_META_KEY = '_hookbox';

/** What `TOOL_META_KEY` carries. */
export interface ToolMeta {
  /** The agent ran a tool its table does not list: no hookbox guard was written with it in mind. */
  readonly unmappedTool?: true;
  /** An MCP tool (`mcp__<server>__<tool>`): the server it belongs to and its own tool name. */
  readonly mcpServer?: string;
  readonly mcpTool?: string;
  /**
   * A write whose directory only the shell knows (a Codex script that runs
   * `apply_patch` after `cd "$DIR"` and the like): its path is read from the
   * session cwd, but may land elsewhere. A guard that must place every write
   * denies it.
   */
  readonly workdirUnknown?: true;
}

/** `mcp__<server>__<tool>` → its server and tool (the server name has no `__`), else undefined. */
export function mcpToolName(name: string): { server: string; tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match === null ? undefined : { server: match[1]!, tool: match[2]! };
}

/**
 * A call kept under the agent's tool name, its arguments as sent, with
 * hookbox's metadata: an MCP tool's server, and `unmappedTool: true` when the
 * table does not list the tool. A listed, non-MCP tool gets no metadata
 * (only the reserved key is taken out of what the agent sent).
 */
export function passedCall(table: readonly AgentToolRow[], toolName: string, input: Readonly<Record<string, unknown>>): OurToolCall {
  const { [TOOL_META_KEY]: _spoofed, ...args } = input;
  const mcp = mcpToolName(toolName);
  const listed = mcp !== undefined || table.some((row) => row.tool === toolName);
  const meta: ToolMeta = { ...(!listed && { unmappedTool: true as const }), ...(mcp !== undefined && { mcpServer: mcp.server, mcpTool: mcp.tool }) };
  return { toolName, arguments: Object.keys(meta).length === 0 ? args : { ...args, [TOOL_META_KEY]: meta } };
}

/** Whether a call was flagged as a tool the agent's table does not list (for the server's log line). */
export function isUnmappedCall(call: { readonly arguments: Readonly<Record<string, unknown>> }): boolean {
  const meta = call.arguments[TOOL_META_KEY];
  return typeof meta === 'object' && meta !== null && (meta as ToolMeta).unmappedTool === true;
}

/** The names an agent's table lists (mapped or passed), for the census. */
export function listedTools(table: readonly AgentToolRow[]): Set<string> {
  return new Set(table.map((row) => row.tool));
}
