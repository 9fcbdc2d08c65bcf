/**
 * What isolation of failure costs (not part of `npm run bench`): per-call p50
 * of hooks that write a Var at every call (the WAT var-counter; the real
 * test-gate recording a test run) and of one that keeps none (the WAT allow),
 * through `HookRunner`, with this tree's runner (Vars mirrored to the main
 * thread) and, with `--before <checkout>`, the runner of another checkout in
 * the same process, in interleaved rounds. Then the memory an organisation
 * lane adds: process RSS after a runner loads test-gate on the shared workers,
 * and after one loads it in the organisation lane (its own worker and spare).
 *
 *   git archive <rev> host pdk | tar -x -C /tmp/hookbox-before   # e.g. the commit before the Var mirror
 *   ln -s "$PWD/node_modules" /tmp/hookbox-before/node_modules; cp package.json tsconfig.json /tmp/hookbox-before/
 *   npx tsx bench/isolation.ts --before /tmp/hookbox-before [--rounds 5] [--calls 400]
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadHookFile } from '../host/config/index.ts';
import { invokeListener } from '../host/events/invoke.ts';
import type { HookRunner as RunnerType, WasmHook, WasmHookSpec } from '../host/runner/index.ts';
import type { PayloadOf, SeamId } from '../host/seams/index.ts';
import { EXAMPLES_DIR } from '../examples-hooks/build.ts';
import { compileWat } from '../tests/helpers/wat.ts';
import { SESSION } from './fixtures.ts';

type RunnerClass = { start(options?: Record<string, unknown>): Promise<RunnerType> };

const { values } = parseArgs({ options: { before: { type: 'string' }, rounds: { type: 'string', default: '5' }, calls: { type: 'string', default: '400' } } });
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);

async function runnerClass(root: string): Promise<RunnerClass> {
  return ((await import(pathToFileURL(path.join(root, 'host', 'runner', 'index.ts')).href)) as { HookRunner: RunnerClass }).HookRunner;
}

const TEST_RUN: PayloadOf<'tools/post-execute'> = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm test' }, result: { content: 'exit code 1', isError: true } };
const PRE: PayloadOf<'tools/pre-execute'> = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } };

interface Row {
  label: string;
  hook: WasmHook;
  seam: SeamId;
  payload: unknown;
  samples: number[];
}

async function time(row: Row, calls: number, keep: boolean): Promise<void> {
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    const applied = await invokeListener(row.hook, row.seam, row.payload as never, row.seam === 'tools/pre-execute' ? { action: 'allow' } : (null as never), SESSION);
    if (applied.invocation.fault !== undefined) throw new Error(`${row.label}: ${applied.invocation.fault.message}`);
    if (keep) row.samples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
}

const p50 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
const gate = (): WasmHookSpec => loadHookFile(path.join(EXAMPLES_DIR, 'test-gate', 'dist', 'hook.json'));

const sides: [string, RunnerClass][] = [['after', await runnerClass(process.cwd())]];
if (values.before !== undefined) sides.unshift(['before', await runnerClass(path.resolve(values.before))]);
const runners: RunnerType[] = [];
const rows: Row[] = [];
try {
  for (const [side, HookRunner] of sides) {
    const runner = await HookRunner.start({ workers: 1 });
    runners.push(runner);
    const counter = await runner.load({ name: 'var-counter', wasm: await compileWat('var-counter') });
    const allow = await runner.load({ name: 'allow', wasm: await compileWat('allow') });
    const testGate = await runner.load(gate());
    rows.push({ label: `${side} var-counter (a Var each call)`, hook: counter, seam: 'tools/pre-execute', payload: PRE, samples: [] });
    rows.push({ label: `${side} test-gate post-tool (a Var each call)`, hook: testGate, seam: 'tools/post-execute', payload: TEST_RUN, samples: [] });
    rows.push({ label: `${side} allow (no Var)`, hook: allow, seam: 'tools/pre-execute', payload: PRE, samples: [] });
  }
  for (const row of rows) await time(row, 200, false);
  for (let round = 0; round < ROUNDS; round++) for (const row of rows) await time(row, CALLS, true);
  console.log(`per-call p50 through HookRunner (1 worker), ${ROUNDS} interleaved rounds × ${CALLS} calls, µs`);
  for (const row of rows) console.log(`  ${row.label.padEnd(44)} p50 ${p50(row.samples).toFixed(1).padStart(7)}`);
  if (values.before !== undefined) {
    for (const row of rows.filter((candidate) => candidate.label.startsWith('after'))) {
      const before = rows.find((candidate) => candidate.label === row.label.replace('after', 'before'));
      if (before !== undefined) console.log(`  ratio ${row.label.slice(6).padEnd(38)} after ÷ before ${(p50(row.samples) / p50(before.samples)).toFixed(2)}×`);
    }
  }
} finally {
  await Promise.all(runners.map((runner) => runner.close()));
}

// The memory of an organisation lane: RSS growth of a runner that loads test-gate on its shared
// workers, then of one that loads it in the lane (a worker and a spare of its own), after a GC.
const gc = (globalThis as { gc?: () => void }).gc;
const rss = () => {
  gc?.();
  return process.memoryUsage().rss / 1_048_576;
};
const HookRunner = (sides.at(-1) as [string, RunnerClass])[1];
for (const lane of [undefined, 'organisation'] as const) {
  const before = rss();
  const runner = await HookRunner.start({ workers: 1 });
  try {
    const hook = await runner.load({ ...gate(), ...(lane !== undefined && { lane }) });
    await time({ label: 'mem', hook, seam: 'tools/post-execute', payload: TEST_RUN, samples: [] }, 50, false);
    console.log(`RSS growth, a runner with test-gate ${lane === undefined ? 'on the shared workers   ' : 'in the organisation lane'}: ${(rss() - before).toFixed(1)} MiB (workers started: ${runner.workersStarted})${gc === undefined ? ' (run with node --expose-gc for steadier figures)' : ''}`);
  } finally {
    await runner.close();
  }
}
