import type { ContinuationDecision } from '../seams/index.ts';
import type { AssistantStep } from './provider.ts';
import type { Session, TurnOutcome } from './session.ts';
import type { ToolExecutionResult } from './tool-registry.ts';

/**
 * One turn, following the three load-bearing decisions of
 * docs/rfc-interception-seams.md:
 * 1. the turn opens first and prompt-submit fires per drained prompt inside
 *    it; a fully blocked batch is a zero-step turn ending `rejected`;
 * 2. post-tool context is appended only after every tool result of a step;
 * 3. a forced `continue {reason}` goes through the steering channel and is
 *    recorded at the next step's top-of-loop drain, in the same turn.
 */
export async function runTurn(session: Session): Promise<TurnOutcome> {
  const turn = session.turn + 1;
  session.turn = turn;
  session.step = 0;
  session.turnOpen = true;
  session.log.append({ type: 'turn/start', turn, at: new Date().toISOString() });
  for (const context of session.takePendingContext()) {
    session.log.append({ type: 'context/message', turn, content: context.content, source: context.source });
  }

  const end = (reason: TurnOutcome['reason'], message?: string): TurnOutcome => {
    session.log.append({ type: 'turn/end', turn, reason, steps: session.step, ...(message !== undefined && { message }) });
    session.turnOpen = false;
    return { turn, reason, steps: session.step, ...(message !== undefined && { message }) };
  };

  // (1) prompt-submit per drained prompt, before its user/message.
  const batch = session.prompts.drain();
  const blockReasons: string[] = [];
  for (const prompt of batch) {
    const { decision } = await session.bus.dispatch('agent/prompt-submit', prompt, session.info());
    if (decision.action === 'block') {
      blockReasons.push(decision.reason);
      session.log.append({ type: 'prompt/blocked', turn, reason: decision.reason, content: prompt.content });
      continue;
    }
    const rewritten = decision.content !== undefined && decision.content !== prompt.content;
    session.log.append({
      type: 'user/message',
      turn,
      content: rewritten ? decision.content! : prompt.content,
      ...(rewritten && { originalContent: prompt.content }),
    });
    if (decision.additionalContext !== undefined) {
      session.log.append({ type: 'context/message', turn, content: decision.additionalContext, source: 'prompt-submit' });
    }
  }
  if (batch.length > 0 && blockReasons.length === batch.length) {
    return end('rejected', blockReasons.join('; '));
  }

  let continuations = 0;
  while (true) {
    if (session.signal.aborted) return end('cancelled');
    if (session.step >= session.maxSteps) return end('max-steps', `stopped after ${session.maxSteps} steps`);
    session.step += 1;
    const step = session.step;

    // (3) top-of-loop drain: steering (including a forced continue's reason).
    for (const content of session.steering.drain()) {
      session.log.append({ type: 'steering/message', turn, content });
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
    session.log.append({ type: 'assistant/message', turn, step, content: reply.text, toolCalls: [...reply.toolCalls] });

    if (reply.toolCalls.length > 0) {
      // (2) results first, every one of them; contexts after.
      const contexts: string[] = [];
      for (const call of reply.toolCalls) {
        session.log.append({ type: 'tool/call', turn, step, toolCallId: call.id, toolName: call.name, arguments: call.arguments });
        const executed: ToolExecutionResult = await session.tools.execute(call, session.info(), {
          cwd: session.cwd,
          signal: session.signal,
        });
        if (executed.asked !== undefined) {
          const { asks, resolution } = executed.asked;
          session.log.append({ type: 'tool/ask', turn, step, toolCallId: call.id, asks: [...asks], answer: resolution.action, reason: resolution.reason });
        }
        session.log.append({
          type: 'tool/result',
          turn,
          step,
          toolCallId: call.id,
          toolName: call.name,
          content: executed.result.content,
          isError: executed.result.isError,
          ...(executed.hookEffect !== undefined && { hookEffect: executed.hookEffect }),
        });
        if (executed.additionalContext !== undefined) contexts.push(executed.additionalContext);
      }
      for (const content of contexts) session.log.append({ type: 'context/message', turn, content, source: 'post-tool' });
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
        return end('completed', `continuation cap reached (${session.maxContinuations})`);
      }
      continuations += 1;
    }
    if (decision.reason !== undefined) session.steering.push(decision.reason);
  }
}
