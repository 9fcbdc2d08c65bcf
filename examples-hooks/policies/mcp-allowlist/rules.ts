/**
 * mcp-allowlist's pure policy: which MCP servers and tools an agent may call,
 * by the `mcp__<server>__<tool>` name every bridge gives an MCP tool
 * (`shared/mcp.ts`). Patterns: `server` (all its tools), `server/tool`, `*`
 * in either part. Reasons start `mcp-allowlist: <rule>:`.
 */
import { oneOf, stringList } from '../shared/config.ts';
import { mcpTool } from '../shared/mcp.ts';

export const RULES = ['denied', 'unlisted', 'config-error'] as const;

interface Pattern {
  readonly source: string;
  readonly regex: RegExp;
}

/** The config as the host validated it (defaults filled in): `host/catalog/mcp-allowlist.ts`. */
export interface McpConfig {
  readonly allow: readonly Pattern[];
  readonly deny: readonly Pattern[];
  readonly unlisted: 'deny' | 'ask';
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny' | 'ask'; readonly reason: string };

function part(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
}

function compile(source: string): Pattern {
  const [server, tool] = source.includes('/') ? [source.slice(0, source.indexOf('/')), source.slice(source.indexOf('/') + 1)] : [source, '*'];
  return { source, regex: new RegExp(`^${part(server)}/${part(tool)}$`) };
}

export function parseConfig(value: unknown): McpConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const allow = stringList(config.allow);
  const deny = stringList(config.deny);
  const unlisted = oneOf(config.unlisted, ['deny', 'ask'] as const);
  if (allow === undefined || deny === undefined) return { error: 'allow, deny: expected arrays of server or server/tool patterns' };
  if (unlisted === undefined) return { error: 'unlisted: expected deny or ask' };
  return { allow: allow.map(compile), deny: deny.map(compile), unlisted };
}

/** Judges one pre-tool call: a denied MCP tool is denied; with an allow list, one on none of it gets `unlisted`. */
export function judgeCall(toolName: string, config: McpConfig): Verdict {
  const mcp = mcpTool(toolName);
  if (mcp === undefined) return { action: 'allow' };
  const name = `${mcp.server}/${mcp.tool}`;
  const denied = config.deny.find((p) => p.regex.test(name));
  if (denied !== undefined) return { action: 'deny', reason: `mcp-allowlist: denied: the MCP tool ${JSON.stringify(name)} is denied by ${JSON.stringify(denied.source)}` };
  if (config.allow.length > 0 && !config.allow.some((p) => p.regex.test(name))) {
    return { action: config.unlisted, reason: `mcp-allowlist: unlisted: the MCP tool ${JSON.stringify(name)} is not on the allow list` };
  }
  return { action: 'allow' };
}
