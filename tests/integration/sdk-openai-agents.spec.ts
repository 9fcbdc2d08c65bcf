/**
 * The OpenAI Agents adapter with the real `@openai/agents` against the
 * Responses API mock on loopback: real wasm hooks behind the SDK's tool and
 * input guardrails, and what the model receives next read off the wire.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, InputGuardrailTripwireTriggered, OpenAIProvider, Runner, setTracingDisabled, tool } from '@openai/agents';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type OpenAIAgentsHookbox, type OpenAIAgentsHookboxOptions, hookboxGuardrails } from '../../host/sdk/openai-agents.ts';
import { writeTrapConfig } from '../helpers/agent-project.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import { startResponsesMock } from '../helpers/mock-model/openai-responses.ts';
import type { MockModel, ScriptedStep } from '../helpers/mock-model/script.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

const TIMEOUT = 180_000;
const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';

let dir: string;
let mock: MockModel | undefined;
let hookbox: OpenAIAgentsHookbox | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-agents-'));
  setTracingDisabled(true);
});
afterEach(async () => {
  await hookbox?.close();
  hookbox = undefined;
  await mock?.close();
  mock = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function agentRun(options: OpenAIAgentsHookboxOptions, script: ScriptedStep[], ran: string[], output = (command: string) => `ran ${command}`, prompt = 'go'): Promise<MockModel> {
  hookbox = await hookboxGuardrails({ cwd: dir, logDir: join(dir, 'logs'), ...options });
  mock = await startResponsesMock([...script, { text: 'done' }]);
  const bash = tool({
    name: 'bash',
    description: 'Runs a shell command',
    parameters: z.object({ command: z.string() }),
    execute: ({ command }) => {
      ran.push(command);
      return output(command);
    },
    inputGuardrails: hookbox.toolInputGuardrails,
    outputGuardrails: hookbox.toolOutputGuardrails,
  });
  const agent = new Agent({ name: 'a', instructions: 'help', model: 'gpt-mock', tools: [bash], inputGuardrails: [hookbox.inputGuardrail] });
  await streamed(runner(mock), agent, prompt);
  return mock;
}

/** A runner whose model provider talks to this mock only (the SDK's default client is process-wide). */
const runner = (model: MockModel): Runner => new Runner({ modelProvider: new OpenAIProvider({ baseURL: `${model.url}/v1`, apiKey: 'test' }), tracingDisabled: true });

/** Runs streamed (the mock answers with SSE, as the Responses API streams), to the end; a failed run rejects. */
async function streamed(on: Runner, agent: Agent, prompt: string): Promise<void> {
  const result = await on.run(agent, prompt, { maxTurns: 4, stream: true });
  for await (const event of result) void event;
  await result.completed;
  if (result.error !== null && result.error !== undefined) throw result.error;
}

const secondTurn = (model: MockModel): string => model.turns[1]?.text ?? '';
const rm = [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf /' } }] }];
const ls = [{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }];

describe('hookboxGuardrails (OpenAI Agents SDK)', () => {
  it('guard-bash denies rm -rf /: the body never runs and the model reads the denial', async () => {
    const ran: string[] = [];
    const model = await agentRun({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard.json') }, rm, ran);
    expect(ran).toEqual([]);
    expect(secondTurn(model)).toContain('rm');
    expect(model.turns).toHaveLength(2);
  }, TIMEOUT);

  it('a harmless command runs through the same guardrail', async () => {
    const ran: string[] = [];
    const model = await agentRun({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard-ok.json') }, ls, ran);
    expect(ran).toEqual(['ls']);
    expect(secondTurn(model)).toContain('ran ls');
  }, TIMEOUT);

  it("a hook's ask: no approver here, so the input guardrail rejects the call — the body never runs and the model reads the hook's reason", async () => {
    const ran: string[] = [];
    const model = await agentRun({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard-ask.json') }, [{ toolCalls: [{ name: 'bash', arguments: { command: 'git push origin main' } }] }], ran);
    expect(ran).toEqual([]);
    expect(secondTurn(model)).toMatch(/guard-bash: git-push/);
    expect(model.turns).toHaveLength(2);
  }, TIMEOUT);

  it("a redactor's replacement is what the model receives next", async () => {
    const ran: string[] = [];
    const model = await agentRun({ config: writeExampleConfig(dir, [{ name: 'secret-redactor' }], 'redact.json') }, ls, ran, () => `GITHUB_TOKEN=${TOKEN}\n`);
    expect(ran).toEqual(['ls']);
    expect(secondTurn(model)).toContain('GITHUB_TOKEN');
    expect(secondTurn(model)).not.toContain(TOKEN);
  }, TIMEOUT);

  it('a blocked prompt never reaches the model', async () => {
    const ran: string[] = [];
    await expect(agentRun({ config: writeExampleConfig(dir, [{ name: 'prompt-guard' }], 'prompt.json') }, ls, ran, undefined, 'deploy with AKIAIOSFODNN7EXAMPLE')).rejects.toBeInstanceOf(
      InputGuardrailTripwireTriggered,
    );
    expect(mock?.turns).toHaveLength(0);
    expect(ran).toEqual([]);
  }, TIMEOUT);

  it('a hook that traps fails closed without failing the run: the body never runs', async () => {
    const ran: string[] = [];
    const model = await agentRun({ config: await writeTrapConfig(dir) }, ls, ran);
    expect(ran).toEqual([]);
    expect(secondTurn(model)).toContain('trap');
  }, TIMEOUT);

  it('a hook that runs to its deadline fails closed; with failRunOnFault the run fails', async () => {
    const spin = join(dir, 'spin.config.json');
    writeFileSync(spin, JSON.stringify({ hooks: [{ name: 'slow', wasm: await writeCorpusWasm('infinite-loop', dir), seams: ['tools/pre-execute'], timeoutMs: 500 }] }));
    const ran: string[] = [];
    const model = await agentRun({ config: spin }, ls, ran);
    expect(ran).toEqual([]);
    expect(secondTurn(model)).toContain('timeout');
    await hookbox?.close();
    hookbox = undefined;
    await mock?.close();
    await expect(agentRun({ config: spin, failRunOnFault: true }, ls, ran)).rejects.toThrow();
    expect(ran).toEqual([]);
  }, TIMEOUT);

  it("hookbox's own failure (its runner gone) rejects the call instead of running it", async () => {
    const ran: string[] = [];
    hookbox = await hookboxGuardrails({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'closed.json'), cwd: dir, logDir: join(dir, 'logs') });
    await hookbox.close();
    const closed = hookbox;
    mock = await startResponsesMock([...ls, { text: 'done' }]);
      const bash = tool({
      name: 'bash',
      description: 'Runs a shell command',
      parameters: z.object({ command: z.string() }),
      execute: ({ command }) => void ran.push(command),
      inputGuardrails: closed.toolInputGuardrails,
    });
    await streamed(runner(mock), new Agent({ name: 'a', model: 'gpt-mock', tools: [bash] }), 'go');
    hookbox = undefined;
    expect(ran).toEqual([]);
    expect(secondTurn(mock)).toMatch(/function_call_output.*failed/);
  }, TIMEOUT);
});
