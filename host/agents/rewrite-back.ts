import type { AgentSeamEvent } from './agent-bridge.ts';
import { type RewriteBack, type RewriteWay, rewriteBack } from './tool-rewrite.ts';

/** A bridge's `rewriteBack`: a pre-tool event and hookbox's final arguments → the agent's input, or why not. */
export type BridgeRewriteBack = (event: AgentSeamEvent<'tools/pre-execute'>, args: Readonly<Record<string, unknown>>) => RewriteBack;

/**
 * The `rewriteBack` of a bridge whose pre-tool events carry the agent's own
 * call (`agentCall`), from its ways per tool (tool-rewrite.ts): Gemini CLI,
 * Copilot CLI, OpenCode, Kilo and pi. A tool not listed (an MCP tool, an
 * unknown one) and an event without the agent's call are a deny.
 */
export function rewriteBackBy(ways: Readonly<Record<string, RewriteWay>>): BridgeRewriteBack {
  return (event, args) =>
    event.agentCall === undefined
      ? { kind: 'deny', why: 'the event carried no tool call of the agent to rewrite' }
      : rewriteBack(ways, { call: event.agentCall, before: event.payload.arguments, after: args, cwd: event.cwd });
}
