import OpenAI from 'openai';
import { advertisedToolNames } from '../helpers/mock-model/advertised-tools.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { CHAT_MOCK_MODEL, chatMessages, startChatMock, toolResults } from '../helpers/mock-model/openai-chat.ts';
import type { MockModel } from '../helpers/mock-model/script.ts';

let mock: MockModel | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function client(model: MockModel): OpenAI {
  return new OpenAI({ baseURL: `${model.url}/v1`, apiKey: 'sk-mock', maxRetries: 0 });
}

describe('the mock chat-completions model', () => {
  it('streams a scripted tool call that the OpenAI SDK assembles from its deltas', async () => {
    mock = await startChatMock([{ text: 'running it', toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }] }]);
    const stream = await client(mock).chat.completions.create({
      model: CHAT_MOCK_MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'go' }],
    });
    let text = '';
    const calls: { id?: string; name: string; args: string }[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? '';
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = (calls[delta.index] ??= { name: '', args: '' });
        if (delta.id) call.id = delta.id;
        call.name += delta.function?.name ?? '';
        call.args += delta.function?.arguments ?? '';
      }
      finish = choice.finish_reason ?? finish;
    }
    expect(text).toBe('running it');
    expect(calls).toEqual([{ id: 'call_0_0', name: 'bash', args: '{"command":"echo hi"}' }]);
    expect(finish).toBe('tool_calls');
  });

  it('answers a non-streamed request with one completion, and records what the model was shown next', async () => {
    mock = await startChatMock([{ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { text: 'all read' }]);
    const openai = client(mock);
    const first = await openai.chat.completions.create({ model: CHAT_MOCK_MODEL, messages: [{ role: 'user', content: 'read a.txt' }] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function).toEqual({ name: 'read', arguments: '{"path":"a.txt"}' });
    const second = await openai.chat.completions.create({
      model: CHAT_MOCK_MODEL,
      messages: [
        { role: 'user', content: 'read a.txt' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: [{ type: 'text', text: '[REDACTED]' }] },
      ],
    });
    expect(second.choices[0]!.message.content).toBe('all read');
    expect(second.choices[0]!.finish_reason).toBe('stop');
    expect(mock.turns).toHaveLength(2);
    expect(toolResults(mock.turns[1]!)).toEqual(['[REDACTED]']);
    expect(chatMessages(mock.turns[1]!).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('lists its model, answers plain text once the script is used up, and 404s what it does not mock', async () => {
    mock = await startChatMock([]);
    const models = await client(mock).models.list();
    expect(models.data.map((m) => m.id)).toEqual([CHAT_MOCK_MODEL]);
    const done = await client(mock).chat.completions.create({ model: CHAT_MOCK_MODEL, messages: [{ role: 'user', content: 'hi' }] });
    expect(done.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'done' });
    expect((await fetch(`${mock.url}/v1/embeddings`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect(mock.requests.map((r) => r.url)).toEqual(['/v1/models', '/v1/chat/completions', '/v1/embeddings']);
    expect(mock.turns).toHaveLength(1);
  });
});

describe('advertised tools in a chat-completions request', () => {
  it('are the function names, sorted and without repeats', () => {
    const body = { tools: [{ type: 'function', function: { name: 'write' } }, { type: 'function', function: { name: 'bash' } }, { type: 'function', function: { name: 'bash' } }, { type: 'function' }] };
    expect(advertisedToolNames('chat', body)).toEqual(['bash', 'write']);
  });
});
