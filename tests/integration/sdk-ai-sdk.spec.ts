/**
 * The AI SDK adapter with the real `ai` package and its OpenAI-compatible
 * provider, against the chat-completions mock on loopback (one completion per
 * turn for `generateText`, SSE chunks for `streamText`): real wasm hooks gate
 * the wrapped tools, and what the model receives next is read off the wire.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withHookbox } from '../../host/sdk/ai-sdk.ts';
import { writeTrapConfig } from '../helpers/agent-project.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import { startChatMock } from '../helpers/mock-model/openai-chat.ts';
import type { MockModel, ScriptedStep } from '../helpers/mock-model/script.ts';
import { type OtlpReceiver, startOtlpReceiver } from '../helpers/otlp-receiver.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

const TIMEOUT = 180_000;
const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';

let dir: string;
let mock: MockModel | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-ai-sdk-'));
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bashTool(ran: string[], output = (command: string) => `ran ${command}`) {
  return tool({
    description: 'Runs a shell command',
    inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }),
    execute: ({ command }) => {
      ran.push(command);
      return output(command);
    },
  });
}

async function run(script: ScriptedStep[], tools: Parameters<typeof generateText>[0]['tools'], prompt = 'go'): Promise<MockModel> {
  mock = await startChatMock([...script, { text: 'done' }]);
  const provider = createOpenAICompatible({ name: 'mock', baseURL: `${mock.url}/v1`, apiKey: 'test' });
  await generateText({ model: provider('mock'), tools, prompt, stopWhen: stepCountIs(4) });
  return mock;
}

/** The same through `streamText`, read to the end (the mock streams chat-completion chunks when asked). */
async function runStreamed(script: ScriptedStep[], tools: Parameters<typeof streamText>[0]['tools'], prompt = 'go'): Promise<{ model: MockModel; text: string }> {
  mock = await startChatMock([...script, { text: 'done' }]);
  const provider = createOpenAICompatible({ name: 'mock', baseURL: `${mock.url}/v1`, apiKey: 'test' });
  const result = streamText({ model: provider('mock'), tools, prompt, stopWhen: stepCountIs(4), onError: () => {} });
  let text = '';
  for await (const part of result.textStream) text += part;
  return { model: mock, text };
}

const secondTurn = (model: MockModel): string => model.turns[1]?.text ?? '';

describe('withHookbox (AI SDK)', () => {
  it('guard-bash denies rm -rf /: the body never runs and the model reads the denial', async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf /' } }] }], hookbox.tools);
      expect(ran).toEqual([]);
      expect(secondTurn(model)).toContain('Tool call denied by a hook');
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it('a harmless command runs through the same gate', async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard-ok.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }], hookbox.tools);
      expect(ran).toEqual(['ls']);
      expect(secondTurn(model)).toContain('ran ls');
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it("a hook's ask: no approver here, so the call is refused — the body never runs and the model reads the hook's reason", async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard-ask.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'git push origin main' } }] }], hookbox.tools);
      expect(ran).toEqual([]);
      expect(secondTurn(model)).toMatch(/Tool call denied by a hook: guard-bash: git-push/);
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it("a redactor's replacement is what the model receives next", async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran, () => `GITHUB_TOKEN=${TOKEN}\n`) }, { config: writeExampleConfig(dir, [{ name: 'secret-redactor' }], 'redact.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'cat .env' } }] }], hookbox.tools);
      expect(ran).toEqual(['cat .env']);
      expect(secondTurn(model)).toContain('GITHUB_TOKEN');
      expect(secondTurn(model)).not.toContain(TOKEN);
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it('streamText: guard-bash denies in a streamed run, a harmless call runs, and both turns were streamed', async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'stream.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const { model, text } = await runStreamed(
        [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf /' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }],
        hookbox.tools,
      );
      expect(ran).toEqual(['ls']);
      expect(model.turns.every((turn) => (turn.body as { stream?: unknown }).stream === true)).toBe(true);
      expect(secondTurn(model)).toContain('Tool call denied by a hook');
      expect(model.turns[2]?.text ?? '').toContain('ran ls');
      expect(text).toContain('done');
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it('a blocked prompt is reported before any model call', async () => {
    const hookbox = await withHookbox({}, { config: writeExampleConfig(dir, [{ name: 'prompt-guard' }], 'prompt.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const checked = await hookbox.checkPrompt([{ role: 'user', content: 'deploy with AKIAIOSFODNN7EXAMPLE' }]);
      expect(checked.blocked).toBe(true);
      expect(await hookbox.checkPrompt('deploy the app')).toEqual({ blocked: false, prompt: 'deploy the app' });
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  /** A tool whose body throws `thrown`. */
  function failingTool(thrown: () => unknown) {
    return tool({
      description: 'Runs a shell command',
      inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }),
      execute: (): string => {
        throw thrown();
      },
    });
  }

  it.each([
    ['a thrown plain object (the SDK sends JSON.stringify of it)', () => ({ detail: `GITHUB_TOKEN=${TOKEN}` }), String.raw`\"detail\":\"GITHUB_TOKEN=[REDACTED:github-token]\"`],
    [
      "an Error's name (the SDK sends its toString(): name and message)",
      () => Object.assign(new Error('the command failed'), { name: `Leak ${TOKEN}` }),
      'Leak [REDACTED:github-token]: the command failed',
    ],
    ['a thrown string', () => `failed: ${TOKEN}`, 'failed: [REDACTED:github-token]'],
  ])('a secret in %s reaches the model redacted, never the original error', async (_what, thrown, expected) => {
    const hookbox = await withHookbox({ bash: failingTool(thrown) }, { config: writeExampleConfig(dir, [{ name: 'secret-redactor' }], 'redact-error.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'deploy' } }] }], hookbox.tools);
      expect(secondTurn(model)).not.toContain(TOKEN);
      expect(secondTurn(model)).toContain(expected);
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it('a failed tool with nothing to redact: the model reads what the SDK would have sent (an Error\'s toString)', async () => {
    const hookbox = await withHookbox({ bash: failingTool(() => new TypeError('no such file')) }, { config: writeExampleConfig(dir, [{ name: 'secret-redactor' }], 'redact-plain.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'cat x' } }] }], hookbox.tools);
      expect(secondTurn(model)).toContain('TypeError: no such file');
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it('prompt-guard reads every user message not yet checked and text file parts; a text file it cannot read is refused', async () => {
    const hookbox = await withHookbox({}, { config: writeExampleConfig(dir, [{ name: 'prompt-guard' }], 'prompt-all.json'), cwd: dir, logDir: join(dir, 'logs') });
    const KEY = 'AKIAIOSFODNN7EXAMPLE';
    try {
      // A key in an earlier user message of the same request.
      const earlier = await hookbox.checkPrompt([
        { role: 'user', content: `deploy with ${KEY}` },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'go on' },
      ]);
      expect(earlier).toMatchObject({ blocked: true, reason: expect.stringContaining('prompt-guard') as string });
      // A key in an attached text file: bytes, base64 text, the tagged text shape.
      for (const data of [Buffer.from(`aws_access_key_id = ${KEY}\n`), Buffer.from(`key ${KEY}`).toString('base64'), { type: 'text' as const, text: `key ${KEY}` }]) {
        const attached = await hookbox.checkPrompt([{ role: 'user', content: [{ type: 'text', text: 'summarise this file' }, { type: 'file', mediaType: 'text/plain', filename: 'creds.txt', data }] }]);
        expect(attached, JSON.stringify(data)).toMatchObject({ blocked: true, reason: expect.stringContaining('prompt-guard') as string });
      }
      const json = await hookbox.checkPrompt([{ role: 'user', content: [{ type: 'file', mediaType: 'application/json', data: Buffer.from(JSON.stringify({ key: KEY })) }] }]);
      expect(json.blocked).toBe(true);
      // A text file hookbox cannot read: refused, closed, naming the part.
      const url = await hookbox.checkPrompt([{ role: 'user', content: [{ type: 'file', mediaType: 'text/plain', data: new URL('https://example.invalid/creds.txt') }] }]);
      expect(url).toStrictEqual({ blocked: true, reason: 'user message 0: part 0 (a text/plain file): its data is a URL or a provider reference, whose bytes hookbox does not fetch, so it was not sent' });
      const binary = await hookbox.checkPrompt([{ role: 'user', content: [{ type: 'file', mediaType: 'text/plain', filename: 'x.txt', data: new Uint8Array([0xff, 0xfe, 0x00]) }] }]);
      expect(binary).toStrictEqual({ blocked: true, reason: 'user message 0: part 0 (a text/plain file "x.txt"): its bytes are not UTF-8 text, so it was not sent' });
      // Clean messages pass, handed back; the last one's text is the prompt.
      const messages = [
        { role: 'user' as const, content: 'hello' },
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'read' }, { type: 'file' as const, mediaType: 'text/markdown', data: Buffer.from('# notes') }] },
      ];
      expect(await hookbox.checkPrompt(messages)).toStrictEqual({ blocked: false, prompt: 'read\n# notes', messages });
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it('a conversation resends its messages: only the user messages not checked before are asked again', async () => {
    const logDir = join(dir, 'logs-resend');
    const hookbox = await withHookbox({}, { config: writeExampleConfig(dir, [{ name: 'prompt-guard' }], 'prompt-resend.json'), cwd: dir, logDir });
    try {
      const first = [{ role: 'user' as const, content: 'list the files' }, { role: 'assistant' as const, content: 'a.txt' }];
      expect((await hookbox.checkPrompt([first[0]!])).blocked).toBe(false);
      expect((await hookbox.checkPrompt([...first, { role: 'user', content: 'now read a.txt' }])).blocked).toBe(false);
    } finally {
      await hookbox.close();
    }
    const prompts = readdirSync(logDir)
      .flatMap((name) => readFileSync(join(logDir, name), 'utf8').split('\n'))
      .filter((line) => line.includes('"type":"user/message"'))
      .map((line) => (JSON.parse(line) as { content: string }).content);
    expect(prompts).toStrictEqual(['list the files', 'now read a.txt']);
  }, TIMEOUT);

  it('a hook that traps fails closed: the body never runs', async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: await writeTrapConfig(dir), cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }], hookbox.tools);
      expect(ran).toEqual([]);
      expect(secondTurn(model)).toContain('denied');
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it('a hook that runs to its deadline fails closed', async () => {
    const ran: string[] = [];
    const spin = join(dir, 'spin.config.json');
    writeFileSync(spin, JSON.stringify({ hooks: [{ name: 'slow', wasm: await writeCorpusWasm('infinite-loop', dir), seams: ['tools/pre-execute'], timeoutMs: 500 }] }));
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: spin, cwd: dir, logDir: join(dir, 'logs') });
    try {
      const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }], hookbox.tools);
      expect(ran).toEqual([]);
      expect(secondTurn(model)).toContain('denied');
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);

  it("hookbox's own failure (its runner gone) denies instead of running the tool", async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'closed.json'), cwd: dir, logDir: join(dir, 'logs') });
    await hookbox.close();
    const model = await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }], hookbox.tools);
    expect(ran).toEqual([]);
    expect(secondTurn(model)).toContain('denied');
  }, TIMEOUT);
});

describe('withHookbox (AI SDK) telemetry', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('each decision is a dispatch span', async () => {
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_EXPORTER: 'otlp', OTEL_METRICS_EXPORTER: 'none' });
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'otel.json'), cwd: dir, logDir: join(dir, 'logs') });
    try {
      await run([{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }], hookbox.tools);
    } finally {
      await hookbox.close();
      for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER']) Reflect.deleteProperty(process.env, name);
    }
    const seams = receiver.spans.filter((span) => span.name === 'hookbox.dispatch').map((span) => span.attributes['hookbox.seam']);
    expect(seams).toEqual(expect.arrayContaining(['tools/pre-execute', 'tools/post-execute']));
  }, TIMEOUT);
});
