/**
 * The `agents` rows: one PreToolUse-equivalent decision per agent (Codex's
 * `PreToolUse`, Gemini CLI's `BeforeTool`) on the bench payload, spawned
 * per call the way the agent runs a command hook:
 *
 * - `hookbox hook <agent>` with `hookbox serve` up (guard-bash on its socket),
 * - `hookbox hook <agent>` with no server (decides in-process),
 * - the agent's own `sh` hook and `node` hook (bench/shell.ts's crude
 *   guard policy) on the same stdin.
 *
 * Rows are interleaved call by call so load from other processes lands on
 * all of them alike. Run alone: `npx tsx bench/agents.ts [--calls N]`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAMPLES_DIR } from '../examples-hooks/build.ts';
import { PAYLOAD, SESSION } from './fixtures.ts';
import { HOOK_CLIENT, spawnTimed, startServe } from './hookbox-process.ts';
import { type Summary, summarize } from './harness.ts';
import { NODE_POLICY, SH_POLICY } from './shell.ts';


/** The stdin each agent gives a pre-tool command hook for the bench payload (shapes measured on the real binaries). */
const INPUTS: Readonly<Record<'codex' | 'gemini', string>> = {
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

export interface AgentRow {
  readonly agent: 'codex' | 'gemini';
  readonly id: 'hook-server-up' | 'hook-server-down' | 'sh' | 'node';
  readonly label: string;
  readonly summary: Summary;
  /** What the row answered on the payload (every row must let it through). */
  readonly answer: string;
}

/** Measures the rows: `calls` spawns per fast row, `slowCalls` for the in-process (no server) row. */
export async function measureAgentRows(options: { calls: number; slowCalls: number; onProgress?: (message: string) => void }): Promise<AgentRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-agents-'));
  const config = join(dir, 'hookbox.config.json');
  await writeFile(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: join(EXAMPLES_DIR, 'guard-bash', 'dist', 'hook.json'), tools: ['bash'] }] }));
  const socket = join(dir, 'serve.sock');
  const downSocket = join(dir, 'nobody-listens.sock');
  const stop = await startServe(config, ['--socket', socket]);
  const rows: AgentRow[] = [];
  try {
    for (const agent of ['codex', 'gemini'] as const) {
      const input = INPUTS[agent];
      const kinds = [
        { id: 'hook-server-up', label: `hookbox hook ${agent} (serve up)`, cmd: process.execPath, args: [HOOK_CLIENT, agent, '--socket', socket, '--config', config] },
        { id: 'hook-server-down', label: `hookbox hook ${agent} (no server, in-process)`, cmd: process.execPath, args: [HOOK_CLIENT, agent, '--socket', downSocket, '--config', config] },
        { id: 'sh', label: `${agent}'s own sh hook`, cmd: 'sh', args: ['-c', SH_POLICY] },
        { id: 'node', label: `${agent}'s own node hook`, cmd: process.execPath, args: ['-e', NODE_POLICY] },
      ] as const;
      const samples = new Map<string, number[]>(kinds.map((kind) => [kind.id, []]));
      const answers = new Map<string, string>();
      for (let i = 0; i < options.calls; i++) {
        for (const kind of kinds) {
          if (kind.id === 'hook-server-down' && i >= options.slowCalls) continue;
          const run = await spawnTimed(kind.cmd, kind.args, input);
          if (run.code !== 0) throw new Error(`${kind.label} exited ${String(run.code)}`);
          samples.get(kind.id)!.push(run.ms);
          answers.set(kind.id, run.stdout.trim() === '' ? 'no objection' : run.stdout.trim().slice(0, 60));
        }
        options.onProgress?.(`agents: ${agent} round ${i + 1}/${options.calls}`);
      }
      for (const kind of kinds) rows.push({ agent, id: kind.id, label: kind.label, summary: summarize(samples.get(kind.id)!), answer: answers.get(kind.id) ?? '' });
    }
  } finally {
    await stop();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The rows as a text table, with each hookbox row's ratio to the agent's own node hook. */
export function formatAgentRows(rows: readonly AgentRow[]): string {
  const lines = ['agents: one pre-tool decision per spawned hook process (guard-bash for hookbox rows)', '  row                                              p50 ms   p99 ms   n   × node hook   answer'];
  for (const row of rows) {
    const node = rows.find((other) => other.agent === row.agent && other.id === 'node')!.summary.p50Us;
    lines.push(
      `  ${row.label.padEnd(48)} ${(row.summary.p50Us / 1000).toFixed(1).padStart(6)}   ${(row.summary.p99Us / 1000).toFixed(1).padStart(6)}  ${String(row.summary.samples).padStart(2)}   ${(row.summary.p50Us / node).toFixed(2).padStart(6)}       ${row.answer}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--calls');
  const calls = at > 0 ? Number(process.argv[at + 1]) : 15;
  const rows = await measureAgentRows({ calls, slowCalls: Math.min(3, calls), onProgress: (message) => process.stderr.write(`${message}\n`) });
  process.stdout.write(formatAgentRows(rows));
}
