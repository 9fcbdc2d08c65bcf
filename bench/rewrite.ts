/**
 * The `rewrite` section: what pre-tool input rewrite costs on a hot call
 * (docs/rfc-tool-input-rewrite.md). Every gate must stand on the arguments
 * that run, so a rewrite makes hookbox ask again the hooks that decided
 * before it: with gate, rewriter, gate that is 5 hook calls instead of 3.
 * Measured side by side, round by round, on one runner, with real wasm
 * hooks built by the PDK from tests/pdk/fixtures/rewrite/.
 *
 *   npm run bench -- --only rewrite
 *   npx tsx bench/rewrite.ts [calls]   # this section alone
 *
 * Rows: two gates, no rewriter (today's hot call); gate, rewriter, gate on a
 * call the rewriter leaves alone (one pass, 3 hook calls); the same on a call
 * it rewrites (two passes, 5 hook calls).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadHookFile } from '../host/config/index.ts';
import { SeamBus } from '../host/events/index.ts';
import { HookRunner } from '../host/runner/index.ts';
import { buildHook } from '../pdk/compiler/index.ts';
import { type Summary, formatSection, summarize } from './harness.ts';

const FIXTURES = fileURLToPath(new URL('../tests/pdk/fixtures/rewrite/', import.meta.url));

export interface RewriteRow {
  readonly id: 'gates' | 'unrewritten' | 'rewritten';
  readonly label: string;
  readonly summary: Summary;
}

export interface RewriteFigures {
  readonly rows: RewriteRow[];
  readonly targets: { label: string; target: string; value: string; met: boolean }[];
}

export async function measureRewrite(options: { calls: number; rounds: number; onProgress: (message: string) => void }): Promise<RewriteFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'hookbox-bench-rewrite-'));
  try {
    options.onProgress('rewrite: building the gate and the rewriter');
    for (const name of ['gate', 'rewriter']) await buildHook({ entry: join(FIXTURES, `${name}.ts`), outFile: join(dir, name, 'hook.wasm') });
    const runner = await HookRunner.start({});
    try {
      const load = (kind: string, name: string, config: Record<string, string>) => runner.load(loadHookFile(join(dir, kind, 'hook.json'), { name, config }));
      const first = await load('gate', 'gate-1', { deny: 'rm -rf /' });
      const second = await load('gate', 'gate-2', { deny: 'curl' });
      const rewriter = await load('rewriter', 'rewriter', { mode: 'replace', from: 'echo A', to: 'echo B' });
      const bus = (listeners: readonly (typeof first)[]): SeamBus => {
        const made = new SeamBus();
        for (const listener of listeners) made.use(listener);
        return made;
      };
      const rows: [RewriteRow['id'], string, SeamBus, string][] = [
        ['gates', 'two gates, no rewriter (today)', bus([first, second]), 'echo A > out.txt'],
        ['unrewritten', 'gate, rewriter, gate; nothing to rewrite (1 pass, 3 calls)', bus([first, rewriter, second]), 'echo C > out.txt'],
        ['rewritten', 'gate, rewriter, gate; rewritten (2 passes, 5 calls)', bus([first, rewriter, second]), 'echo A > out.txt'],
      ];
      const session = { id: 'bench', turn: 1, step: 1, cwd: dir };
      const samples = new Map<RewriteRow['id'], number[]>(rows.map(([id]) => [id, []]));
      for (let round = 0; round < options.rounds; round++) {
        for (const [id, label, on, command] of rows) {
          options.onProgress(`rewrite: ${label}, round ${round + 1}/${options.rounds}`);
          const call = (n: string) => on.dispatch('tools/pre-execute', { toolCallId: n, toolName: 'bash', arguments: { command } }, session);
          for (let i = 0; i < 20; i++) await call(`${id}-warm-${round}-${i}`);
          for (let i = 0; i < options.calls; i++) {
            const start = performance.now();
            const result = await call(`${id}-${round}-${i}`);
            samples.get(id)!.push(performance.now() - start);
            if (result.decision.action !== 'allow') throw new Error(`rewrite bench: ${label} decided ${result.decision.action}`);
          }
        }
      }
      const result = rows.map(([id, label]): RewriteRow => ({ id, label, summary: summarize(samples.get(id)!) }));
      const p50 = (id: RewriteRow['id']): number => result.find((row) => row.id === id)!.summary.p50Us;
      return {
        rows: result,
        targets: [
          {
            label: 'a rewritten call (gate, rewriter, gate, re-asked) against two gates, p50',
            target: 'reported',
            value: `${(p50('rewritten') / p50('gates')).toFixed(2)}× (${(p50('rewritten') - p50('gates')).toFixed(0)} µs more); unrewritten ${(p50('unrewritten') / p50('gates')).toFixed(2)}×`,
            met: true,
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

export function formatRewrite(result: RewriteFigures): string {
  return formatSection('Pre-tool rewrite (one hot bash pre-tool dispatch; every gate re-asked on the final arguments)', result);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const calls = Number(process.argv[2] ?? 500);
  process.stdout.write(formatRewrite(await measureRewrite({ calls, rounds: 3, onProgress: (message) => process.stderr.write(`${message}\n`) })));
}
