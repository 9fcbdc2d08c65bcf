/**
 * The model-facing conversation (host/loop/conversation.ts), built from log
 * events alone: which events become which messages, and how a tool call left
 * unanswered by a crash gets its error result — compared whole.
 */
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../host/log/index.ts';
import { Conversation } from '../../host/loop/conversation.ts';

const INTERRUPTED = 'tool call interrupted: the session ended before it produced a result';
const call = (id: string, name = 'bash') => ({ id, name, arguments: { command: id } });
const assistant = (ids: string[], content = ''): SessionEvent => ({ type: 'assistant/message', turn: 1, step: 1, content, toolCalls: ids.map((id) => call(id)) });
const result = (id: string, content = `out ${id}`): SessionEvent => ({ type: 'tool/result', turn: 1, step: 1, toolCallId: id, toolName: 'bash', content, isError: false });

function conversationOf(events: SessionEvent[]): Conversation {
  const conversation = new Conversation();
  for (const event of events) conversation.apply(event);
  return conversation;
}

describe('Conversation', () => {
  it('keeps user, assistant, tool, context and steering messages in log order, and nothing else', () => {
    const conversation = conversationOf([
      { type: 'session/start', sessionId: 's', cwd: '/w', source: 'startup', at: 'now' },
      { type: 'turn/start', turn: 1, at: 'now' },
      { type: 'user/message', turn: 1, content: 'hi' },
      { type: 'prompt/blocked', turn: 1, reason: 'no', content: 'secret' },
      assistant(['c1'], 'running'),
      { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', arguments: {} },
      { type: 'tool/ask', turn: 1, step: 1, toolCallId: 'c1', asks: [{ hook: 'h' }], answer: 'allow', reason: 'ok' },
      { ...result('c1'), isError: true, hookEffect: 'replaced' } as SessionEvent,
      { type: 'context/message', turn: 1, content: 'ctx', source: 'post-tool' },
      { type: 'steering/message', turn: 1, content: 'steer' },
      { type: 'hook/invoke', hook: 'h', seam: 'agent/prompt-submit', durationUs: 1, outcome: 'no-opinion', applied: null },
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 1 },
    ]);
    expect(conversation.messages).toStrictEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'running', toolCalls: [call('c1')] },
      { role: 'tool', toolCallId: 'c1', toolName: 'bash', content: 'out c1', isError: true },
      { role: 'context', content: 'ctx' },
      { role: 'steering', content: 'steer' },
    ]);
  });

  it.each([
    ['the next assistant message', assistant(['c3'])],
    ['context', { type: 'context/message', turn: 1, content: 'ctx', source: 'inject' } as SessionEvent],
    ['steering', { type: 'steering/message', turn: 1, content: 'steer' } as SessionEvent],
    ['the turn’s end', { type: 'turn/end', turn: 1, reason: 'cancelled', steps: 1 } as SessionEvent],
  ])('answers every call still open, in call order, with an interrupted error before %s', (_, next) => {
    const conversation = conversationOf([assistant(['c1', 'c2', 'c0']), result('c2'), next]);
    const interrupted = (id: string) => ({ role: 'tool', toolCallId: id, toolName: 'bash', content: INTERRUPTED, isError: true });
    expect(conversation.messages.slice(2, 4)).toStrictEqual([interrupted('c1'), interrupted('c0')]);
    // Once answered, a call is not answered again.
    conversation.apply({ type: 'turn/end', turn: 1, reason: 'completed', steps: 1 });
    conversation.settle();
    const answers = conversation.messages.filter((message) => message.role === 'tool' && ['c1', 'c2', 'c0'].includes(message.toolCallId));
    expect(answers).toHaveLength(3);
  });

  it('settle answers the calls a resumed log left open; with none open it adds nothing', () => {
    const conversation = conversationOf([assistant(['c1'])]);
    conversation.settle();
    expect(conversation.messages.at(-1)).toStrictEqual({ role: 'tool', toolCallId: 'c1', toolName: 'bash', content: INTERRUPTED, isError: true });
    const answered = conversationOf([assistant(['c1']), result('c1')]);
    answered.settle();
    expect(answered.messages).toHaveLength(2);
  });

  it('an interrupted call keeps its own tool name', () => {
    const conversation = conversationOf([{ type: 'assistant/message', turn: 1, step: 1, content: '', toolCalls: [call('c1', 'read_file')] }]);
    conversation.settle();
    expect(conversation.messages.at(-1)).toStrictEqual({ role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: INTERRUPTED, isError: true });
  });
});
