import { unappliedRewriteText } from '../loop/reactions.ts';
import type { AgentAnswer, AgentBridge } from './agent-bridge.ts';
import type { BridgeRewriteBack } from './rewrite-back.ts';
import { CONTINUE_REASON, NO_OPINION, UNMAPPED_SEAM_ANSWERS, WITHHELD_OUTPUT, type SeamAnswers, askAsDeny, jsonAnswer } from './bridge-parts.ts';
import { safeContext, safeText } from './event-input.ts';

/**
 * The answers of the agents that run hookbox inside their own process (pi's
 * extension, OpenCode's plugin): one small JSON vocabulary, the same for
 * both, which the plugin client (`plugin-client.mjs`) checks and each
 * plugin turns into its agent's own terms. Empty = no opinion.
 *
 * - pre-tool: `{deny: reason}`, `{args}` (a rewrite: the tool's whole new input, which the plugin puts in place of the agent's)
 * - post-tool: `{content, isError?}` (the text the model reads in place of the output), `{context}` (appended to it)
 * - prompt: `{block: reason}`, `{text}` (a rewritten prompt), `{context}` (a message before the prompt)
 * - session start: `{context}`
 * - continuation: `{continue: reason}`
 * - compaction (pi's `session_before_compact`): `{block: reason}`
 */
export type PluginAnswer =
  | { readonly deny: string }
  | { readonly args: Record<string, unknown> }
  | { readonly content: string; readonly isError?: boolean; readonly context?: string }
  | { readonly context: string }
  | { readonly block: string }
  | { readonly text: string; readonly context?: string }
  | { readonly continue: string };

function answer(value: PluginAnswer): AgentAnswer {
  return jsonAnswer(value);
}

/**
 * Every seam's decision in the plugin vocabulary; `agent` names who cannot
 * ask ("pi", "OpenCode"): an ask is a deny there (a plugin has no one to ask
 * headless, and pi's and OpenCode's confirmations are outside the hook).
 */
export function pluginSeamAnswers(agent: string, rewriteBack?: BridgeRewriteBack): SeamAnswers {
  const context = (text: string | undefined) => (text === undefined ? {} : { context: safeContext(text) });
  return {
    ...UNMAPPED_SEAM_ANSWERS,
    'agent/session-start': (start) => (start.additionalContext === undefined ? NO_OPINION : answer({ context: safeContext(start.additionalContext) })),
    'agent/prompt-submit': (prompt, event) => {
      if (prompt.action === 'block') return answer({ block: safeText(prompt.reason) });
      if (prompt.content !== undefined && prompt.content !== event.payload.content) return answer({ text: safeContext(prompt.content), ...context(prompt.additionalContext) });
      return prompt.additionalContext === undefined ? NO_OPINION : answer({ context: safeContext(prompt.additionalContext) });
    },
    'tools/pre-execute': (pre, event) => {
      if (pre.action === 'allow' && pre.arguments !== undefined) {
        const back = rewriteBack?.(event, pre.arguments) ?? { kind: 'deny', why: `${agent} takes no rewritten input` };
        return answer(back.kind === 'deny' ? { deny: safeText(unappliedRewriteText(agent, pre.arguments, back.why)) } : { args: back.input });
      }
      if (pre.action === 'allow') return NO_OPINION;
      if (pre.action === 'deny') return answer({ deny: safeText(pre.reason ?? 'denied by a hookbox hook') });
      return answer({ deny: safeText(askAsDeny(`a hook in ${agent}`, pre.reason)) });
    },
    'tools/post-execute': (post) => {
      if (post.action === 'block') return answer({ content: safeContext(post.reason), isError: true });
      if (post.content !== undefined) return answer({ content: post.content === '' ? WITHHELD_OUTPUT : safeContext(post.content), ...context(post.additionalContext) });
      return post.additionalContext === undefined ? NO_OPINION : answer({ context: safeContext(post.additionalContext) });
    },
    'agent/turn-continuation': (next) => (next.action === 'stop' ? NO_OPINION : answer({ continue: safeText(next.reason ?? CONTINUE_REASON) })),
    'agent/pre-compact': (compact) => (compact.action === 'block' ? answer({ block: safeText(compact.reason) }) : NO_OPINION),
  };
}

/** The closed answer of each kind of event, for a bridge's `failClosedBy` table (`text` is `hookbox: <reason>`). */
export const PLUGIN_CLOSED = {
  preTool: (text: string): AgentAnswer => answer({ deny: text }),
  postTool: (text: string): AgentAnswer => answer({ content: `${WITHHELD_OUTPUT}: ${text}`, isError: true }),
  prompt: (text: string): AgentAnswer => answer({ block: text }),
} as const;

/** What a plugin agent can take back: a rewritten prompt and a replaced result, for every tool. */
export const PLUGIN_CAN_REPLACE: AgentBridge['canReplace'] = { prompt: true, toolResult: true };
