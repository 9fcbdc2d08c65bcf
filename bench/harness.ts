/**
 * Measurement plumbing shared by every bench module: latency rows timed with
 * tinybench in interleaved rounds (so machine-load drift hits every row of a
 * ratio alike), percentiles over the merged samples, event-loop lag, and a
 * forced GC for memory figures.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Bench } from 'tinybench';

/** Percentiles of one set of samples, in microseconds. */
export interface Summary {
  readonly samples: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly minUs: number;
  readonly maxUs: number;
}

/** One latency row: an async call timed many times. */
export interface LatencyTask {
  readonly id: string;
  readonly fn: () => Promise<unknown>;
  /** Time budget per round in ms (tinybench keeps going until both this and `minIterations` are met). */
  readonly timeMs: number;
  /** Minimum iterations per round. */
  readonly minIterations: number;
  /** Warm-up iterations per round (and a 0 ms warm-up time budget, so the count is exact for slow rows). */
  readonly warmupIterations: number;
}

/** Nearest-rank percentile of ascending samples (q in 0..1). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Summarizes samples given in milliseconds. */
export function summarize(samplesMs: readonly number[]): Summary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    samples: sorted.length,
    p50Us: percentile(sorted, 0.5) * 1000,
    p99Us: percentile(sorted, 0.99) * 1000,
    meanUs: (sum / Math.max(1, sorted.length)) * 1000,
    minUs: (sorted[0] ?? Number.NaN) * 1000,
    maxUs: (sorted.at(-1) ?? Number.NaN) * 1000,
  };
}

/**
 * Times every task in `rounds` interleaved rounds (row A, B, C, then A, B, C
 * again…), each round a fresh tinybench run with warm-up, and merges the
 * samples per task. Interleaving keeps a burst of load from another process
 * from landing on one row of a ratio only.
 */
export async function measureRounds(
  tasks: readonly LatencyTask[],
  rounds: number,
  onRound?: (round: number) => void,
): Promise<Map<string, Summary>> {
  const samples = new Map<string, number[]>(tasks.map((task) => [task.id, []]));
  for (let round = 0; round < rounds; round++) {
    onRound?.(round);
    for (const task of tasks) {
      const bench = new Bench({
        time: task.timeMs,
        iterations: task.minIterations,
        warmupIterations: task.warmupIterations,
        warmupTime: 0,
        retainSamples: true,
        throws: true,
      });
      bench.add(task.id, task.fn);
      await bench.run();
      const result = bench.tasks[0]?.result;
      if (result === undefined || !('latency' in result)) throw new Error(`bench task ${task.id} did not complete (${result?.state})`);
      samples.get(task.id)?.push(...(result.latency.samples ?? []));
    }
  }
  return new Map([...samples].map(([id, values]) => [id, summarize(values)]));
}

/** Times `fn` n times in a plain loop (for calls that must each start from a fresh state). */
export async function timeEach(n: number, fn: (i: number) => Promise<void>): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return summarize(samples);
}

const LAG_RESOLUTION_MS = 1;

/**
 * Event-loop delay while `work` runs: max and p99 in ms (1 ms sampling
 * resolution). The monitor samples on a timer, and a block is recorded only
 * when that timer fires late — after the block. `work` resolving is a
 * microtask, which runs before the next timers phase, so the monitor is kept
 * on until a timer due after its own has fired: otherwise a block at the very
 * end of the work (a 50 ms one read as 1.2 ms) is never seen. Likewise its
 * first tick only sets a baseline, so the work starts after that tick: a
 * block right at the start would otherwise be taken for the baseline.
 */
export async function withLagMonitor<T>(work: () => Promise<T>): Promise<{ value: T; lagMaxMs: number; lagP99Ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  histogram.enable();
  try {
    await new Promise((resolve) => setTimeout(resolve, LAG_RESOLUTION_MS + 1));
    const value = await work();
    await new Promise((resolve) => setTimeout(resolve, LAG_RESOLUTION_MS + 1));
    histogram.disable();
    return { value, lagMaxMs: histogram.max / 1e6, lagP99Ms: histogram.percentile(99) / 1e6 };
  } finally {
    histogram.disable();
  }
}

let gcFn: (() => void) | undefined;

/** Runs a full GC (enabling `--expose-gc` at runtime: `npm run bench` cannot pass node flags). */
export function forceGc(): void {
  if (gcFn === undefined) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
  gcFn();
}

/** Resident set size of the whole process (worker threads included) after a full GC, in bytes. */
export async function settledRss(): Promise<number> {
  forceGc();
  await sleep(50);
  forceGc();
  return process.memoryUsage().rss;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A bench section's table (label, p50, p99, n) and its targets met / NOT MET, as printed after the main report. */
export function formatSection(
  title: string,
  result: { rows: readonly { label: string; summary: Summary }[]; targets: readonly { label: string; target: string; value: string; met: boolean }[] },
): string {
  const lines = ['', `## ${title}`, ''];
  const width = Math.max(...result.rows.map((row) => row.label.length));
  lines.push(`${'row'.padEnd(width)}  ${'p50'.padStart(10)}  ${'p99'.padStart(10)}  n`);
  for (const row of result.rows) {
    lines.push(`${row.label.padEnd(width)}  ${`${(row.summary.p50Us / 1000).toFixed(3)} ms`.padStart(10)}  ${`${(row.summary.p99Us / 1000).toFixed(3)} ms`.padStart(10)}  ${row.summary.samples}`);
  }
  lines.push('');
  for (const target of result.targets) lines.push(`${target.met ? 'met    ' : 'NOT MET'}  ${target.label}: ${target.value} (target ${target.target})`);
  return `${lines.join('\n')}\n`;
}
