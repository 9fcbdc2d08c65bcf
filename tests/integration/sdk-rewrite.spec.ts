/**
 * Pre-tool rewrite through the SDK adapters (docs/rfc-tool-input-rewrite.md,
 * "Every agent"): the AI SDK adapter owns the wrapped tool's `execute`, so it
 * runs the rewritten call; the real `ai` package against the
 * chat-completions mock, a real wasm rewriter built by the PDK.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withHookbox } from '../../host/sdk/ai-sdk.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { startChatMock } from '../helpers/mock-model/openai-chat.ts';
import type { MockModel } from '../helpers/mock-model/script.ts';

const TIMEOUT = 180_000;
const FIXTURES = fileURLToPath(new URL('../pdk/fixtures/rewrite/', import.meta.url));

let dir: string;
let mock: MockModel | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-sdk-rewrite-'));
  for (const name of ['rewriter', 'gate']) await buildHook({ entry: join(FIXTURES, `${name}.ts`), outFile: join(dir, name, 'hook.wasm') });
}, 240_000);
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(file: string, hooks: { name: string; kind: 'rewriter' | 'gate'; config: Record<string, string> }[]): string {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ hooks: hooks.map(({ name, kind, config: values }) => ({ name, manifest: join(dir, kind, 'hook.json'), config: values })) }));
  return path;
}

function bashTool(ran: string[]) {
  return tool({
    description: 'Runs a shell command',
    inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }),
    execute: ({ command }) => {
      ran.push(command);
      return `ran ${command}`;
    },
  });
}

async function run(command: string, tools: Parameters<typeof generateText>[0]['tools']): Promise<MockModel> {
  mock = await startChatMock([{ toolCalls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' }]);
  const provider = createOpenAICompatible({ name: 'mock', baseURL: `${mock.url}/v1`, apiKey: 'test' });
  await generateText({ model: provider('mock'), tools, prompt: 'go', stopWhen: stepCountIs(4) });
  return mock;
}

const aToB = { name: 'a-to-b', kind: 'rewriter' as const, config: { mode: 'replace', from: 'echo A', to: 'echo B' } };

describe('withHookbox (AI SDK) and a rewriting hook', () => {
  it('runs the rewritten call; the model reads that it was rewritten; the session log holds tool/rewrite', async () => {
    const ran: string[] = [];
    const logDir = join(dir, 'logs-ok');
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: config('ok.json', [aToB]), cwd: dir, logDir });
    try {
      const model = await run('echo A > out.txt', hookbox.tools);
      expect(ran).toEqual(['echo B > out.txt']);
      expect(model.turns[1]?.text ?? '').toContain('[hookbox: this call was rewritten by a hook before it ran; it ran with arguments {\\"command\\":\\"echo B > out.txt\\"}]');
    } finally {
      await hookbox.close();
    }
    const log = readdirSync(logDir).map((file) => readFileSync(join(logDir, file), 'utf8')).join('');
    const rewrite = log.split('\n').filter((line) => line.includes('"tool/rewrite"')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rewrite).toMatchObject([{ original: { command: 'echo A > out.txt' }, arguments: { command: 'echo B > out.txt' }, hooks: ['a-to-b'] }]);
  }, TIMEOUT);

  it('a gate listed before the rewriter is asked again on the rewritten call: its deny stands and nothing runs', async () => {
    const ran: string[] = [];
    const hookbox = await withHookbox({ bash: bashTool(ran) }, { config: config('gated.json', [{ name: 'no-b', kind: 'gate', config: { deny: 'echo B' } }, aToB]), cwd: dir, logDir: join(dir, 'logs-gated') });
    try {
      const model = await run('echo A > out.txt', hookbox.tools);
      expect(ran).toEqual([]);
      expect(model.turns[1]?.text ?? '').toContain('Tool call denied by a hook: gate: the command contains');
    } finally {
      await hookbox.close();
    }
  }, TIMEOUT);
});
