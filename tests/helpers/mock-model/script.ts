import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One tool call the scripted model makes: a function call with JSON
 * `arguments`, or (Responses API only) a freeform custom tool call with a
 * raw `input` string, the way Codex's `apply_patch` is called.
 */
export type ScriptedCall =
  | { readonly name: string; readonly arguments: Record<string, unknown>; readonly input?: undefined }
  | { readonly name: string; readonly input: string; readonly arguments?: undefined };

/** What the model answers to one request: some text and/or tool calls. */
export interface ScriptedStep {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedCall[];
}

/**
 * A step, or a function of the request that decides it (a test that must
 * react to what the agent sent, e.g. stop once a tool result shows success).
 */
export type StepSource = ScriptedStep | ((request: RecordedRequest) => ScriptedStep);

/** One request the agent made, as received. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  /** The raw body text, for "the model never saw X" assertions. */
  readonly text: string;
}

/** A running mock model server. */
export interface MockModel {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Requests that consumed a scripted step (the agent's model turns). */
  readonly turns: RecordedRequest[];
  close(): Promise<void>;
}

/** How an agent-specific mock answers: which requests are turns, and how a step is written out. */
export interface MockDialect {
  /** Whether this request is a model turn that consumes the next step; others get `answerOther`. */
  isTurn(request: RecordedRequest): boolean;
  /** Writes one step as the agent's (usually streamed) response to `request`. */
  writeStep(response: ServerResponse, step: ScriptedStep, turnIndex: number, request: RecordedRequest): void;
  /** Answers a request that is not a turn (404 unless the dialect knows better). */
  answerOther?(request: RecordedRequest, response: ServerResponse): void;
}

/** What the model says once the script is used up: a plain final answer, no tool calls. */
export const SCRIPT_DONE: ScriptedStep = { text: 'done' };

const MAX_BODY = 16 * 1024 * 1024;

/**
 * Starts a real HTTP server on 127.0.0.1 that answers the agent's model
 * requests from a script (one step per turn, in order) and records every
 * request it receives.
 */
export async function startMockModel(dialect: MockDialect, script: readonly StepSource[]): Promise<MockModel> {
  const requests: RecordedRequest[] = [];
  const turns: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then(
      (text) => {
        let body: unknown = null;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          body = null;
        }
        const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, text };
        requests.push(recorded);
        if (!dialect.isTurn(recorded)) {
          if (dialect.answerOther) dialect.answerOther(recorded, res);
          else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not mocked"}');
          return;
        }
        const index = turns.length;
        turns.push(recorded);
        const source = script[index] ?? SCRIPT_DONE;
        const step = typeof source === 'function' ? source(recorded) : source;
        dialect.writeStep(res, step, index, recorded);
      },
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    turns,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Writes one server-sent event. */
export function sse(response: ServerResponse, data: unknown, event?: string): void {
  response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
}
