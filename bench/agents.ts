/**
 * The `agents` rows: one pre-tool decision per agent (the `PreToolUse` of
 * Claude Code, Copilot CLI in a Claude Code setup, Codex, Qwen Code and
 * Factory Droid; Copilot CLI's own `preToolUse`; Gemini CLI's `BeforeTool`)
 * on the bench payload,
 * spawned per event the way the agent runs a command hook:
 *
 * - the sh client (`sh hookbox-hook.sh <agent>`, what `hookbox setup` writes
 *   by default) with `hookbox serve` up: curl to its socket, no Node start,
 * - the Node client (`node hookbox-hook.cjs <agent>`, `setup --client node`)
 *   with `hookbox serve` up,
 * - the Node client with no server (decides in-process),
 * - the agent's own `sh` hook and `node` hook (bench/shell.ts's crude
 *   guard policy) on the same stdin,
 * - and the floors measured in the same rounds: `sh -c true`, `node -e 0`.
 *
 * Rows are interleaved event by event so load from other processes lands on
 * all of them alike; p50 and p90 of each, and each as a ratio to both
 * floors. Target: the sh client's p50 ≤ 0.25× `node -e 0`. Run alone:
 * `npx tsx bench/agents.ts [--calls N] [--agents a,b]` (default 30 calls,
 * every agent).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAMPLES_DIR } from '../examples-hooks/build.ts';
import { PAYLOAD, SESSION } from './fixtures.ts';
import { HOOK_CLIENT, SH_HOOK_CLIENT, spawnTimed, startServe } from './hookbox-process.ts';
import { type Summary, percentile, summarize } from './harness.ts';
import { NODE_POLICY, SH_POLICY } from './shell.ts';

/**
 * The agents measured: `copilot` is Copilot CLI reading a Claude Code setup
 * (its events go to `hookbox hook claude-code`), `copilot-own` Copilot CLI in
 * its own format (`hookbox hook copilot preToolUse`: the event on the command line).
 */
const AGENTS = ['claude-code', 'copilot', 'copilot-own', 'codex', 'gemini', 'qwen', 'factory'] as const;
type BenchAgent = (typeof AGENTS)[number];
/** The hookbox agent name each one's command hook runs, and the event after it where the agent's events carry no name. */
const CLIENT_AGENT: Readonly<Record<BenchAgent, readonly string[]>> = {
  'claude-code': ['claude-code'],
  copilot: ['claude-code'],
  'copilot-own': ['copilot', 'preToolUse'],
  codex: ['codex'],
  gemini: ['gemini'],
  qwen: ['qwen'],
  factory: ['factory'],
};

/** The stdin each agent gives a pre-tool command hook for the bench payload (shapes measured on the real binaries). */
const INPUTS: Readonly<Record<BenchAgent, string>> = {
  'claude-code': JSON.stringify({
    session_id: SESSION.id,
    transcript_path: '/tmp/transcript.jsonl',
    cwd: SESSION.cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: PAYLOAD.arguments.command, description: PAYLOAD.arguments.description },
    tool_use_id: PAYLOAD.toolCallId,
  }),
  // As Copilot CLI 1.0.102 sends it to a Claude Code setup: no tool_use_id, transcript_path or permission_mode; its own tool name.
  copilot: JSON.stringify({
    session_id: SESSION.id,
    cwd: SESSION.cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'bash',
    tool_input: { command: PAYLOAD.arguments.command, description: PAYLOAD.arguments.description },
  }),
  // As Copilot CLI 1.0.102 sends it to a hook of its own format: camelCase, no event name.
  'copilot-own': JSON.stringify({
    sessionId: SESSION.id,
    timestamp: 1796282883807,
    cwd: SESSION.cwd,
    toolName: 'bash',
    toolArgs: { command: PAYLOAD.arguments.command, description: PAYLOAD.arguments.description },
  }),
  qwen: JSON.stringify({
    session_id: SESSION.id,
    transcript_path: '/tmp/qwen.jsonl',
    cwd: SESSION.cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'run_shell_command',
    tool_input: { command: PAYLOAD.arguments.command, is_background: false },
    tool_use_id: PAYLOAD.toolCallId,
  }),
  // Factory Droid sends no tool_use_id; its shell tool is Execute.
  factory: JSON.stringify({
    session_id: SESSION.id,
    transcript_path: '/tmp/factory.jsonl',
    cwd: SESSION.cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Execute',
    tool_input: { command: PAYLOAD.arguments.command, summary: 'bench' },
  }),
  codex: JSON.stringify({
    session_id: SESSION.id,
    turn_id: 'bench-turn',
    transcript_path: '/tmp/rollout.jsonl',
    cwd: SESSION.cwd,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    tool_name: 'Bash',
    tool_input: { command: PAYLOAD.arguments.command },
    tool_use_id: PAYLOAD.toolCallId,
  }),
  gemini: JSON.stringify({
    session_id: SESSION.id,
    transcript_path: '/tmp/session.json',
    cwd: SESSION.cwd,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-12-01T00:00:00.000Z',
    tool_name: 'run_shell_command',
    tool_input: { command: PAYLOAD.arguments.command, description: PAYLOAD.arguments.description },
  }),
};

type RowId = 'sh-client' | 'node-client' | 'node-client-no-server' | 'sh' | 'node' | 'floor-sh' | 'floor-node';

export interface AgentRow {
  readonly agent: BenchAgent;
  readonly id: RowId;
  readonly label: string;
  readonly summary: Summary;
  readonly p90Us: number;
  /** What the row answered on the payload (every hook row must let it through). */
  readonly answer: string;
}

/** Measures the rows: `calls` spawns per fast row, `slowCalls` for the in-process (no server) row. */
export async function measureAgentRows(options: { calls: number; slowCalls: number; agents?: readonly BenchAgent[]; onProgress?: (message: string) => void }): Promise<AgentRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-agents-'));
  const config = join(dir, 'hookbox.config.json');
  await writeFile(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: join(EXAMPLES_DIR, 'guard-bash', 'dist', 'hook.json'), tools: ['bash'] }] }));
  const socket = join(dir, 'serve.sock');
  const downSocket = join(dir, 'nobody-listens.sock');
  const stop = await startServe(config, ['--socket', socket]);
  const rows: AgentRow[] = [];
  try {
    for (const agent of options.agents ?? AGENTS) {
      const input = INPUTS[agent];
      const client = CLIENT_AGENT[agent];
      const kinds: readonly { id: RowId; label: string; cmd: string; args: readonly string[] }[] = [
        { id: 'sh-client', label: `sh client ${agent} (serve up)`, cmd: 'sh', args: [SH_HOOK_CLIENT, ...client, '--socket', socket] },
        { id: 'node-client', label: `node client ${agent} (serve up)`, cmd: process.execPath, args: [HOOK_CLIENT, ...client, '--socket', socket] },
        { id: 'node-client-no-server', label: `node client ${agent} (no server, in-process)`, cmd: process.execPath, args: [HOOK_CLIENT, ...client, '--socket', downSocket, '--config', config] },
        { id: 'sh', label: `${agent}'s own sh hook`, cmd: 'sh', args: ['-c', SH_POLICY] },
        { id: 'node', label: `${agent}'s own node hook`, cmd: process.execPath, args: ['-e', NODE_POLICY] },
        { id: 'floor-sh', label: 'sh -c true (floor)', cmd: 'sh', args: ['-c', 'true'] },
        { id: 'floor-node', label: 'node -e 0 (floor)', cmd: process.execPath, args: ['-e', '0'] },
      ];
      const samples = new Map<RowId, number[]>(kinds.map((kind) => [kind.id, []]));
      const answers = new Map<RowId, string>();
      for (let i = 0; i < options.calls; i++) {
        for (const kind of kinds) {
          if (kind.id === 'node-client-no-server' && i >= options.slowCalls) continue;
          const run = await spawnTimed(kind.cmd, kind.args, input);
          if (run.code !== 0) throw new Error(`${kind.label} exited ${String(run.code)}: ${run.stdout.slice(0, 200)}`);
          samples.get(kind.id)!.push(run.ms);
          answers.set(kind.id, run.stdout.trim() === '' ? 'no objection' : run.stdout.trim().slice(0, 60));
        }
        options.onProgress?.(`agents: ${agent} round ${i + 1}/${options.calls}`);
      }
      for (const kind of kinds) {
        const taken = samples.get(kind.id)!;
        const sorted = [...taken].sort((a, b) => a - b);
        rows.push({ agent, id: kind.id, label: kind.label, summary: summarize(taken), p90Us: percentile(sorted, 0.9) * 1000, answer: kind.id.startsWith('floor') ? '' : (answers.get(kind.id) ?? '') });
      }
    }
  } finally {
    await stop();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The sh client's p50 as a fraction of `node -e 0`'s, per agent, against the target (≤ 0.25). */
export function shClientTargets(rows: readonly AgentRow[]): { agent: BenchAgent; ratio: number; met: boolean }[] {
  return AGENTS.filter((agent) => rows.some((row) => row.agent === agent)).map((agent) => {
    const p50 = (id: RowId): number => rows.find((row) => row.agent === agent && row.id === id)!.summary.p50Us;
    const ratio = p50('sh-client') / p50('floor-node');
    return { agent, ratio, met: ratio <= 0.25 };
  });
}

/** The rows as a text table: p50, p90, and each row's ratio to both floors of the same agent's rounds. */
export function formatAgentRows(rows: readonly AgentRow[]): string {
  const lines = [
    'agents: one pre-tool decision per spawned hook process (guard-bash for hookbox rows)',
    '  row                                                p50 ms   p90 ms   n   × sh -c true   × node -e 0   answer',
  ];
  for (const row of rows) {
    const floor = (id: RowId): number => rows.find((other) => other.agent === row.agent && other.id === id)!.summary.p50Us;
    lines.push(
      `  ${row.label.padEnd(50)} ${(row.summary.p50Us / 1000).toFixed(1).padStart(6)}   ${(row.p90Us / 1000).toFixed(1).padStart(6)}  ${String(row.summary.samples).padStart(2)}   ${(row.summary.p50Us / floor('floor-sh')).toFixed(1).padStart(9)}    ${(row.summary.p50Us / floor('floor-node')).toFixed(2).padStart(8)}     ${row.answer}`,
    );
  }
  for (const target of shClientTargets(rows)) {
    lines.push(`  target ${target.agent}: sh client p50 ≤ 0.25× node -e 0 — ${target.ratio.toFixed(2)}× ${target.met ? 'met' : 'NOT MET'}`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--calls');
  const calls = at > 0 ? Number(process.argv[at + 1]) : 30;
  const agentsAt = process.argv.indexOf('--agents');
  const named = agentsAt > 0 ? (process.argv[agentsAt + 1] ?? '').split(',') : [...AGENTS];
  const unknown = named.filter((name) => !(AGENTS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--agents: unknown ${unknown.join(', ')} (expected some of ${AGENTS.join(', ')})`);
  const rows = await measureAgentRows({ calls, slowCalls: Math.min(5, calls), agents: named as BenchAgent[], onProgress: (message) => process.stderr.write(`${message}\n`) });
  process.stdout.write(formatAgentRows(rows));
}
