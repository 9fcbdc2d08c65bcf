// Finding 5: memory added up across sessions. One warm instance per (hook,
// session), each allowed `memoryMb`, and nothing bounded the sum: 64 sessions
// × a hook sitting at its 64 MiB cap took the process past 4 GiB. The runner
// now keeps every live instance within one memory budget, evicting idle ones
// least-recently-used, and a call that cannot fit is a `memory` fault.
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperatorConfig } from '../../host/config/index.ts';
import { ConfigError, HookLoadError } from '../../host/errors.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import { HookRunner, type HookLogEntry } from '../../host/runner/index.ts';
import { compileWat, compileWatSource } from '../helpers/wat.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { MEMORY_HOG_WAT } from './fixtures/memory-hog.ts';
import { waitFor } from '../helpers/wait-for.ts';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./fixtures/memory-hog-child.ts', import.meta.url));
// Resolved like an import (not a fixed node_modules path), so it also works from a copy of
// the project whose node_modules lives further up (the mutation-testing sandbox).
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');

interface ChildReport {
  baselineMb: number;
  peakMb: number;
  maxRssMb: number;
  budgetMb: number;
  evictions: number;
  evictionNotes: number;
  outcomes: Record<string, number>;
}

describe('memory budget across sessions', () => {
  it('64 sessions × a hog at its 64 MiB cap: process RSS stays within the budget (measured in a child process)', async () => {
    const budgetMb = 384;
    const { stdout } = await run(process.execPath, [TSX_CLI, CHILD, '64', String(budgetMb)], { timeout: 240_000, maxBuffer: 1 << 20 });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) as string) as ChildReport;
    console.info(`memory budget, 64 sessions × 64 MiB hog: ${JSON.stringify(report)}`);
    // Every call got the hook's real decision: room was made by evicting idle instances, never by refusing.
    expect(report.outcomes).toEqual({ 'decision:allow': 64 });
    // The bound: what the process held before the first call, plus the budget, plus 128 MiB for
    // what the budget does not see (V8 heaps, compiled code, channel buffers). Unbounded, the same
    // run holds 64 × 64 MiB = 4 GiB.
    expect(report.maxRssMb).toBeLessThan(report.baselineMb + budgetMb + 128);
    expect(report.evictions).toBeGreaterThan(0);
    expect(report.evictionNotes).toBe(report.evictions);
  }, 300_000);
});

describe('memory budget decisions', () => {
  let runner: HookRunner;
  const logs: HookLogEntry[] = [];
  let workspace: TestWorkspace;
  beforeAll(async () => {
    // 195 MiB. A hog instance is charged 132 MiB while it runs (64 linear + 64 Extism allocations +
    // 4 vars), 68 MiB idle once grown; the spinner 69 MiB while it runs.
    runner = await HookRunner.start({ workers: 2, spareWorker: false, memoryBudgetMb: 195, onLog: (entry) => logs.push(entry) });
    workspace = makeWorkspace('hookbox-memory-budget-');
  });
  afterAll(async () => {
    await runner?.close();
    workspace?.dispose();
  });

  const call = (hook: Parameters<typeof invokeListener>[0], session: string) =>
    invokeListener(
      hook,
      'tools/pre-execute',
      { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
      { action: 'allow' },
      { id: session, turn: 1, step: 1, cwd: '/tmp' },
    );

  it('a call that cannot fit beside the calls running is a memory fault (the seam denies); idle instances are evicted, and logged', async () => {
    const spinner = await runner.load({ name: 'spinner', wasm: await compileWat('infinite-loop'), limits: { timeoutMs: 3000 } });
    const hog = await runner.load({ name: 'hog', wasm: await compileWatSource(MEMORY_HOG_WAT), limits: { memoryMb: 64, timeoutMs: 10_000 } });
    try {
      // Load-time instances all sit on one worker (the first session takes them there); hand the
      // spinner's to another session, so session s gets a new instance on the other worker.
      spinner.prepareSession?.({ id: 'x', turn: 1, step: 1, cwd: '/tmp' });
      // The spinner runs (charged its 69 MiB cap) on one worker for 3 s; the hog's call would need 132 MiB beside it.
      const idle = runner.memory.usedBytes;
      const spinning = call(spinner, 's');
      // Wait for the charge itself, not for a time: the spinner's call holds its 69 MiB cap in the budget.
      await waitFor(() => runner.memory.usedBytes - idle >= 69 * 2 ** 20, "the spinner's 69 MiB charged to the budget");
      const refused = await call(hog, 'h');
      expect(refused.invocation.fault).toEqual({ kind: 'memory', message: expect.stringMatching(/^the runner's memory budget \(195 MiB\) cannot fit this call/) });
      expect(refused.decision).toMatchObject({ action: 'deny' });
      // A refusal is the runner's state, not the hook's fault in that session: no quarantine streak.
      expect((await spinning).invocation.fault?.kind).toBe('timeout');
      expect((await call(hog, 'h')).decision).toEqual({ action: 'allow' });
      // h's instance is now idle at 68 MiB; a new session's instance (132 MiB while it starts) evicts it.
      logs.length = 0;
      expect((await call(hog, 'c')).decision).toEqual({ action: 'allow' });
      expect(logs).toContainEqual({ hook: 'hog', level: 'warn', session: 'h', message: expect.stringContaining("this session's state (Var) is lost") });
      expect(runner.memory.evictions).toBeGreaterThan(0);
      expect(runner.memory.usedBytes).toBeLessThanOrEqual(runner.memory.budgetBytes);
    } finally {
      await spinner.close();
      await hog.close();
    }
  });

  it('a hook one instance of which exceeds the whole budget is refused at load, naming the figures', async () => {
    await expect(
      runner.load({ name: 'big', wasm: await compileWatSource(MEMORY_HOG_WAT), source: 'big.wasm', limits: { memoryMb: 256 } }),
    ).rejects.toThrow(HookLoadError);
    await expect(
      runner.load({ name: 'big', wasm: await compileWatSource(MEMORY_HOG_WAT), source: 'big.wasm', limits: { memoryMb: 256 } }),
    ).rejects.toThrow(/^big\.wasm: one instance of hook "big" may hold up to 336 MiB .*more than the runner's whole memory budget of 195 MiB \(memoryBudgetMb\)/);
  });

  it('the operator config sets the budget in defaults; a bad value names the file and the JSON path', () => {
    const good = join(workspace.dir, 'good.json');
    writeFileSync(good, JSON.stringify({ hooks: [], defaults: { memoryBudgetMb: 512 } }));
    expect(loadOperatorConfig(good).runner).toEqual({ memoryBudgetMb: 512 });
    const bad = join(workspace.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ hooks: [], defaults: { memoryBudgetMb: -1 } }));
    expect(() => loadOperatorConfig(bad)).toThrow(ConfigError);
    expect(() => loadOperatorConfig(bad)).toThrow(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*defaults\\.memoryBudgetMb`));
  });
});
