import type { SeamBus } from '../events/index.ts';
import type { SessionEvent, TurnEndReason } from '../log/index.ts';
import type { ContinuationDecision, SessionInfo } from '../seams/index.ts';
import type { QueuedPrompt, Queue } from './queue.ts';
import { continuationCapReason } from './reactions.ts';
import { promptOutcome, toolResultEvent } from './seam-outcome.ts';
import type { Conversation } from './conversation.ts';
import type { AssistantStep, ModelProvider } from './provider.ts';
import type { ToolExecutionResult, ToolRegistry } from './tool-registry.ts';
import { rewriteEvent } from './tool-rewrite.ts';

/** How a turn ended. */
export interface TurnOutcome {
  readonly turn: number;
  readonly reason: TurnEndReason;
  readonly steps: number;
  readonly message?: string;
}

/** Where the session is: the open turn's number (or the last one's), its step, and whether a turn is open. */
export interface TurnPosition {
  turn: number;
  step: number;
  open: boolean;
}

/**
 * What a turn needs from its session, and nothing more: the session keeps
 * these private and hands them to `runTurn` only.
 */
export interface TurnHost {
  readonly cwd: string;
  readonly bus: SeamBus;
  readonly tools: ToolRegistry;
  readonly provider: ModelProvider;
  readonly conversation: Conversation;
  readonly prompts: Queue<QueuedPrompt>;
  readonly steering: Queue<string>;
  readonly maxSteps: number;
  readonly maxContinuations: number;
  readonly signal: AbortSignal;
  /** The turn and step counters, which only the turn advances. */
  readonly position: TurnPosition;
  append(event: SessionEvent): void;
  /** Context waiting for a turn to open, taken by the turn that opens. */
  takePendingContext(): { content: string; source: 'session-start' | 'inject' }[];
  info(): SessionInfo;
}

/**
 * One turn, following the three load-bearing decisions of
 * docs/rfc-interception-seams.md:
 * 1. the turn opens first and prompt-submit fires per drained prompt inside
 *    it; a fully blocked batch is a zero-step turn ending `rejected`;
 * 2. post-tool context is appended only after every tool result of a step;
 * 3. a forced `continue {reason}` goes through the steering channel and is
 *    recorded at the next step's top-of-loop drain, in the same turn.
 */
export async function runTurn(session: TurnHost): Promise<TurnOutcome> {
  const position = session.position;
  const turn = position.turn + 1;
  position.turn = turn;
  position.step = 0;
  position.open = true;
  session.append({ type: 'turn/start', turn, at: new Date().toISOString() });
  for (const context of session.takePendingContext()) {
    session.append({ type: 'context/message', turn, content: context.content, source: context.source });
  }

  const end = (reason: TurnOutcome['reason'], message?: string): TurnOutcome => {
    session.append({ type: 'turn/end', turn, reason, steps: position.step, ...(message !== undefined && { message }) });
    position.open = false;
    return { turn, reason, steps: position.step, ...(message !== undefined && { message }) };
  };

  // (1) prompt-submit per drained prompt, before its user/message.
  const batch = session.prompts.drain();
  const blockReasons: string[] = [];
  for (const prompt of batch) {
    const { decision } = await session.bus.dispatch('agent/prompt-submit', prompt, session.info());
    for (const event of promptOutcome(turn, prompt.content, decision)) session.append(event);
    if (decision.action === 'block') blockReasons.push(decision.reason);
  }
  if (batch.length > 0 && blockReasons.length === batch.length) {
    return end('rejected', blockReasons.join('; '));
  }

  let continuations = 0;
  while (true) {
    if (session.signal.aborted) return end('cancelled');
    if (position.step >= session.maxSteps) return end('max-steps', `stopped after ${session.maxSteps} steps`);
    position.step += 1;
    const step = position.step;

    // (3) top-of-loop drain: steering (including a forced continue's reason).
    for (const content of session.steering.drain()) {
      session.append({ type: 'steering/message', turn, content });
    }

    let reply: AssistantStep;
    try {
      reply = await session.provider.complete({
        messages: session.conversation.messages,
        tools: session.tools.specs(),
        signal: session.signal,
      });
    } catch (error) {
      if (session.signal.aborted) return end('cancelled');
      return end('error', (error as Error).message);
    }
    session.append({ type: 'assistant/message', turn, step, content: reply.text, toolCalls: [...reply.toolCalls] });

    if (reply.toolCalls.length > 0) {
      // (2) results first, every one of them; contexts after.
      const contexts: string[] = [];
      for (const call of reply.toolCalls) {
        session.append({ type: 'tool/call', turn, step, toolCallId: call.id, toolName: call.name, arguments: call.arguments });
        const executed: ToolExecutionResult = await session.tools.execute(
          call,
          session.info(),
          { cwd: session.cwd, signal: session.signal },
          // Before the tool runs: the durable record of what will run instead of what the model asked.
          (rewrite) => session.append(rewriteEvent(turn, step, { toolCallId: call.id, toolName: call.name }, rewrite)),
        );
        if (executed.asked !== undefined) {
          const { asks, resolution } = executed.asked;
          session.append({ type: 'tool/ask', turn, step, toolCallId: call.id, asks: [...asks], answer: resolution.action, reason: resolution.reason });
        }
        session.append(toolResultEvent(turn, step, { toolCallId: call.id, toolName: call.name }, executed));
        if (executed.additionalContext !== undefined) contexts.push(executed.additionalContext);
      }
      for (const content of contexts) session.append({ type: 'context/message', turn, content, source: 'post-tool' });
      continue;
    }

    // No tool calls: the model is done unless the continuation seam forces it on.
    const initial: ContinuationDecision = session.steering.size > 0 ? { action: 'continue' } : { action: 'stop' };
    const { decision } = await session.bus.dispatch(
      'agent/turn-continuation',
      { continuations, ...(reply.text !== '' && { lastAssistantText: reply.text }) },
      session.info(),
      initial,
    );
    if (decision.action === 'stop') return end('completed');
    if (session.steering.size === 0) {
      // Forced on by a hook, not by pending steering: the loop guard applies.
      if (continuations >= session.maxContinuations) {
        return end('completed', continuationCapReason(session.maxContinuations));
      }
      continuations += 1;
    }
    if (decision.reason !== undefined) session.steering.push(decision.reason);
  }
}
