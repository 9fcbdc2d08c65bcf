import { isAbsolute, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AgentSeamEvent, RewriteBack, RewriteInput } from './agent-bridge.ts';
import type { OurToolCall } from './tool-names.ts';

/**
 * The way back of a pre-tool rewrite, for the agents that take one
 * (docs/rfc-tool-input-rewrite.md, "Every agent: the mapping"): hookbox's
 * final arguments become the agent's own tool input, exactly, or the call is
 * denied with the reason. Exact means: every argument the rewrite changed has
 * one key in the agent's input that carries it unchanged; every other key of
 * the agent's input (a shell's `description`, `timeout`) is kept as the
 * agent sent it. An edit's new text (the agent's old/new strings), a tool
 * hookbox passes under its own name, an argument the rewrite drops: no
 * exact way back, so no way back.
 */

/** One agent tool's way back. */
export interface ToolWayBack {
  /** hookbox's argument → the agent's key for it (several: the first the original input has, else the first). */
  readonly keys: Readonly<Record<string, string | readonly string[]>>;
  /** hookbox's arguments that are paths: absolute again where the agent's original was (hookbox's tools take them relative). */
  readonly paths?: readonly string[];
  /** Why a change to any other argument cannot be carried back (an edit's old/new strings). */
  readonly inexact?: string;
}

/** An agent's way back per tool of its own (a tool not listed takes no rewrite). */
export type WayBackTable = Readonly<Record<string, ToolWayBack>>;

/** The inexact reason of an edit tool: its content is a replacement of old by new text, not the file. */
export const EDIT_INEXACT = 'an edit names old and new text, not the content written, so a rewritten content has no exact way back';

/**
 * An agent's `rewriteInput` from its tool table (`fromTool`: the same
 * mapping its events are read with) and its way-back table.
 */
export function wayBackBy(agent: string, fromTool: (toolName: string, input: Readonly<Record<string, unknown>>, cwd: string) => OurToolCall, table: WayBackTable): RewriteInput {
  return (toolName, original, final, cwd) => {
    const row = Object.hasOwn(table, toolName) ? table[toolName] : undefined;
    if (row === undefined) return { reason: `${agent}'s tool ${JSON.stringify(toolName)} takes no rewritten input` };
    const ours = fromTool(toolName, original, cwd).arguments;
    const input: Record<string, unknown> = { ...original };
    for (const key of new Set([...Object.keys(ours), ...Object.keys(final)])) {
      if (isDeepStrictEqual(ours[key], final[key])) continue;
      if (!Object.hasOwn(final, key)) return { reason: `the rewrite drops ${JSON.stringify(key)}, which ${agent}'s ${toolName} cannot drop` };
      const target = Object.hasOwn(row.keys, key) ? row.keys[key] : undefined;
      if (target === undefined) return { reason: row.inexact ?? `${agent}'s ${toolName} has no input for ${JSON.stringify(key)}` };
      const name = typeof target === 'string' ? target : (target.find((candidate) => Object.hasOwn(original, candidate)) ?? target[0]!);
      const value = final[key];
      const wasAbsolute = typeof original[name] === 'string' && isAbsolute(original[name] as string);
      input[name] = row.paths?.includes(key) === true && typeof value === 'string' && wasAbsolute ? resolve(cwd, value) : value;
    }
    return { input };
  };
}

/**
 * The agent's input for a pre-tool event's rewritten arguments, through the
 * bridge's way back; a bridge with none, or an event that does not carry the
 * agent's own call, has no way back.
 */
export function rewriteBack(rewriteInput: RewriteInput | undefined, event: AgentSeamEvent, final: Readonly<Record<string, unknown>>): RewriteBack {
  if (rewriteInput === undefined) return { reason: 'the agent has no field that takes a rewritten input' };
  if (event.agentTool === undefined) return { reason: 'the event does not carry the agent\'s own call' };
  return rewriteInput(event.agentTool.name, event.agentTool.input, final, event.cwd);
}
