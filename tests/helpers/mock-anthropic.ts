import http from 'node:http';

/** One scripted model reply: text, and tool calls the agent should make. */
export interface MockReply {
  readonly text?: string;
  readonly toolUses?: readonly { readonly name: string; readonly input: Record<string, unknown> }[];
}

/** A recorded request to the mock, body parsed. */
export interface RecordedRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** Whether the request offered tools (a main-loop call; side queries offer none). */
  readonly withTools: boolean;
}

/** Decides the reply to a main-loop request (one that offers tools); `undefined` ends with plain text. */
export type MockScript = (request: RecordedRequest, index: number) => MockReply | undefined;

/**
 * A local Anthropic Messages API for running the real Claude Code against:
 * `POST /v1/messages` answered as SSE (message_start, content blocks with
 * text / tool_use deltas, message_delta with the stop reason, message_stop)
 * or as one JSON message when `stream` is false; `/v1/messages/count_tokens`
 * answered with a size estimate. Main-loop requests (with tools) follow the
 * script; side queries (no tools: titles, summaries) get a short text. Every
 * request body is recorded, so tests assert what the model was shown.
 */
export class MockAnthropic {
  readonly requests: RecordedRequest[] = [];
  #script: MockScript = () => undefined;
  #mainCalls = 0;
  #server: http.Server | undefined;
  #ids = 0;
  port = 0;

  /** Replaces the script (and restarts its call count) for the next run. */
  script(script: MockScript | readonly MockReply[]): void {
    this.#script = typeof script === 'function' ? script : (_request, index) => script[index];
    this.#mainCalls = 0;
    this.requests.length = 0;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Every main-loop request body serialised, to search for what the model was shown. */
  shown(): string {
    return this.requests.filter((request) => request.withTools).map((request) => JSON.stringify(request.body.messages ?? [])).join('\n');
  }

  /** Everything any request carried (system prompt, messages, side queries). */
  everything(): string {
    return this.requests.map((request) => JSON.stringify(request.body)).join('\n');
  }

  async start(): Promise<void> {
    this.#server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.#handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.#server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): void {
    const path = (req.url ?? '/').split('?')[0]!;
    let body: Record<string, unknown> = {};
    try {
      body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: Math.ceil(text.length / 4) }));
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: path } }));
      return;
    }
    const withTools = Array.isArray(body.tools) && body.tools.length > 0;
    const request: RecordedRequest = { path, body, withTools };
    this.requests.push(request);
    const reply = withTools ? (this.#script(request, this.#mainCalls++) ?? { text: 'Done.' }) : { text: 'Side answer.' };
    if (body.stream === true) this.#stream(res, body, reply);
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.#message(body, reply)));
  }

  #blocks(reply: MockReply): Record<string, unknown>[] {
    const blocks: Record<string, unknown>[] = [];
    if (reply.text !== undefined && reply.text !== '') blocks.push({ type: 'text', text: reply.text });
    for (const use of reply.toolUses ?? []) blocks.push({ type: 'tool_use', id: `toolu_mock_${++this.#ids}`, name: use.name, input: use.input });
    if (blocks.length === 0) blocks.push({ type: 'text', text: '.' });
    return blocks;
  }

  #message(body: Record<string, unknown>, reply: MockReply): Record<string, unknown> {
    const content = this.#blocks(reply);
    return {
      id: `msg_mock_${++this.#ids}`,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'claude-sonnet-4-5',
      content,
      stop_reason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  }

  #stream(res: http.ServerResponse, body: Record<string, unknown>, reply: MockReply): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (type: string, data: Record<string, unknown>): void => {
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    };
    const message = this.#message(body, reply);
    send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    (message.content as Record<string, unknown>[]).forEach((block, index) => {
      if (block.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
      } else {
        send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
    send('message_stop', {});
    res.end();
  }
}
