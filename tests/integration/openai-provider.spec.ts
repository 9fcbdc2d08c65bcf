import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../host/errors.ts';
import { Session } from '../../host/loop/index.ts';
import { OpenAIProvider } from '../../host/providers/openai.ts';
import { builtinTools } from '../../host/tools/index.ts';
import { type TestWorkspace, events, makeWorkspace, sequence } from '../helpers/session.ts';

/** A local server speaking the chat-completions protocol, answering from a queue. */
interface Reply {
  status?: number;
  body: unknown;
}
let server: Server;
let baseURL: string;
const replies: Reply[] = [];
const requests: { url: string; auth: string | undefined; body: { messages: { role: string; content: unknown; tool_call_id?: string }[]; tools?: unknown[] } }[] = [];

function completion(message: Record<string, unknown>) {
  return { id: 'x', object: 'chat.completion', created: 0, model: 'test', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', ...message } }] };
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(body) });
      const reply = replies.shift() ?? { status: 500, body: { error: { message: 'no reply queued' } } };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace();
  replies.length = 0;
  requests.length = 0;
});
afterEach(() => workspace.dispose());

function provider() {
  return new OpenAIProvider({ baseURL, model: 'test-model', apiKey: 'sk-test', maxRetries: 0 });
}

async function session() {
  return Session.start({ cwd: workspace.dir, logPath: workspace.logPath, tools: builtinTools(), provider: provider() });
}

describe('OpenAI-compatible provider against a local server', () => {
  it('answers with text, sending the key, the model and the tools', async () => {
    replies.push({ body: completion({ content: 'hello there' }) });
    const s = await session();
    try {
      expect(await s.prompt('hi')).toEqual({ turn: 1, reason: 'completed', steps: 1 });
    } finally {
      await s.close();
    }
    expect(requests[0]?.url).toBe('/v1/chat/completions');
    expect(requests[0]?.auth).toBe('Bearer sk-test');
    expect(requests[0]?.body.tools).toHaveLength(4);
    expect(requests[0]?.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sequence(events(workspace))).toContain('assistant/message 1.1: hello there');
  });

  it('runs a multi-step turn with tool calls, results adjacent to their call', async () => {
    replies.push({
      body: completion({
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"a.txt","content":"hi"}' } },
          { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
        ],
      }),
    });
    replies.push({ body: completion({ content: 'wrote and read it' }) });
    const s = await session();
    try {
      expect((await s.prompt('write a file')).steps).toBe(2);
    } finally {
      await s.close();
    }
    const second = requests[1]?.body.messages ?? [];
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(second[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: 'wrote 2 bytes to a.txt' });
    expect(second[4]).toMatchObject({ role: 'tool', tool_call_id: 'call_2', content: 'hi' });
  });

  it.each([
    [500, 'HTTP 500'],
    [401, 'HTTP 401'],
    [429, 'HTTP 429'],
  ])('HTTP %i ends the turn with reason error and the message', async (status, text) => {
    replies.push({ status, body: { error: { message: 'server says no' } } });
    const s = await session();
    try {
      const outcome = await s.prompt('hi');
      expect(outcome.reason).toBe('error');
      expect(outcome.message).toContain(text);
      expect(outcome.message).toContain('server says no');
    } finally {
      await s.close();
    }
  });

  it('a network error ends the turn with reason error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const s = await Session.start({
      cwd: workspace.dir,
      logPath: workspace.logPath,
      provider: new OpenAIProvider({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'k', maxRetries: 0 }),
    });
    try {
      const outcome = await s.prompt('hi');
      expect(outcome.reason).toBe('error');
      expect(outcome.message).toMatch(/model request to http:\/\/127\.0\.0\.1:\d+\/v1 failed: Connection error/);
    } finally {
      await s.close();
    }
  });

  it('a missing key is a clear error before any request', () => {
    expect(() => new OpenAIProvider({ baseURL, model: 'm', apiKey: undefined, apiKeySource: 'the DEEPSEEK_API_KEY environment variable' })).toThrow(
      new ProviderError(`no API key for ${baseURL}: set the DEEPSEEK_API_KEY environment variable (any non-empty value for servers that need none)`),
    );
    expect(requests).toHaveLength(0);
  });
});
