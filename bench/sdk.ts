/**
 * The `sdk` section: added cost per tool call through each SDK adapter,
 * against the bare tool and against guard-bash's own pre-tool + post-tool
 * dispatches on the same bus (the hot runner figure for the same hook).
 *
 *   npm run bench -- --only sdk
 *   HOOKBOX_CACHE_DIR=/work/.hbcache npx tsx bench/sdk.ts [calls]   # this section alone
 *
 * Rows, interleaved round by round: the bare tool; the bus dispatch pair;
 * the tool through `withHookbox` (AI SDK); the tool guardrail pair of
 * `hookboxGuardrails` (OpenAI Agents SDK); the PreToolUse + PostToolUse
 * callbacks of `hookboxHooks` (Claude Agent SDK), called in Claude Code's
 * hook shapes as the SDK calls them. Every adapter loads the config itself,
 * so each row has its own runner, open only for its round; the ratio is (adapter − bare) / (dispatch
 * − bare), target ≤ 1.2×.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildExample } from '../examples-hooks/build.ts';
import { withHookbox } from '../host/sdk/ai-sdk.ts';
import { type HookInput, hookboxHooks } from '../host/sdk/claude-agent-sdk.ts';
import { hookboxGuardrails } from '../host/sdk/openai-agents.ts';
import { loadServedHooks } from '../host/serve/served-hooks.ts';
import { type Summary, formatSection, summarize } from './harness.ts';

export interface SdkRow {
  readonly id: 'bare' | 'dispatch' | 'ai-sdk' | 'openai-agents' | 'claude-agent-sdk';
  readonly label: string;
  readonly summary: Summary;
}

export interface SdkTarget {
  readonly label: string;
  readonly target: string;
  readonly value: string;
  readonly met: boolean;
}

export interface SdkOptions {
  /** Timed calls per row per round (after 20 warm-up calls). */
  readonly calls: number;
  readonly rounds: number;
  readonly onProgress: (message: string) => void;
}

/** One row's pair of calls for call number `i` (negative during warm-up). */
type Call = (i: number) => Promise<unknown>;
/** A row's adapter, opened for one round. */
type Open = () => Promise<{ readonly call: Call; readonly close: () => Promise<void> }>;

const TARGET = 1.2;

export async function measureSdk(options: SdkOptions): Promise<{ rows: SdkRow[]; targets: SdkTarget[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookbox-bench-sdk-'));
  try {
    options.onProgress('sdk: guard-bash (built from source when out of date)');
    const { manifestPath: manifest } = await buildExample('guard-bash');
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest }] }));
    const body = (input: { command: string }): string => `ran ${input.command}`;
    const args = { command: 'ls -la' };
    const logDir = join(dir, 'logs');

    const session = { id: 'bench', turn: 1, step: 1, cwd: dir };
    const dispatch: Open = async () => {
      const hooks = await loadServedHooks(config);
      const call: Call = async (i) => {
        const toolCall = { toolCallId: `d${i}`, toolName: 'bash', arguments: args };
        await hooks.bus.dispatch('tools/pre-execute', toolCall, session);
        await hooks.bus.dispatch('tools/post-execute', { ...toolCall, result: { content: body(args), isError: false } }, session);
      };
      return { call, close: () => hooks.close() };
    };
    const viaAi: Open = async () => {
      const ai = await withHookbox({ bash: { inputSchema: undefined as never, execute: body } } as never, { config, cwd: dir, logDir });
      const execute = (ai.tools as unknown as { bash: { execute: (input: unknown, o: unknown) => Promise<unknown> } }).bash.execute;
      return { call: (i) => execute(args, { toolCallId: `a${i}`, messages: [] }), close: () => ai.close() };
    };
    const viaAgents: Open = async () => {
      const agents = await hookboxGuardrails({ config, cwd: dir, logDir });
      const call: Call = async (i) => {
        const toolCall = { type: 'function_call', callId: `o${i}`, name: 'bash', arguments: JSON.stringify(args) };
        await agents.toolInputGuardrails[0]!.run({ toolCall } as never);
        await agents.toolOutputGuardrails[0]!.run({ toolCall, output: body(args) } as never);
      };
      return { call, close: () => agents.close() };
    };
    const viaClaude: Open = async () => {
      const claude = await hookboxHooks({ config, cwd: dir, logDir });
      const pre = claude.hooks.PreToolUse![0]!.hooks[0]!;
      const post = claude.hooks.PostToolUse![0]!.hooks[0]!;
      const signal = new AbortController().signal;
      const event = { session_id: 'bench-claude', transcript_path: join(dir, 'transcript.jsonl'), cwd: dir, permission_mode: 'default', tool_name: 'Bash', tool_input: { ...args, description: 'bench' } };
      const call: Call = async (i) => {
        const id = `toolu_bench_${i}`;
        await pre({ ...event, hook_event_name: 'PreToolUse', tool_use_id: id } as HookInput, id, { signal });
        const response = { stdout: body(args), stderr: '', interrupted: false, isImage: false };
        await post({ ...event, hook_event_name: 'PostToolUse', tool_response: response, tool_use_id: id } as HookInput, id, { signal });
      };
      return { call, close: () => claude.close() };
    };

    const rows: [SdkRow['id'], string, Open][] = [
      ['bare', 'bare tool', async () => ({ call: async () => body(args), close: async () => {} })],
      ['dispatch', 'guard-bash pre + post dispatch on the bus (hot runner)', dispatch],
      ['ai-sdk', 'AI SDK: withHookbox execute', viaAi],
      ['openai-agents', 'OpenAI Agents: tool input + output guardrail', viaAgents],
      ['claude-agent-sdk', 'Claude Agent SDK: PreToolUse + PostToolUse callbacks', viaClaude],
    ];
    // Round by round, one row open at a time: an idle runner's spinning workers would compete with the measured one.
    const samples = new Map<SdkRow['id'], number[]>(rows.map(([id]) => [id, []]));
    for (let round = 0; round < options.rounds; round++) {
      for (const [id, label, open] of rows) {
        options.onProgress(`sdk: ${label}, round ${round + 1}/${options.rounds}`);
        const { call, close } = await open();
        try {
          for (let i = 0; i < 20; i++) await call(-1 - i - round * 20);
          for (let i = 0; i < options.calls; i++) {
            const start = performance.now();
            await call(round * options.calls + i);
            samples.get(id)!.push(performance.now() - start);
          }
        } finally {
          await close();
        }
      }
    }
    const result = rows.map(([id, label]): SdkRow => ({ id, label, summary: summarize(samples.get(id)!) }));
    const p50 = (id: SdkRow['id']): number => result.find((row) => row.id === id)!.summary.p50Us;
    const targets = (['ai-sdk', 'openai-agents', 'claude-agent-sdk'] as const).map((id): SdkTarget => {
      const ratio = (p50(id) - p50('bare')) / (p50('dispatch') - p50('bare'));
      return { label: `${id}: added p50 / the dispatch pair's p50`, target: `≤ ${TARGET.toFixed(1)}×`, value: `${ratio.toFixed(2)}× (${((p50(id) - p50('bare')) / 1000).toFixed(3)} ms added)`, met: ratio <= TARGET };
    });
    return { rows: result, targets };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The section's table and targets, as printed after the main report. */
export function formatSdk(result: { rows: readonly SdkRow[]; targets: readonly SdkTarget[] }): string {
  return formatSection('SDK adapters (guard-bash, one tool call = pre-tool + post-tool, in process)', result);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const calls = Number(process.argv[2] ?? 300);
  process.stdout.write(formatSdk(await measureSdk({ calls, rounds: 3, onProgress: (message) => process.stderr.write(`${message}\n`) })));
}
