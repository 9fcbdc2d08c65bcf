/**
 * The AI SDK adapter with the real `ai` package and its OpenAI-compatible
 * provider, against the chat-completions mock on loopback (one completion per
 * turn for `generateText`, SSE chunks for `streamText`): real wasm hooks gate
 * the wrapped tools, and what the model receives next is read off the wire.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
