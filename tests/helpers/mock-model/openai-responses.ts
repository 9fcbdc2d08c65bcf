import type { ServerResponse } from 'node:http';
import { type MockDialect, type MockModel, type RecordedRequest, type ScriptedStep, type StepSource, sse, startMockModel } from './script.ts';

/**
 * The OpenAI Responses API as Codex 0.169.0 consumes it: `POST /v1/responses`
 * with `stream: true`, answered by SSE `response.created`, per output item
 * `response.output_item.added` / `response.output_text.delta` /
 * `response.output_item.done` (a `message` with `output_text` content, or a
 * `function_call` with `name`, `arguments` as a JSON string and `call_id`),
 * then `response.completed` with usage.
 */
export const responsesDialect: MockDialect = {
  isTurn: (request) => request.method === 'POST' && request.url.split('?')[0]!.endsWith('/responses'),
  writeStep: (res, step, turn) => writeResponse(res, step, turn),
};

/** Starts a mock Responses API on loopback; Codex's `base_url` is `<url>/v1`. */
export function startResponsesMock(script: readonly StepSource[]): Promise<MockModel> {
  return startMockModel(responsesDialect, script);
}

function writeResponse(res: ServerResponse, step: ScriptedStep, turn: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `resp_${turn}`;
  let seq = 0;
  const event = (type: string, fields: Record<string, unknown>): void =>
    sse(res, { type, sequence_number: seq++, ...fields }, type);
  event('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
  let index = 0;
  // Every finished item, repeated in `response.completed` as the real API does (the Agents SDK reads them there).
  const output: unknown[] = [];
  if (step.text !== undefined) {
    const item = { type: 'message', id: `msg_${turn}`, role: 'assistant', status: 'in_progress', content: [] };
    event('response.output_item.added', { output_index: index, item });
    event('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: step.text });
    const done = { ...item, status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
    event('response.output_item.done', { output_index: index, item: done });
    output.push(done);
    index++;
  }
  for (const [n, call] of (step.toolCalls ?? []).entries()) {
    const common = { id: `fc_${turn}_${n}`, call_id: `call_${turn}_${n}`, name: call.name, status: 'completed' };
    const item =
      call.input === undefined
        ? { type: 'function_call', ...common, arguments: JSON.stringify(call.arguments) }
        : { type: 'custom_tool_call', ...common, input: call.input };
    event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
    event('response.output_item.done', { output_index: index, item });
    output.push(item);
    index++;
  }
  event('response.completed', {
    response: {
      id,
      object: 'response',
      status: 'completed',
      output,
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
    },
  });
  res.end();
}

/** The `input` items of a recorded Responses request (what the model was shown). */
export function responsesInput(request: RecordedRequest): Record<string, unknown>[] {
  const body = request.body as { input?: unknown } | null;
  return Array.isArray(body?.input) ? (body.input as Record<string, unknown>[]) : [];
}

/** The `output` of each function or custom tool call output in a request (what the model got back from tools). */
export function functionCallOutputs(request: RecordedRequest): string[] {
  return responsesInput(request)
    .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    .map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
}
