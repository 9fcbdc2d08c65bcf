import type { ServerResponse } from 'node:http';
import { type MockDialect, type MockModel, type RecordedRequest, SCRIPT_DONE, type ScriptedStep, type StepSource, sse, startMockModel } from './script.ts';

/** The model id the mock lists and names in every completion. */
export const CHAT_MOCK_MODEL = 'mock-chat-model';

/**
 * The OpenAI chat-completions API as OpenAI-compatible agents (OpenCode,
 * pi, Qwen Code) consume it: `POST /v1/chat/completions`. With
 * `stream: true` the step is SSE `chat.completion.chunk`s — a role chunk,
 * the text as one `content` delta, each tool call as a `tool_calls` delta
 * (`index`, `id`, `type: "function"`, `function.name`, then its
 * `function.arguments` JSON string in its own delta), a final chunk with
 * `finish_reason` (`tool_calls` or `stop`) and usage, then `data: [DONE]`.
 * Without it, one `chat.completion` object. `GET /v1/models` lists one model.
 */
export const chatDialect: MockDialect = {
  isTurn: (request) => request.method === 'POST' && request.url.split('?')[0]!.endsWith('/chat/completions'),
  writeStep: (res, step, turn, request) => {
    const streamed = (request.body as { stream?: unknown } | null)?.stream === true;
    if (streamed) writeStream(res, step, turn);
    else writeCompletion(res, step, turn);
  },
  answerOther: (req, res) => {
    if (req.method === 'GET' && req.url.split('?')[0]!.endsWith('/models')) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: [{ id: CHAT_MOCK_MODEL, object: 'model', created: 0, owned_by: 'hookbox-tests' }] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not mocked","type":"not_found"}}');
  },
};

/**
 * Starts a mock chat-completions API on loopback; an agent's OpenAI-compatible
 * provider base URL is `<url>/v1`.
 */
export function startChatMock(script: readonly StepSource[]): Promise<MockModel> {
  return startMockModel(chatDialect, script);
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function toolCalls(step: ScriptedStep, turn: number): { id: string; type: 'function'; function: { name: string; arguments: string } }[] {
  return (step.toolCalls ?? []).map((call, n) => ({
    id: `call_${turn}_${n}`,
    type: 'function' as const,
    // Chat completions have no freeform tool calls; a raw `input` is sent as the arguments text.
    function: { name: call.name, arguments: call.input ?? JSON.stringify(call.arguments) },
  }));
}

function finishReason(step: ScriptedStep): 'tool_calls' | 'stop' {
  return (step.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop';
}

function writeCompletion(res: ServerResponse, step: ScriptedStep, turn: number): void {
  const calls = toolCalls(step, turn);
  const message: Record<string, unknown> = { role: 'assistant', content: step.text ?? null };
  if (calls.length > 0) message.tool_calls = calls;
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      id: `chatcmpl_${turn}`,
      object: 'chat.completion',
      created: 0,
      model: CHAT_MOCK_MODEL,
      choices: [{ index: 0, message, finish_reason: finishReason(step), logprobs: null }],
      usage: USAGE,
    }),
  );
}

function writeStream(res: ServerResponse, step: ScriptedStep, turn: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): void =>
    sse(res, {
      id: `chatcmpl_${turn}`,
      object: 'chat.completion.chunk',
      created: 0,
      model: CHAT_MOCK_MODEL,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...extra,
    });
  chunk({ role: 'assistant', content: '' });
  if (step.text !== undefined) chunk({ content: step.text });
  for (const [index, call] of toolCalls(step, turn).entries()) {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] });
  }
  chunk({}, finishReason(step), { usage: USAGE });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** One chat-completions message as an agent sends it. */
export interface ChatMessage {
  readonly role?: string;
  readonly content?: unknown;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly { id?: string; function?: { name?: string; arguments?: string } }[];
}

/** The `messages` of a recorded request (the conversation the model was shown). */
export function chatMessages(request: RecordedRequest): ChatMessage[] {
  const body = request.body as { messages?: unknown } | null;
  return Array.isArray(body?.messages) ? (body.messages as ChatMessage[]) : [];
}

/** The text of each `role: "tool"` message in a request (what the model got back from tools). */
export function toolResults(request: RecordedRequest): string[] {
  return chatMessages(request)
    .filter((message) => message.role === 'tool')
    .map((message) => contentText(message.content));
}

/** A message's content as text: a string as is, content parts' `text` joined, anything else as JSON. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return (content as { text?: unknown }[]).map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part))).join('');
  }
  return JSON.stringify(content ?? null);
}

/**
 * A script for an agent that also asks the model for things besides its
 * turns (OpenCode titles each session in a request without tools): a
 * request with no `tools` is answered `aside`, every other consumes the
 * next step of `script` (then {@link SCRIPT_DONE}).
 */
export function agentTurnsOnly(script: readonly StepSource[], aside: ScriptedStep = { text: 'Session title' }): StepSource[] {
  let next = 0;
  const answer = (request: RecordedRequest): ScriptedStep => {
    const tools = (request.body as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools) || tools.length === 0) return aside;
    const source = script[next++] ?? SCRIPT_DONE;
    return typeof source === 'function' ? source(request) : source;
  };
  // Enough entries for every agent turn plus one aside each; past them the mock answers SCRIPT_DONE.
  return Array.from({ length: 2 * script.length + 4 }, () => answer);
}

/** The agent turns among recorded requests: those offering tools (an agent's asides, such as OpenCode's session title, offer none). */
export function agentTurnRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => {
    const tools = (request.body as { tools?: unknown } | null)?.tools;
    return Array.isArray(tools) && tools.length > 0;
  });
}
