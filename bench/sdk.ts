/**
 * Added cost per tool call through the SDK adapters, against the bare tool
 * and against the hook's own dispatch on the same bus (the hot figure).
 *
 *   HOOKBOX_CACHE_DIR=/work/.hbcache npx tsx bench/sdk.ts [calls]
 *
 * Prints p50 per call for: the bare tool, the tool through `withHookbox`
 * (pre-tool and post-tool), the guardrail pair of `hookboxGuardrails`, and
 * guard-bash's pre-tool + post-tool dispatches on the bus; then the ratios
 * (target ≤ 1.2× the dispatch figure).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildExample } from '../examples-hooks/build.ts';
import { withHookbox } from '../host/sdk/ai-sdk.ts';
import { hookboxGuardrails } from '../host/sdk/openai-agents.ts';
import { loadServedHooks } from '../host/serve/served-hooks.ts';

const CALLS = Number(process.argv[2] ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'hookbox-bench-sdk-'));

async function p50(label: string, once: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await once(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await once(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]! * 1000;
  process.stdout.write(`${label.padEnd(44)} p50 ${median.toFixed(0).padStart(7)} µs\n`);
  return median;
}

try {
  const { manifestPath: manifest } = await buildExample('guard-bash');
  const config = join(dir, 'hookbox.config.json');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest }] }));
  const body = (input: { command: string }) => `ran ${input.command}`;
  const args = { command: 'ls -la' };
  const options = { toolCallId: 'c', messages: [] };

  const bare = await p50('bare tool', async () => body(args));

  const hooks = await loadServedHooks(config);
  const session = { id: 'bench', turn: 1, step: 1, cwd: dir };
  const dispatch = await p50('bus: pre-tool + post-tool dispatch', async (i) => {
    const call = { toolCallId: `d${i}`, toolName: 'bash', arguments: args };
    await hooks.bus.dispatch('tools/pre-execute', call, session);
    await hooks.bus.dispatch('tools/post-execute', { ...call, result: { content: 'ran ls -la', isError: false } }, session);
  });
  await hooks.close();

  const ai = await withHookbox({ bash: { inputSchema: undefined as never, execute: body } } as never, { config, cwd: dir, logDir: join(dir, 'logs') });
  const execute = (ai.tools as unknown as { bash: { execute: (input: unknown, o: unknown) => Promise<unknown> } }).bash.execute;
  const viaAi = await p50('AI SDK: withHookbox execute', (i) => execute(args, { ...options, toolCallId: `a${i}` }));
  await ai.close();

  const agents = await hookboxGuardrails({ config, cwd: dir, logDir: join(dir, 'logs') });
  const viaAgents = await p50('OpenAI Agents: input + output guardrail', async (i) => {
    const toolCall = { type: 'function_call', callId: `o${i}`, name: 'bash', arguments: JSON.stringify(args) };
    await agents.toolInputGuardrails[0]!.run({ toolCall } as never);
    await agents.toolOutputGuardrails[0]!.run({ toolCall, output: body(args) } as never);
  });
  await agents.close();

  const added = (through: number): string => `${((through - bare) / (dispatch - bare)).toFixed(2)}× the dispatch figure`;
  process.stdout.write(`\nadded per call, AI SDK:        ${(viaAi - bare).toFixed(0)} µs (${added(viaAi)}; target ≤ 1.20×)\n`);
  process.stdout.write(`added per call, OpenAI Agents: ${(viaAgents - bare).toFixed(0)} µs (${added(viaAgents)}; target ≤ 1.20×)\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
