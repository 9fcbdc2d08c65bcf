/**
 * The pi / OpenCode rows: one pre-tool decision as hookbox's in-process
 * plugin makes it (the plugin client inside the agent's process, here Node as
 * in pi) on the bench payload, against what such an agent would otherwise
 * pay for a plain hook — an extension spawning `sh` with the crude guard per
 * call:
 *
 * - the plugin client asking `hookbox serve` (guard-bash on its socket): no process started,
 * - the plugin client with no server (a `hookbox hook` process decides in-process),
 * - an extension running bench/shell.ts's `sh` guard per call.
 *
 * Rows are interleaved call by call, spaced `--gap-ms` apart (an agent's
 * calls are seconds apart). Run alone: `npx tsx bench/plugins.ts [--calls N] [--gap-ms MS]`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EXAMPLES_DIR } from '../examples-hooks/build.ts';
import { PAYLOAD, SESSION } from './fixtures.ts';
import { spawnTimed, startServe } from './hookbox-process.ts';
import { type Summary, sleep, summarize } from './harness.ts';
import { SH_POLICY } from './shell.ts';

interface PluginClient {
  decide(event: unknown, kind: string): Promise<Record<string, unknown>>;
}
const { pluginClient } = (await import(pathToFileURL(fileURLToPath(new URL('../host/agents/plugin-client.mjs', import.meta.url))).href)) as {
  pluginClient(agent: string, options: unknown): PluginClient;
};

/** The event hookbox's pi extension sends for the bench payload. */
const EVENT = { hook_event_name: 'tool_call', session_id: SESSION.id, cwd: SESSION.cwd, tool_name: 'bash', tool_call_id: PAYLOAD.toolCallId, input: { command: PAYLOAD.arguments.command } };
/** The same call as the stdin a Claude-style command hook reads (what the sh guard parses). */
const SH_INPUT = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: PAYLOAD.arguments.command } });

export interface PluginRow {
  readonly label: string;
  readonly summary: Summary;
  readonly answer: string;
}

export async function measurePluginRows(options: { calls: number; slowCalls: number; gapMs: number }): Promise<PluginRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-plugins-'));
  const config = join(dir, 'hookbox.config.json');
  await writeFile(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: join(EXAMPLES_DIR, 'guard-bash', 'dist', 'hook.json'), tools: ['bash'] }] }));
  const socket = join(dir, 'serve.sock');
  const stop = await startServe(config, ['--socket', socket]);
  const up = pluginClient('pi', { socket, config, deadlineMs: 60_000 });
  const down = pluginClient('pi', { socket: join(dir, 'nobody-listens.sock'), config, deadlineMs: 60_000 });
  const timed = async (decide: () => Promise<string>): Promise<{ ms: number; answer: string }> => {
    const started = process.hrtime.bigint();
    const answer = await decide();
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, answer };
  };
  const answerOf = (answer: Record<string, unknown>) => (Object.keys(answer).length === 0 ? 'no objection' : JSON.stringify(answer).slice(0, 60));
  const kinds = [
    { label: 'plugin client → hookbox serve (socket)', slow: false, run: () => timed(async () => answerOf(await up.decide(EVENT, 'preTool'))) },
    { label: 'plugin client, no server (hookbox hook in-process)', slow: true, run: () => timed(async () => answerOf(await down.decide(EVENT, 'preTool'))) },
    {
      label: 'an extension spawning the sh guard',
      slow: false,
      run: async () => {
        const run = await spawnTimed('sh', ['-c', SH_POLICY], SH_INPUT);
        return { ms: run.ms, answer: run.stdout.trim() === '' ? 'no objection' : run.stdout.trim().slice(0, 60) };
      },
    },
  ];
  const samples = kinds.map(() => [] as number[]);
  const answers = kinds.map(() => '');
  try {
    for (let i = 0; i < options.calls; i++) {
      for (const [k, kind] of kinds.entries()) {
        if (kind.slow && i >= options.slowCalls) continue;
        const { ms, answer } = await kind.run();
        samples[k]!.push(ms);
        answers[k] = answer;
      }
      await sleep(options.gapMs);
    }
  } finally {
    await stop();
    await rm(dir, { recursive: true, force: true });
  }
  return kinds.map((kind, k) => ({ label: kind.label, summary: summarize(samples[k]!), answer: answers[k]! }));
}

export function formatPluginRows(rows: readonly PluginRow[]): string {
  const sh = rows.at(-1)!.summary.p50Us;
  const lines = ['plugins (pi, OpenCode): one pre-tool decision from inside the agent (guard-bash for hookbox rows)', '  row                                                  p50 ms   p99 ms   n   × sh   answer'];
  for (const row of rows) {
    lines.push(
      `  ${row.label.padEnd(52)} ${(row.summary.p50Us / 1000).toFixed(1).padStart(6)}   ${(row.summary.p99Us / 1000).toFixed(1).padStart(6)}  ${String(row.summary.samples).padStart(2)}   ${(row.summary.p50Us / sh).toFixed(2).padStart(5)}  ${row.answer}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
  const calls = arg('--calls', 15);
  process.stdout.write(formatPluginRows(await measurePluginRows({ calls, slowCalls: Math.min(3, calls), gapMs: arg('--gap-ms', 1000) })));
}
