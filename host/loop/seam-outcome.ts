/**
 * What a seam's decision leaves in the session log, the one place both
 * `hookbox run` (the loop: `turn.ts`, `tool-registry.ts`) and `hookbox serve`
 * (`host/serve/decide.ts`) take it from: a prompt's outcome, a tool call's
 * result as the model reads it after the pre- and post-tool decisions, and
 * that result's `tool/result` event. The loop and the server differ in when
 * these happen (the server sees a call's two halves as two agent events), not
 * in what is recorded.
 */
import { createHash } from 'node:crypto';
import type { SessionEvent } from '../log/index.ts';
import type { AttributedAsk, PostToolDecision, PreToolDecision, PromptDecision, ToolResult } from '../seams/index.ts';
import type { AskResolution } from './permission.ts';
import { deniedCallText, withheldResultText } from './reactions.ts';

/** A tool call's result as the model reads it, and what a hook did to it. */
export interface ToolOutcome {
  readonly result: ToolResult;
  /** Post-tool context (the loop appends it after every result of the step). */
  readonly additionalContext?: string;
  readonly hookEffect?: 'denied' | 'blocked' | 'replaced';
  /** A replaced result's original: its length and digest (its text only when the operator keeps it). */
  readonly original?: { readonly length: number; readonly sha256: string; readonly content?: string };
  /** When pre-tool hooks asked: every ask, attributed, and how it was resolved (for the log's `tool/ask`). */
  readonly asked?: { readonly asks: readonly AttributedAsk[]; readonly resolution: AskResolution };
}

/**
 * The events a prompt-submit decision records in turn `turn`: a block is
 * `prompt/blocked`; otherwise the prompt the model reads as `user/message`
 * (a rewrite with its original kept), then the decision's context.
 */
export function promptOutcome(turn: number, content: string, decision: PromptDecision): SessionEvent[] {
  if (decision.action === 'block') return [{ type: 'prompt/blocked', turn, reason: decision.reason, content }];
  const rewritten = decision.content !== undefined && decision.content !== content;
  return [
    { type: 'user/message', turn, content: rewritten ? decision.content! : content, ...(rewritten && { originalContent: content }) },
    ...(decision.additionalContext === undefined ? [] : [{ type: 'context/message' as const, turn, content: decision.additionalContext, source: 'prompt-submit' as const }]),
  ];
}

/** A call the pre-tool decision denied, as the model reads it; undefined when the call goes on. */
export function deniedOutcome(decision: PreToolDecision): ToolOutcome | undefined {
  return decision.action === 'deny' ? { result: { content: deniedCallText(decision.reason), isError: true }, hookEffect: 'denied' } : undefined;
}

/**
 * A tool's result after the post-tool decision: withheld on a block,
 * replaced by a content that differs from it (its original's length and
 * digest kept, its text when `keepOriginal`), else as the tool returned it;
 * with the decision's context either way but a block.
 */
export function postToolOutcome(result: ToolResult, decision: PostToolDecision, keepOriginal = false): ToolOutcome {
  if (decision.action === 'block') return { result: { content: withheldResultText(decision.reason), isError: true }, hookEffect: 'blocked' };
  const context = decision.additionalContext === undefined ? {} : { additionalContext: decision.additionalContext };
  if (decision.content === undefined || decision.content === result.content) return { result, ...context };
  const original = { length: result.content.length, sha256: createHash('sha256').update(result.content).digest('hex'), ...(keepOriginal && { content: result.content }) };
  return { result: { content: decision.content, isError: result.isError }, hookEffect: 'replaced', original, ...context };
}

/** The `tool/result` event of a call's outcome. */
export function toolResultEvent(turn: number, step: number, call: { readonly toolCallId: string; readonly toolName: string }, outcome: ToolOutcome): SessionEvent {
  return {
    type: 'tool/result',
    turn,
    step,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    content: outcome.result.content,
    isError: outcome.result.isError,
    ...(outcome.hookEffect !== undefined && { hookEffect: outcome.hookEffect }),
    ...(outcome.original !== undefined && { original: outcome.original }),
  };
}
