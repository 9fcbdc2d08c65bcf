/**
 * MCP tool calls as every agent's bridge names them: `mcp__<server>__<tool>`
 * (the server's name has no `__`). No PDK globals.
 */

/** The server and tool of an MCP tool name, or `undefined` for a tool that is not an MCP server's. */
export function mcpTool(toolName: string): { readonly server: string; readonly tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return match === null ? undefined : { server: match[1] as string, tool: match[2] as string };
}
