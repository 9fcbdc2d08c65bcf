import path from 'node:path';

/**
 * The way back of a pre-tool rewrite (docs/rfc-tool-input-rewrite.md, "Every
 * agent"): a hook rewrites hookbox's arguments (`bash {command}`), the agent
 * runs its own tool input (`Bash {command, description, timeout}`). Each
 * agent declares, per tool of its table, how a rewrite maps back — exactly,
 * or not at all (then the call is denied with the reason, never run
 * unrewritten). The tables are keyed by the agent's tool names, so a tool
 * added to an agent's table without an answer fails `tsc`.
 */

/** The agent's own tool call, as its event carried it (what a rewrite is mapped back onto). */
export interface AgentToolCall {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** What a rewrite comes to in the agent: the tool input to run, or why it cannot be applied. */
export type RewriteBack = { readonly kind: 'input'; readonly input: Record<string, unknown> } | { readonly kind: 'deny'; readonly why: string };

/** What a way back is given: the agent's call, hookbox's arguments before and after the rewrite, the session's folder. */
export interface RewriteCase {
  readonly call: AgentToolCall;
  readonly before: Readonly<Record<string, unknown>>;
  readonly after: Readonly<Record<string, unknown>>;
  readonly cwd: string;
}

/** How one agent tool takes a rewrite: a mapping that returns the new input or why it is not exact, or always a deny. */
export type RewriteWay = { readonly kind: 'map'; back(rewrite: RewriteCase): Record<string, unknown> | string } | { readonly kind: 'deny'; readonly why: string };

/** Every tool of an agent's table with its way back. */
export type RewriteWays<T extends string> = { readonly [K in T]: RewriteWay };

/** A way that never maps: the reason names why. */
export function denyWay(why: string): RewriteWay {
  return { kind: 'deny', why };
}

/** A passed tool (hookbox has no tool of its own for it, so no argument schema to check a rewrite against). */
export const PASSED = denyWay('hookbox has no tool of its own for it, so a rewrite of its arguments is not checked against any schema');

/** Keys of `after` that `allowed` does not list, for the reason. */
function extraKeys(after: Readonly<Record<string, unknown>>, allowed: readonly string[]): string | undefined {
  const extra = Object.keys(after).filter((key) => !allowed.includes(key));
  return extra.length === 0 ? undefined : `the rewrite has ${extra.map((key) => `"${key}"`).join(', ')}, which the tool does not take`;
}

/**
 * A shell tool: hookbox's `{command, timeoutMs?}` → the original input with
 * its command (and timeout, where the agent names one) replaced; every other
 * key (`description`, `run_in_background`) kept.
 */
export function shellWay(commandKey: string, timeoutKey?: string): RewriteWay {
  return {
    kind: 'map',
    back({ call, after }) {
      const extra = extraKeys(after, timeoutKey === undefined ? ['command'] : ['command', 'timeoutMs']);
      if (extra !== undefined) return extra;
      if (typeof after.command !== 'string') return 'the rewrite has no command string';
      const input: Record<string, unknown> = { ...call.input, [commandKey]: after.command };
      if (timeoutKey !== undefined) {
        if (after.timeoutMs === undefined) delete input[timeoutKey];
        else input[timeoutKey] = after.timeoutMs;
      }
      return input;
    },
  };
}

/** The path the agent is given: its own spelling when the rewrite kept the file, else absolute. */
function pathBack(call: AgentToolCall, key: string, after: unknown, cwd: string): string | undefined {
  if (typeof after !== 'string' || after === '') return undefined;
  const original = call.input[key];
  const absolute = path.resolve(cwd, after);
  return typeof original === 'string' && path.resolve(cwd, original) === absolute ? original : absolute;
}

/** A file tool whose arguments are exactly hookbox's (`read_file {path}`, `write_file {path, content}`): the path key (and content key) replaced. */
export function fileWay(pathKey: string, contentKey?: string): RewriteWay {
  return {
    kind: 'map',
    back({ call, after, cwd }) {
      const extra = extraKeys(after, contentKey === undefined ? ['path'] : ['path', 'content']);
      if (extra !== undefined) return extra;
      const file = pathBack(call, pathKey, after.path, cwd);
      if (file === undefined) return 'the rewrite has no path';
      if (contentKey === undefined) return { ...call.input, [pathKey]: file };
      if (typeof after.content !== 'string') return 'the rewrite has no content string';
      return { ...call.input, [pathKey]: file, [contentKey]: after.content };
    },
  };
}

/**
 * An edit hookbox shows as `write_file {path, content}` where the content is
 * only the text the edit inserts: a changed path maps back exactly, changed
 * content does not (the agent takes old/new strings, not a file).
 */
export function editWay(pathKey: string, tool: string): RewriteWay {
  return {
    kind: 'map',
    back({ call, before, after, cwd }) {
      const extra = extraKeys(after, ['path', 'content']);
      if (extra !== undefined) return extra;
      if (after.content !== before.content) return `${tool} takes old and new strings, not the file's content, so a rewritten content has no exact form there`;
      const file = pathBack(call, pathKey, after.path, cwd);
      return file === undefined ? 'the rewrite has no path' : { ...call.input, [pathKey]: file };
    },
  };
}

/** The agent's input for a rewrite, by the agent's ways; a tool its table does not list (an MCP tool, an unknown one) is a deny. */
export function rewriteBack(ways: Readonly<Record<string, RewriteWay>>, rewrite: RewriteCase): RewriteBack {
  const way = Object.hasOwn(ways, rewrite.call.toolName) ? ways[rewrite.call.toolName] : undefined;
  if (way === undefined) return { kind: 'deny', why: `hookbox has no way back for the tool "${rewrite.call.toolName}"` };
  if (way.kind === 'deny') return { kind: 'deny', why: `${rewrite.call.toolName}: ${way.why}` };
  const back = way.back(rewrite);
  return typeof back === 'string' ? { kind: 'deny', why: `${rewrite.call.toolName}: ${back}` } : { kind: 'input', input: back };
}
