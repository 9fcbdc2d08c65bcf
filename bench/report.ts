/**
 * The bench's result object (what `--json` writes), the ratios and targets
 * derived from it, and the printed table. Targets are stated as met or not;
 * a missed target never fails the command.
 */
import type { EngineFigure, BuildFigure } from './pdk.ts';
import type { Summary } from './harness.ts';
import type { ColdStartRow, MemoryRow } from './instances.ts';
import type { LatencyRow, LatencyRowId } from './latency.ts';
import type { LimitCase } from './runner.ts';
import type { ThroughputRow } from './throughput.ts';
import type { CliRow } from './cli.ts';
import type { PayloadRow } from './payload.ts';
import type { SessionRow } from './session.ts';

export interface Ratio {
  readonly id: string;
  readonly label: string;
  readonly numerator: LatencyRowId;
  readonly denominator: LatencyRowId;
  readonly p50: number;
  readonly p99: number;
}

export interface Target {
  readonly id: string;
  /** The issue that sets the target. */
  readonly source: string;
  readonly label: string;
  /** What is compared, in words (`≤ 40 µs`). */
  readonly target: string;
  /** The measured value, formatted. */
  readonly value: string;
  readonly met: boolean;
  /** Which row or case it is evaluated on. */
  readonly on: string;
}

export interface BenchResult {
  readonly schema: 'hookbox-bench/1';
  readonly startedAt: string;
  readonly durationS: number;
  readonly machine: {
    readonly node: string;
    readonly platform: string;
    readonly cpus: number;
    readonly cpuModel: string;
    readonly loadAvgStart: readonly number[];
    readonly loadAvgEnd: readonly number[];
  };
  readonly config: {
    readonly quick: boolean;
    readonly rounds: number;
    readonly workers: number;
    readonly mainSpinUs: number;
    readonly workerSpinUs: number;
    readonly timeoutMs: number;
    readonly runawayTimeoutMs: number;
    readonly gapMs: number;
    readonly sessionCalls: number;
  };
  readonly payload: { readonly jsonBytes: number; readonly envelopeBytes: number; readonly decision: string };
  readonly latency: readonly (Omit<LatencyRow, 'summary'> & Summary)[];
  readonly ratios: readonly Ratio[];
  readonly coldStart: readonly (Omit<ColdStartRow, 'summary'> & Summary)[];
  readonly memory: readonly MemoryRow[];
  readonly limits: readonly LimitCase[];
  readonly throughput: readonly (Omit<ThroughputRow, 'dispatch'> & { readonly dispatchP50Us: number; readonly dispatchP99Us: number })[];
  readonly build: readonly Omit<BuildFigure, 'bytes'>[];
  readonly engineColdBuild: EngineFigure | null;
  /** The session shape: fresh process, new session, spaced calls (see session.ts). */
  readonly session: readonly SessionRow[];
  readonly payloadScaling: readonly (Omit<PayloadRow, 'summary'> & Summary)[];
  readonly cli: readonly (Omit<CliRow, 'summary'> & Summary)[];
  readonly targets: readonly Target[];
}

const RATIOS: readonly Omit<Ratio, 'p50' | 'p99'>[] = [
  { id: 'isolated/main-thread', label: 'isolated / main-thread', numerator: 'wasm-isolated', denominator: 'wasm-main' },
  { id: 'shell-sh/isolated', label: 'shell(sh) / isolated', numerator: 'shell-sh', denominator: 'wasm-isolated' },
  { id: 'shell-node/isolated', label: 'shell(node) / isolated', numerator: 'shell-node', denominator: 'wasm-isolated' },
  { id: 'isolated/floor', label: 'isolated / floor', numerator: 'wasm-isolated', denominator: 'floor' },
  { id: 'native/floor', label: 'native / floor', numerator: 'native', denominator: 'floor' },
  { id: 'js-isolated/js-main', label: 'js engine: isolated / main', numerator: 'js-isolated', denominator: 'js-main' },
  { id: 'wat-isolated/wat-main', label: 'runner floor: isolated / main', numerator: 'wat-isolated', denominator: 'wat-main' },
  { id: 'shell-sh/wat-isolated', label: 'shell(sh) / runner floor isolated', numerator: 'shell-sh', denominator: 'wat-isolated' },
];

export function computeRatios(latency: readonly LatencyRow[]): Ratio[] {
  const byId = new Map(latency.map((row) => [row.id, row.summary]));
  return RATIOS.flatMap((ratio) => {
    const a = byId.get(ratio.numerator);
    const b = byId.get(ratio.denominator);
    return a && b ? [{ ...ratio, p50: a.p50Us / b.p50Us, p99: a.p99Us / b.p99Us }] : [];
  });
}

/** Formats a duration given in µs: µs below 1 ms, else ms. */
export function fmtUs(us: number): string {
  if (!Number.isFinite(us)) return 'n/a';
  if (us < 10) return `${us.toFixed(2)} µs`;
  if (us < 1000) return `${us.toFixed(1)} µs`;
  if (us < 100_000) return `${(us / 1000).toFixed(2)} ms`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(1)} ms`;
  return `${(us / 1000).toFixed(0)} ms`;
}

export function fmtMs(ms: number): string {
  return fmtUs(ms * 1000);
}

export function fmtBytes(bytes: number): string {
  if (Math.abs(bytes) < 1024) return `${bytes.toFixed(0)} B`;
  if (Math.abs(bytes) < 1_048_576) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1_048_576).toFixed(2)} MiB`;
}

function fmtRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a';
  return ratio >= 100 ? `${ratio.toFixed(0)}×` : `${ratio.toFixed(2)}×`;
}

function fmtRate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US')}/s`;
}

export interface TargetInputs {
  readonly latency: readonly LatencyRow[];
  readonly ratios: readonly Ratio[];
  readonly coldStart: readonly ColdStartRow[];
  readonly limits: readonly LimitCase[];
  readonly throughput: readonly ThroughputRow[];
  readonly build: readonly Omit<BuildFigure, 'bytes'>[];
  readonly session: readonly SessionRow[];
  readonly payload: readonly PayloadRow[];
  readonly cli: readonly CliRow[];
}

/** The issues' targets, each evaluated on the row named in `on`. */
export function evaluateTargets(inputs: TargetInputs): Target[] {
  const targets: Target[] = [];
  const row = (id: LatencyRowId) => inputs.latency.find((r) => r.id === id)?.summary;
  const ratio = (id: string) => inputs.ratios.find((r) => r.id === id);
  const push = (t: Omit<Target, 'met'>, met: boolean | undefined) => {
    if (met !== undefined) targets.push({ ...t, met });
  };

  for (const [id, on] of [
    ['wasm-isolated', 'wasm isolated (guard-bash)'],
    ['wat-isolated', 'runner floor isolated (no-policy WAT hook)'],
  ] as const) {
    const s = row(id);
    push({ id: `isolated-p50:${id}`, source: 'issue 6, issue 3', label: 'isolated p50', target: '≤ 40 µs', value: fmtUs(s?.p50Us ?? NaN), on }, s && s.p50Us <= 40);
    push({ id: `isolated-p99:${id}`, source: 'issue 6, issue 3', label: 'isolated p99', target: '≤ 300 µs', value: fmtUs(s?.p99Us ?? NaN), on }, s && s.p99Us <= 300);
  }
  for (const [id, on] of [
    ['shell-sh/isolated', 'shell(sh) ÷ wasm isolated (guard-bash), p50'],
    ['shell-sh/wat-isolated', 'shell(sh) ÷ runner floor isolated, p50'],
  ] as const) {
    const r = ratio(id);
    push({ id: `sh-ratio:${id}`, source: 'issue 6', label: 'shell(sh) / isolated', target: '≥ 300×', value: fmtRatio(r?.p50 ?? NaN), on }, r && r.p50 >= 300);
  }
  for (const limit of inputs.limits) {
    const worst = Math.max(...limit.trials.map((t) => t.elapsedMs));
    // The repeat case includes re-instantiation on the replacement worker by design: shown, not judged.
    if (limit.id.endsWith('-repeat')) continue;
    if (limit.id.startsWith('runaway')) {
      const ok = limit.trials.every((t) => t.fault === 'timeout') && worst <= limit.timeoutMs + 5;
      push({ id: `runaway:${limit.id}`, source: 'issue 6, issue 3', label: 'runaway decision', target: `≤ timeout + 5 ms (${limit.timeoutMs + 5} ms)`, value: `${fmtMs(worst)} worst of ${limit.trials.length}`, on: limit.label }, ok);
    } else {
      const ok = limit.trials.every((t) => t.fault === 'memory') && worst <= 50;
      push({ id: `bomb:${limit.id}`, source: 'issue 6, issue 3', label: 'memory bomb to fault', target: '≤ 50 ms', value: `${fmtMs(worst)} worst of ${limit.trials.length}`, on: limit.label }, ok);
    }
  }
  if (inputs.limits.length > 0) {
    const lag = Math.max(...inputs.limits.flatMap((l) => l.trials.map((t) => t.lagMaxMs)));
    push({ id: 'event-loop-lag', source: 'issue 3', label: 'event-loop lag during runaway/bombs', target: '≤ 5 ms', value: `${fmtMs(lag)} max`, on: 'every limit trial' }, lag <= 5);
  }
  for (const cold of inputs.coldStart.filter((c) => c.id === 'cached-isolated')) {
    push(
      { id: `cold-cached:${cold.hook}`, source: 'issue 6', label: 'cold start from cached module (p50)', target: '≤ 5 ms', value: fmtUs(cold.summary.p50Us), on: `${cold.hook}, new session through HookRunner` },
      cold.summary.p50Us <= 5000,
    );
  }
  for (const tp of inputs.throughput.filter((t) => t.sessions === 16 && t.hooksPerSeam === 3)) {
    push(
      {
        id: `throughput:${tp.hook}:${tp.workers}`,
        source: 'issue 6',
        label: 'hook calls/s at 16 sessions × 3 hooks',
        target: '≥ 20,000/s',
        value: fmtRate(tp.hookCallsPerSecond),
        on: `${tp.hook}, ${tp.workers} worker${tp.workers === 1 ? '' : 's'}`,
      },
      tp.hookCallsPerSecond >= 20_000 && tp.faults === 0,
    );
  }
  for (const figure of inputs.build.filter((b) => b.when !== 'first in process')) {
    push(
      { id: `build-time:${figure.when}`, source: 'issue 4', label: 'build of one hook, warm engine', target: '≤ 1.5 s', value: fmtMs(figure.durationMs), on: `${figure.hook}, ${figure.when}` },
      figure.durationMs <= 1500,
    );
  }
  // What idling between calls costs this machine by itself: the host codec alone, spaced ÷ hot.
  const floor = inputs.session.find((r) => r.variant === 'floor');
  for (const s of inputs.session.filter((r) => r.variant === 'tuned')) {
    const on = `${s.hook}, ${s.trials} fresh process${s.trials === 1 ? '' : 'es'}, calls ${s.gapMs} ms apart${floor ? ` (host codec alone: ${fmtRatio(floor.ratio)})` : ''}`;
    push({ id: `session-ratio:${s.hook}`, source: 'issue 14', label: 'session calls after the first, p50 ÷ hot p50', target: '≤ 3×', value: `${fmtRatio(s.ratio)} (${fmtUs(s.rest.p50Us)} ÷ ${fmtUs(s.hot.p50Us)})`, on }, s.ratio <= 3);
    if (s.hook === 'wat-allow') {
      push({ id: 'session-floor', source: 'issue 14', label: 'session calls after the first, p50, WAT floor', target: '≤ 1 ms', value: fmtUs(s.rest.p50Us), on }, s.rest.p50Us <= 1000);
    }
    if (s.hook === 'guard-bash') {
      push({ id: 'session-first', source: 'issue 14', label: 'first call of a new session (p50 of trials)', target: '≤ 5 ms', value: fmtUs(s.firstP50Us), on }, s.firstP50Us <= 5000);
    }
  }
  const noPolicy = (bytes: number) => inputs.payload.find((p) => p.hook === 'js-allow' && p.bytes === bytes);
  const mb1 = noPolicy(1024 * 1024);
  const mb4 = noPolicy(4 * 1024 * 1024);
  push({ id: 'payload-1mb', source: 'issue 14', label: 'post-tool call with 1 MiB output, no-policy hook, p50', target: '≤ 3 ms', value: fmtUs(mb1?.summary.p50Us ?? NaN), on: 'js-allow through HookRunner' }, mb1 && mb1.summary.p50Us <= 3000);
  if (mb1 && mb4) {
    const r = mb4.summary.p50Us / mb1.summary.p50Us;
    push({ id: 'payload-4mb-ratio', source: 'issue 14', label: 'post-tool 4 MiB ÷ 1 MiB, no-policy hook, p50', target: '≤ 4.5×', value: fmtRatio(r), on: 'js-allow through HookRunner' }, r <= 4.5);
  }
  const wasmMain = row('wasm-main');
  push({ id: 'guard-bash-main', source: 'issue 14', label: 'guard-bash main-thread hot p50 (2× faster than 168 µs)', target: '≤ 84 µs', value: fmtUs(wasmMain?.p50Us ?? NaN), on: 'wasm main-thread' }, wasmMain && wasmMain.p50Us <= 84);
  const cliLimits: Partial<Record<CliRow['id'], number>> = { help: 150, call: 300, build: 1500, 'build-cold': 1500 };
  const cliCase: Partial<Record<CliRow['id'], string>> = { build: ' (rebuild)', 'build-cold': ' (first build)' };
  for (const c of inputs.cli) {
    const limit = cliLimits[c.id];
    if (limit === undefined) continue;
    const label = `\`${c.command.split(' ').slice(0, 2).join(' ')}\`${cliCase[c.id] ?? ''} wall time, p50 (fresh process)`;
    push({ id: `cli:${c.id}`, source: 'issue 14', label, target: `≤ ${limit} ms`, value: fmtUs(c.summary.p50Us), on: c.command }, c.summary.p50Us <= limit * 1000);
  }
  const jsMain = row('js-main');
  push({ id: 'pdk-call-p50', source: 'issue 4', label: 'built hook call on the main thread p50', target: '≤ 25 µs', value: fmtUs(jsMain?.p50Us ?? NaN), on: 'js engine main (PDK allow hook)' }, jsMain && jsMain.p50Us <= 25);
  return targets;
}

function table(headers: readonly string[], rows: readonly (readonly string[])[], rightAlign: readonly number[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (rightAlign.includes(i) ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The human-readable report. */
export function formatReport(result: BenchResult): string {
  const out: string[] = [];
  const m = result.machine;
  out.push(
    `hookbox bench — node ${m.node}, ${m.platform}, ${m.cpus} × ${m.cpuModel}, load avg ${m.loadAvgStart[0]?.toFixed(2)} → ${m.loadAvgEnd[0]?.toFixed(2)}, ${result.durationS.toFixed(0)} s`,
    `payload: bash pre-tool call, ${result.payload.jsonBytes} B JSON (${result.payload.envelopeBytes} B msgpack envelope); every row decides "${result.payload.decision}"`,
    `runner: ${result.config.workers} workers + spare, mainSpinUs ${result.config.mainSpinUs}, workerSpinUs ${result.config.workerSpinUs}, timeout ${result.config.timeoutMs} ms; ${result.config.rounds} interleaved rounds${result.config.quick ? ' (--quick)' : ''}`,
  );
  const section = (title: string, rows: number, body: () => string) => {
    if (rows > 0) out.push('', title, body());
  };
  section('Per-call latency', result.latency.length, () =>
    table(
      ['row', 'p50', 'p99', 'n', 'what'],
      result.latency.map((r) => [r.label, fmtUs(r.p50Us), fmtUs(r.p99Us), String(r.samples), r.what]),
      [1, 2, 3],
    ),
  );
  section('Ratios (same run, pair by pair)', result.latency.length, () =>
    table(['ratio', 'p50', 'p99'], result.ratios.map((r) => [r.label, fmtRatio(r.p50), fmtRatio(r.p99)]), [1, 2]),
  );
  section('Cold start (to the first decision)', result.coldStart.length, () =>
    table(
      ['hook', 'case', 'p50', 'max', 'n', 'what'],
      result.coldStart.map((c) => [c.hook, c.id, fmtUs(c.p50Us), fmtUs(c.maxUs), String(c.samples), c.what]),
      [2, 3, 4],
    ),
  );
  section('Memory per live instance (RSS: process growth per instance; wasm: guest linear memory)', result.memory.length, () =>
    table(
      ['hook', 'RSS isolated', 'RSS main', 'wasm memory initial', 'after 1 call', 'instances'],
      result.memory.map((r) => [
        r.hook,
        fmtBytes(r.rssPerIsolatedInstanceBytes),
        fmtBytes(r.rssPerMainInstanceBytes),
        fmtBytes(r.wasmMemoryInitialBytes),
        fmtBytes(r.wasmMemoryAfterCallBytes),
        String(r.instances),
      ]),
      [1, 2, 3, 4, 5],
    ),
  );
  section('Limits (call → seam decision through HookRunner; host event-loop lag meanwhile; the same guest on the main thread)', result.limits.length, () =>
    table(
      ['case', 'limit', 'p50', 'worst', 'fault', 'decision', 'max lag', 'main-thread p50'],
      result.limits.map((l) => {
        const elapsed = l.trials.map((t) => t.elapsedMs).sort((a, b) => a - b);
        const main = [...l.mainThreadMs].sort((a, b) => a - b);
        return [
          l.label,
          l.limit,
          fmtMs(elapsed[Math.floor((elapsed.length - 1) / 2)] ?? NaN),
          fmtMs(elapsed.at(-1) ?? NaN),
          [...new Set(l.trials.map((t) => t.fault))].join(','),
          [...new Set(l.trials.map((t) => t.applied))].join(','),
          fmtMs(Math.max(...l.trials.map((t) => t.lagMaxMs))),
          main.length === 0 ? '-' : fmtMs(main[Math.floor((main.length - 1) / 2)] as number),
        ];
      }),
      [2, 3, 6, 7],
    ),
  );
  section('Throughput (sessions dispatching the pre-tool seam concurrently through SeamBus)', result.throughput.length, () =>
    table(
      ['hook', 'workers', 'sessions', 'hooks/seam', 'hook calls/s', 'dispatch p50', 'dispatch p99', 'faults'],
      result.throughput.map((t) => [
        t.hook,
        String(t.workers),
        String(t.sessions),
        String(t.hooksPerSeam),
        fmtRate(t.hookCallsPerSecond),
        fmtUs(t.dispatchP50Us),
        fmtUs(t.dispatchP99Us),
        String(t.faults),
      ]),
      [1, 2, 3, 4, 5, 6, 7],
    ),
  );
  section('Build (warm engine) and module size', result.build.length, () =>
    table(
      ['hook', 'build', 'time', 'module', 'gzip -9', 'steps'],
      result.build.map((b) => [
        b.hook,
        b.when,
        fmtMs(b.durationMs),
        fmtBytes(b.sizeBytes),
        fmtBytes(b.gzipBytes),
        Object.entries(b.steps)
          .map(([step, ms]) => `${step} ${ms.toFixed(0)} ms`)
          .join(', '),
      ]),
      [2, 3, 4],
    ),
  );
  section('Session shape (fresh process per trial, a new session, spaced calls; cpu = process CPU time per call, all threads)', result.session.length, () =>
    table(
      ['hook', 'runner', 'first', 'first max', 'rest p50', 'rest max', 'hot p50', 'rest ÷ hot', 'cpu first', 'cpu rest p50', 'trials × calls'],
      result.session.map((s) => [
        s.hook,
        s.variant === 'tuned' ? 'now' : s.variant === 'cold' ? 'before' : 'none',
        fmtUs(s.firstP50Us),
        fmtUs(s.firstMaxUs),
        fmtUs(s.rest.p50Us),
        fmtUs(s.rest.maxUs),
        fmtUs(s.hot.p50Us),
        fmtRatio(s.ratio),
        fmtUs(s.firstCpuP50Us),
        fmtUs(s.restCpuP50Us),
        `${s.trials} × ${s.calls} @ ${s.gapMs} ms`,
      ]),
      [2, 3, 4, 5, 6, 7, 8, 9],
    ),
  );
  section('Payload scaling (post-tool output through HookRunner; cpu = process CPU time per call)', result.payloadScaling.length, () =>
    table(
      ['hook', 'output', 'p50', 'max', 'ns/byte', 'cpu p50', 'n', '÷ previous size'],
      result.payloadScaling.map((p, i, all) => {
        const prev = all[i - 1];
        return [p.hook, fmtBytes(p.bytes), fmtUs(p.p50Us), fmtUs(p.maxUs), p.nsPerByte.toFixed(1), fmtUs(p.cpuP50Us), String(p.samples), prev && prev.hook === p.hook ? fmtRatio(p.p50Us / prev.p50Us) : '-'];
      }),
      [1, 2, 3, 4, 5, 6, 7],
    ),
  );
  section('CLI start (fresh process each, wall time)', result.cli.length, () =>
    table(
      ['command', 'p50', 'p90', 'max', 'n', '÷ node p50'],
      result.cli.map((c) => {
        const node = result.cli.find((row) => row.id === 'node');
        return [c.command, fmtUs(c.p50Us), fmtUs(c.p90Us), fmtUs(c.maxUs), String(c.samples), node === undefined ? '-' : fmtRatio(c.p50Us / node.p50Us)];
      }),
      [1, 2, 3, 4, 5],
    ),
  );
  if (result.engineColdBuild !== null) {
    out.push(`engine cold build: ${fmtMs(result.engineColdBuild.durationMs)}, engine.wasm ${fmtBytes(result.engineColdBuild.sizeBytes)}`);
  } else {
    out.push('engine cold build: not measured (pass --engine-cold; about a minute on 2 cores)');
  }
  out.push(
    '',
    'Targets (reported, never enforced)',
    table(
      ['', 'target', 'measured', 'on', 'from'],
      result.targets.map((t) => [t.met ? 'met    ' : 'NOT MET', `${t.label} ${t.target}`, t.value, t.on, t.source]),
    ),
  );
  return out.join('\n');
}
