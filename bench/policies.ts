/**
 * The `policies` section: what each built-in policy of the catalog costs on
 * the hot call, one pre-tool dispatch of the bench's 2.3 KB compound bash
 * call (`PAYLOAD`), each policy alone on its own bus, configured with its
 * own example (`hookbox policies <name>`), loaded through the layered config
 * as an operator names it (`"policy": "<name>"`) — so the rows are the one
 * catalog module (`dist/catalog/policies.wasm`) in a real runner worker —
 * round by round, with guard-bash beside them for scale.
 *
 *   npm run bench -- --only policies
 *   npx tsx bench/policies.ts [calls]   # this section alone
 *
 * A policy's decision on the payload (allow, ask or deny, as its example
 * config says) is in its row's label: a deny returns early from a waterfall
 * the same as an allow, so every row is one hook call.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { CATALOG } from '../host/catalog/index.ts';
import { loadHooks, loadLayeredConfig } from '../host/config/index.ts';
import { SeamBus } from '../host/events/index.ts';
import { HookRunner } from '../host/runner/index.ts';
import { EXAMPLES_DIR } from '../examples-hooks/build.ts';
import { PAYLOAD, SESSION } from './fixtures.ts';
import { type Summary, formatSection, summarize } from './harness.ts';

export interface PolicyRow {
  readonly name: string;
  readonly label: string;
  readonly summary: Summary;
}

/** The catalog's policies that decide pre-tool calls: the ones on the hot path. */
const HOT = CATALOG.filter((policy) => policy.seams.includes('tools/pre-execute'));

export async function measurePolicies(options: { calls: number; rounds: number; onProgress: (message: string) => void }): Promise<{ rows: PolicyRow[]; targets: { label: string; target: string; value: string; met: boolean }[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookbox-bench-policies-'));
  try {
    const configFile = join(dir, 'hookbox.config.json');
    const entries = [
      { name: 'guard-bash', manifest: join(EXAMPLES_DIR, 'guard-bash', 'dist', 'hook.json') },
      // A policy reading a signal is granted the ones its example names, as an operator would.
      ...HOT.map((policy) => ({ name: policy.name, policy: policy.name, config: policy.example, ...(policy.signals !== undefined && { grant: { signals: [...policy.signals(policy.example)] } }) })),
    ];
    const signals = Object.fromEntries(HOT.flatMap((policy) => (policy.signals?.(policy.example) ?? []).map((name) => [name, { argv: ['true'] }])));
    writeFileSync(configFile, JSON.stringify({ ...(Object.keys(signals).length > 0 && { signals }), hooks: entries }));
    // Only this file: the machine's organisation and user layers stay out of the figures.
    const org = join(dir, 'org.json');
    writeFileSync(org, JSON.stringify({ hooks: [] }));
    const config = loadLayeredConfig({ project: configFile, env: { HOME: dir, HOOKBOX_ORG_CONFIG: org } });
    const runner = await HookRunner.start({ ...config.runner });
    try {
      options.onProgress(`policies: loading guard-bash and ${HOT.length} catalog policies`);
      const listeners = await loadHooks(config, runner);
      const rows = listeners.map((listener) => {
        const bus = new SeamBus();
        bus.use(listener);
        return { name: listener.name, bus, decision: '' };
      });
      const session = { ...SESSION, cwd: dir };
      const samples = new Map<string, number[]>(rows.map((row) => [row.name, []]));
      for (let round = 0; round < options.rounds; round++) {
        options.onProgress(`policies: round ${round + 1}/${options.rounds}`);
        for (const row of rows) {
          const call = (n: string) => row.bus.dispatch('tools/pre-execute', { ...PAYLOAD, toolCallId: n }, session);
          for (let i = 0; i < 30; i++) await call(`${row.name}-warm-${round}-${i}`);
          for (let i = 0; i < options.calls; i++) {
            const start = performance.now();
            const result = await call(`${row.name}-${round}-${i}`);
            samples.get(row.name)!.push(performance.now() - start);
            const fault = result.invocations.find((invocation) => invocation.fault !== undefined)?.fault;
            if (fault !== undefined) throw new Error(`policies bench: ${row.name} faulted: ${JSON.stringify(fault)}`);
            row.decision = result.decision.action;
          }
        }
      }
      const measured = rows.map((row): PolicyRow => ({ name: row.name, label: `${row.name}${row.name === 'guard-bash' ? ' (example, for scale)' : ''} → ${row.decision}`, summary: summarize(samples.get(row.name)!) }));
      const policies = measured.filter((row) => row.name !== 'guard-bash').sort((a, b) => b.summary.p50Us - a.summary.p50Us);
      const guard = measured.find((row) => row.name === 'guard-bash')!;
      const heaviest = policies.slice(0, 2);
      return {
        rows: measured,
        targets: [
          {
            label: 'the two heaviest policies, p50 against guard-bash',
            target: 'reported',
            value: heaviest.map((row) => `${row.name} ${(row.summary.p50Us / 1000).toFixed(3)} ms (${(row.summary.p50Us / guard.summary.p50Us).toFixed(2)}×)`).join(', '),
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

export function formatPolicies(result: Awaited<ReturnType<typeof measurePolicies>>): string {
  return formatSection('Catalog policies on the hot call (one pre-tool dispatch of the 2.3 KB bash call, each policy alone)', result);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const calls = Number(process.argv[2] ?? 300);
  process.stdout.write(formatPolicies(await measurePolicies({ calls, rounds: 3, onProgress: (message) => process.stderr.write(`${message}\n`) })));
}
