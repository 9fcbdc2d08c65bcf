import type { ServerResponse } from 'node:http';
import { type MockDialect, type MockModel, type RecordedRequest, type ScriptedStep, type StepSource, sse, startMockModel } from './script.ts';

/**
 * The Gemini API as Gemini CLI 0.61.0 consumes it:
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, answered by
 * SSE chunks `{candidates: [{content: {role: "model", parts: [{text} |
 * {functionCall: {name, args}}]}, finishReason, index}], usageMetadata}`.
 * Token counting (`:countTokens`) is answered too, not scripted.
 */
export const geminiDialect: MockDialect = {
  isTurn: (request) => request.method === 'POST' && request.url.includes(':streamGenerateContent'),
  writeStep: (res, step) => writeStream(res, step),
  answerOther: (request, res) => {
    if (request.url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"totalTokens": 10}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404,"message":"not mocked"}}');
  },
};

/** Starts a mock Gemini API on loopback; Gemini CLI's `GOOGLE_GEMINI_BASE_URL` is its url. */
export function startGeminiMock(script: readonly StepSource[]): Promise<MockModel> {
  return startMockModel(geminiDialect, script);
}

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function writeStream(res: ServerResponse, step: ScriptedStep): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const parts: Record<string, unknown>[] = [];
  if (step.text !== undefined) parts.push({ text: step.text });
  for (const call of step.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.arguments ?? {} } });
  sse(res, {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE,
    modelVersion: 'gemini-2.5-flash',
  });
  res.end();
}

interface GeminiContent {
  readonly role?: string;
  readonly parts?: readonly Record<string, unknown>[];
}

/** The `contents` of a recorded request (the conversation the model was shown). */
export function geminiContents(request: RecordedRequest): GeminiContent[] {
  const body = request.body as { contents?: unknown } | null;
  return Array.isArray(body?.contents) ? (body.contents as GeminiContent[]) : [];
}

/** The `response` of every `functionResponse` part in a request (what the model got back from tools). */
export function functionResponses(request: RecordedRequest): unknown[] {
  return geminiContents(request)
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse !== undefined)
    .map((part) => (part.functionResponse as { response?: unknown }).response);
}
