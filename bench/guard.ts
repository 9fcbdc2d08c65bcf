/**
 * The `guard` section: what hookbox's self-protection (host/guard) adds to
 * one tool call — the pre-tool check (command analysis, protected set) and
 * the snapshot before the tool plus its comparison after it — measured side
 * by side with the same hook set without it, round by round.
 *
 *   npm run bench -- --only guard
 *   npx tsx bench/guard.ts [calls]   # this section alone
 *
 * Rows: guard-bash's pre + post dispatch on a bus without self-protection;
 * the same bus with self-protection first (what every transport runs); and
 * self-protection alone on an otherwise empty bus. The project holds a
 * Claude Code and a Codex setup, so the snapshot has files to read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildExample } from '../examples-hooks/build.ts';
import { loadHooks, loadLayeredConfig, selfProtectionFor } from '../host/config/index.ts';
import { SeamBus, type SeamListener } from '../host/events/index.ts';
import { HookRunner } from '../host/runner/index.ts';
import { type Summary, formatSection, summarize } from './harness.ts';

export interface GuardRow {
  readonly id: 'hooks' | 'guarded' | 'guard-alone';
  readonly label: string;
  readonly summary: Summary;
}

export interface GuardTarget {
  readonly label: string;
  readonly target: string;
  readonly value: string;
  readonly met: boolean;
}

/** What self-protection may add to a hot pre + post pair of guard-bash, at p50. */
const TARGET_ADDED_US = 250;

export async function measureGuard(options: { calls: number; rounds: number; onProgress: (message: string) => void }): Promise<{ rows: GuardRow[]; targets: GuardTarget[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookbox-bench-guard-'));
  try {
    options.onProgress('guard: guard-bash (built from source when out of date)');
    const { manifestPath: manifest } = await buildExample('guard-bash');
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest }] }));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'hookbox hook claude-code' }] }] } }));
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex', 'hooks.json'), '{"hooks":{}}');
    const layered = loadLayeredConfig({ project: config });
    const guard = selfProtectionFor(layered, config)!;
    const runner = await HookRunner.start({});
    try {
      const hooks = await loadHooks(layered, runner);
      const bus = (listeners: readonly SeamListener[]): SeamBus => {
        const made = new SeamBus();
        for (const listener of listeners) made.use(listener);
        return made;
      };
      const rows: [GuardRow['id'], string, SeamBus][] = [
        ['hooks', 'guard-bash pre + post, no self-protection', bus(hooks)],
        ['guarded', 'self-protection + guard-bash pre + post (every transport)', bus([guard, ...hooks])],
        ['guard-alone', 'self-protection alone, pre + post', bus([guard])],
      ];
      const session = { id: 'bench', turn: 1, step: 1, cwd: dir };
      const args = { command: 'npm test -- --run src/app.spec.ts && git status --short' };
      const call = async (on: SeamBus, id: string): Promise<void> => {
        const toolCall = { toolCallId: id, toolName: 'bash', arguments: args };
        await on.dispatch('tools/pre-execute', toolCall, session);
        await on.dispatch('tools/post-execute', { ...toolCall, result: { content: 'ok', isError: false } }, session);
      };
      const samples = new Map<GuardRow['id'], number[]>(rows.map(([id]) => [id, []]));
      for (let round = 0; round < options.rounds; round++) {
        for (const [id, label, on] of rows) {
          options.onProgress(`guard: ${label}, round ${round + 1}/${options.rounds}`);
          for (let i = 0; i < 20; i++) await call(on, `${id}-warm-${round}-${i}`);
          for (let i = 0; i < options.calls; i++) {
            const start = performance.now();
            await call(on, `${id}-${round}-${i}`);
            samples.get(id)!.push(performance.now() - start);
          }
        }
      }
      const result = rows.map(([id, label]): GuardRow => ({ id, label, summary: summarize(samples.get(id)!) }));
      const p50 = (id: GuardRow['id']): number => result.find((row) => row.id === id)!.summary.p50Us;
      const added = p50('guarded') - p50('hooks');
      return {
        rows: result,
        targets: [
          {
            label: 'self-protection added to a hot guard-bash pre + post pair, p50',
            target: `≤ ${TARGET_ADDED_US} µs`,
            value: `${added.toFixed(0)} µs (${(p50('guarded') / p50('hooks')).toFixed(2)}× the pair without it)`,
            met: added <= TARGET_ADDED_US,
          },
        ],
      };
    } finally {
      await runner.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatGuard(result: { rows: readonly GuardRow[]; targets: readonly GuardTarget[] }): string {
  return formatSection("Self-protection (one bash tool call = pre-tool + post-tool, a project with Claude Code's and Codex's settings)", result);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const calls = Number(process.argv[2] ?? 500);
  process.stdout.write(formatGuard(await measureGuard({ calls, rounds: 3, onProgress: (message) => process.stderr.write(`${message}\n`) })));
}
