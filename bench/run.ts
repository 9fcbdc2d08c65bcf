/**
 * `npm run bench`: hookbox's performance against its floor and its peers, in
 * one run on this machine, as a table of p50/p99 and ratios measured pair by
 * pair, plus cold start, memory, hard limits, throughput and build figures.
 * Targets from issues 3, 4 and 6 are reported as met or not; a missed target
 * never fails the command.
 *
 *   npm run bench                       # table on stdout
 *   npm run bench -- --json out.json    # table on stdout, result object to out.json
 *   npm run --silent bench -- --json    # result object on stdout, table on stderr
 *   npm run bench -- --quick            # one short round (smoke test, ~30 s)
 *   npm run bench -- --only latency     # sections: build, instances, latency, throughput, limits, session, payload, cli, serve, clients, telemetry, sdk, guard, rewrite, policies
 *   npm run bench -- --only telemetry --telemetry-before /tmp/hookbox-before   # OpenTelemetry off/on (and before it, from that checkout)
 *
 * Tuning (passed to HookRunner.start; defaults are the runner's): --workers N,
 * --main-spin-us N, --worker-spin-us N, --worker-queued-spin-us N; --throughput-workers 2,1 (the pools the throughput
 * section runs on; default the configured pool and a 1-worker pool);
 * --timeout-ms N (wall timeout of the measured hooks); --runaway-timeout-ms N;
 * --rounds N; --engine-cold (also time a clean engine build, ~1 min).
 */
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { HookRunner, RUNNER_DEFAULTS } from '../host/runner/index.ts';
import { encodeEnvelope } from '../host/runner/wire.ts';
import { type BuildFigure, type EngineFigure, timeBuild, timeCliBuild, timeEngineColdBuild } from './pdk.ts';
import { ALLOW_HOOK_ENTRY, EXPECTED_ACTION, GUARD_BASH_ENTRY, NEXT, PAYLOAD, SESSION, loadGuardBash, loadWatAllow } from './fixtures.ts';
import { measureColdStart, measureMemory, type ColdStartRow, type MemoryRow } from './instances.ts';
import { type LatencyRow, measureLatency } from './latency.ts';
import { type BenchResult, computeRatios, evaluateTargets, formatReport } from './report.ts';
import { type LimitCase, measureLimits } from './runner.ts';
import { measureThroughput, type ThroughputRow } from './throughput.ts';
import { formatServe, measureServe } from './serve.ts';
import { formatClients, measureClients } from './clients.ts';
import { type CliRow, measureCli } from './cli.ts';
import { type PayloadRow, measurePayloads } from './payload.ts';
import { type SessionRow, type SessionVariant, measureSessions } from './session.ts';
import { buildExample } from '../examples-hooks/build.ts';
import { type TelemetryFigures, formatTelemetry, measureTelemetry } from './telemetry.ts';
import { formatSdk, measureSdk } from './sdk.ts';
import { formatGuard, measureGuard } from './guard.ts';
import { formatPolicies, measurePolicies } from './policies.ts';
import { formatRewrite, measureRewrite } from './rewrite.ts';
import { readFile } from 'node:fs/promises';

interface Args {
  json: { file: string | undefined } | undefined;
  quick: boolean;
  rounds: number | undefined;
  workers: number;
  mainSpinUs: number;
  workerSpinUs: number;
  workerQueuedSpinUs: number;
  timeoutMs: number;
  runawayTimeoutMs: number;
  engineCold: boolean;
  only: ReadonlySet<Section>;
  throughputWorkers: number[];
  gapMs: number;
  sessionCalls: number;
  sessionTrials: number | undefined;
  /** Also run the session trials on the runner as it was before (no warm-up, no preparation, lazy wasm). */
  sessionBefore: boolean;
  /** A checkout from before the OpenTelemetry instrumentation, for the telemetry section's "before" rows. */
  telemetryBefore: string | undefined;
}

const SECTIONS = ['build', 'instances', 'latency', 'throughput', 'limits', 'session', 'payload', 'cli', 'serve', 'clients', 'telemetry', 'sdk', 'guard', 'rewrite', 'policies'] as const;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    json: undefined,
    quick: false,
    rounds: undefined,
    workers: RUNNER_DEFAULTS.workers,
    mainSpinUs: RUNNER_DEFAULTS.mainSpinUs,
    workerSpinUs: RUNNER_DEFAULTS.workerSpinUs,
    workerQueuedSpinUs: RUNNER_DEFAULTS.workerQueuedSpinUs,
    timeoutMs: 1000,
    runawayTimeoutMs: 100,
    engineCold: false,
    only: new Set(SECTIONS),
    throughputWorkers: [],
    gapMs: 1000,
    sessionCalls: 20,
    sessionTrials: undefined,
    sessionBefore: true,
    telemetryBefore: undefined,
  };
  const numeric: Record<string, keyof Args> = {
    '--rounds': 'rounds',
    '--workers': 'workers',
    '--main-spin-us': 'mainSpinUs',
    '--worker-spin-us': 'workerSpinUs',
    '--worker-queued-spin-us': 'workerQueuedSpinUs',
    '--timeout-ms': 'timeoutMs',
    '--runaway-timeout-ms': 'runawayTimeoutMs',
    '--gap-ms': 'gapMs',
    '--session-calls': 'sessionCalls',
    '--session-trials': 'sessionTrials',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const key = numeric[arg];
    if (key !== undefined) {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value < 0) throw new Error(`${arg} needs a non-negative number`);
      (args as unknown as Record<string, number>)[key] = value;
    } else if (arg === '--json') {
      const next = argv[i + 1];
      args.json = { file: next !== undefined && !next.startsWith('--') ? (i++, next) : undefined };
    } else if (arg === '--quick') args.quick = true;
    else if (arg === '--engine-cold') args.engineCold = true;
    else if (arg === '--no-session-before') args.sessionBefore = false;
    else if (arg === '--telemetry-before') args.telemetryBefore = argv[++i];
    else if (arg === '--throughput-workers') {
      const counts = (argv[++i] ?? '').split(',').map(Number);
      if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--throughput-workers takes a comma-separated list of worker counts');
      args.throughputWorkers = counts;
    } else if (arg === '--only') {
      const names = (argv[++i] ?? '').split(',').filter((name) => name !== '');
      const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
      if (names.length === 0 || unknown.length > 0) throw new Error(`--only takes a comma-separated list of: ${SECTIONS.join(', ')}`);
      args.only = new Set(names as Section[]);
    }
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`usage: npm run bench -- [--json [file]] [--quick] [--rounds N] [--workers N] [--main-spin-us N] [--worker-spin-us N] [--worker-queued-spin-us N] [--timeout-ms N] [--runaway-timeout-ms N] [--throughput-workers 2,1] [--only ${SECTIONS.join(',')}] [--engine-cold] [--gap-ms N] [--session-calls N] [--session-trials N] [--no-session-before] [--telemetry-before DIR]\n`);
      process.exit(0);
    } else throw new Error(`unknown argument: ${arg} (see --help)`);
  }
  if (args.throughputWorkers.length === 0) args.throughputWorkers = [...new Set([args.workers, 1])];
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const startedAt = new Date();
  const started = performance.now();
  const loadAvgStart = loadavg();
  const progress = (message: string) => process.stderr.write(`bench: ${message} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  const scale = args.quick ? 0.3 : 1;
  const rounds = args.rounds ?? (args.quick ? 1 : 3);

  progress('guard-bash (built from source when out of date)');
  const guardBash = await loadGuardBash(progress);
  const watAllow = await loadWatAllow();
  progress('building the bench allow hook (first build in this process)');
  const build: BuildFigure[] = [await timeBuild('bench allow hook', ALLOW_HOOK_ENTRY, 'first in process')];
  const allowHook = { name: 'js-allow', bytes: build[0]?.bytes as Uint8Array, path: undefined };
  if (args.only.has('build')) {
    progress('building guard-bash again (warm process, warm engine)');
    build.push(await timeBuild('guard-bash', GUARD_BASH_ENTRY, 'warm process'));
    progress('`hookbox build` of guard-bash in a fresh process');
    build.push(await timeCliBuild('guard-bash', GUARD_BASH_ENTRY));
  }
  let engineColdBuild: EngineFigure | null = null;
  if (args.engineCold) {
    progress('engine cold build');
    engineColdBuild = await timeEngineColdBuild(progress);
  }

  const startRunner = (workers = args.workers) => HookRunner.start({ workers, mainSpinUs: args.mainSpinUs, workerSpinUs: args.workerSpinUs, workerQueuedSpinUs: args.workerQueuedSpinUs });
  const runner = await startRunner();
  let latency: LatencyRow[] = [];
  let limits: LimitCase[] = [];
  const coldStart: ColdStartRow[] = [];
  const memory: MemoryRow[] = [];
  const throughput: ThroughputRow[] = [];
  let session: SessionRow[] = [];
  let payloadRows: PayloadRow[] = [];
  let cli: CliRow[] = [];
  let telemetry: TelemetryFigures | undefined;
  try {
    // First, while the process heap is quiet: RSS deltas are the noisiest figure.
    if (args.only.has('instances')) {
      const instanceOptions = {
        coldSamples: args.quick ? 5 : 15,
        bytesSamples: args.quick ? 2 : 4,
        memoryInstances: args.quick ? 12 : 48,
        timeoutMs: args.timeoutMs,
      };
      for (const hook of [guardBash, allowHook, watAllow]) {
        progress(`memory and cold start: ${hook.name}`);
        memory.push(await measureMemory(startRunner, hook, instanceOptions));
        coldStart.push(...(await measureColdStart(runner, hook, instanceOptions)));
      }
    }
    if (args.only.has('latency')) {
      latency = await measureLatency(runner, { guardBash, allowHook, watAllow }, { rounds, scale, timeoutMs: args.timeoutMs, onProgress: progress });
    }
    if (args.only.has('throughput')) {
      // The configured pool, then the other worker counts asked for (default: also 1 worker, see README).
      for (const workers of args.throughputWorkers) {
        const pool = workers === args.workers ? runner : await startRunner(workers);
        try {
          for (const hook of [guardBash, watAllow]) {
            progress(`throughput: ${hook.name}, ${workers} worker${workers === 1 ? '' : 's'}`);
            throughput.push(
              ...(await measureThroughput(pool, hook, {
                workers,
                configs: [
                  { sessions: 1, hooksPerSeam: 3 },
                  { sessions: 4, hooksPerSeam: 3 },
                  { sessions: 16, hooksPerSeam: 3 },
                  { sessions: 16, hooksPerSeam: 1 },
                  { sessions: 16, hooksPerSeam: 10 },
                ],
                durationMs: args.quick ? 300 : 1000,
                timeoutMs: args.timeoutMs,
              })),
            );
          }
        } finally {
          if (pool !== runner) await pool.close();
        }
      }
    }
    if (args.only.has('payload')) {
      const redactor = await buildExample('secret-redactor', progress);
      const secretRedactor = { name: 'secret-redactor', bytes: new Uint8Array(await readFile(redactor.wasmPath)), path: redactor.wasmPath };
      payloadRows = await measurePayloads(runner, [allowHook, secretRedactor], { quick: args.quick, timeoutMs: args.timeoutMs, onProgress: progress });
    }
    if (args.only.has('telemetry')) {
      telemetry = await measureTelemetry(runner, guardBash, {
        rounds,
        scale,
        timeoutMs: args.timeoutMs,
        ...(args.telemetryBefore !== undefined && { beforeCheckout: args.telemetryBefore }),
        onProgress: progress,
      });
    }
    // Last: every runaway terminates a worker.
    if (args.only.has('limits')) {
      limits = await measureLimits(runner, {
        runawayTimeoutMs: args.runawayTimeoutMs,
        trials: args.quick ? 2 : 5,
        allowHookBytes: allowHook.bytes,
        onProgress: progress,
      });
    }
  } finally {
    await runner.close();
  }
  // Fresh processes, after this process's runner is closed (its workers would compete for the cores).
  if (args.only.has('session')) {
    const variants: SessionVariant[] = args.sessionBefore ? ['tuned', 'cold'] : ['tuned'];
    session = await measureSessions([watAllow, allowHook, guardBash], {
      gapMs: args.gapMs,
      calls: args.sessionCalls,
      trials: args.sessionTrials ?? (args.quick ? 1 : 2),
      hot: args.quick ? 100 : 300,
      variants,
      floor: true,
      onProgress: progress,
    });
  }
  if (args.only.has('cli')) cli = await measureCli(guardBash, { runs: args.quick ? 3 : 7, onProgress: progress });
  // Its own processes (hookbox serve, spawned clients): after the runner is closed.
  const clients = args.only.has('clients') ? await measureClients({ rounds: args.quick ? 1 : 3, perRound: args.quick ? 5 : 10, defaultEvents: 21, onProgress: progress }) : undefined;
  const serve = args.only.has('serve')
    ? await measureServe({
        gapMs: args.gapMs,
        sessionCalls: args.quick ? 4 : 12,
        tightCalls: args.quick ? 200 : 1000,
        spawns: args.quick ? 5 : 20,
        onProgress: progress,
      })
    : undefined;
  // Each adapter starts its own runner: after this process's runner is closed.
  const sdk = args.only.has('sdk') ? await measureSdk({ calls: args.quick ? 100 : 300, rounds, onProgress: progress }) : undefined;
  // Self-protection's cost on a hot tool call: its own runner too.
  const guard = args.only.has('guard') ? await measureGuard({ calls: args.quick ? 100 : 500, rounds, onProgress: progress }) : undefined;
  const rewrite = args.only.has('rewrite') ? await measureRewrite({ calls: args.quick ? 100 : 500, rounds, onProgress: progress }) : undefined;
  const policies = args.only.has('policies') ? await measurePolicies({ calls: args.quick ? 50 : 300, rounds, onProgress: progress }) : undefined;

  const ratios = computeRatios(latency);
  const targets = evaluateTargets({ latency, ratios, coldStart, limits, throughput, build, session, payload: payloadRows, cli });
  const cpuList = cpus();
  const result: BenchResult = {
    schema: 'hookbox-bench/1',
    startedAt: startedAt.toISOString(),
    durationS: (performance.now() - started) / 1000,
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
      loadAvgStart,
      loadAvgEnd: loadavg(),
    },
    config: {
      quick: args.quick,
      rounds,
      workers: args.workers,
      mainSpinUs: args.mainSpinUs,
      workerSpinUs: args.workerSpinUs,
      timeoutMs: args.timeoutMs,
      runawayTimeoutMs: args.runawayTimeoutMs,
      gapMs: args.gapMs,
      sessionCalls: args.sessionCalls,
    },
    payload: {
      jsonBytes: Buffer.byteLength(JSON.stringify(PAYLOAD)),
      envelopeBytes: encodeEnvelope('tools/pre-execute', SESSION, PAYLOAD, NEXT).byteLength,
      decision: EXPECTED_ACTION,
    },
    latency: latency.map(({ summary, ...row }) => ({ ...row, ...summary })),
    ratios,
    coldStart: coldStart.map(({ summary, ...row }) => ({ ...row, ...summary })),
    memory,
    limits,
    throughput: throughput.map(({ dispatch, ...row }) => ({ ...row, dispatchP50Us: dispatch.p50Us, dispatchP99Us: dispatch.p99Us })),
    build: build.map(({ bytes: _bytes, ...figure }) => figure),
    session,
    payloadScaling: payloadRows.map(({ summary, ...row }) => ({ ...row, ...summary })),
    cli: cli.map(({ summary, ...row }) => ({ ...row, ...summary })),
    engineColdBuild,
    targets,
  };

  const report = `${formatReport(result)}\n${serve === undefined ? '' : formatServe(serve)}${clients === undefined ? '' : formatClients(clients)}${telemetry === undefined ? '' : formatTelemetry(telemetry)}${sdk === undefined ? '' : formatSdk(sdk)}${guard === undefined ? '' : formatGuard(guard)}${rewrite === undefined ? '' : formatRewrite(rewrite)}${policies === undefined ? '' : formatPolicies(policies)}`;
  const json = {
    ...result,
    ...(clients !== undefined && { clients: { rows: clients.rows.map(({ summary, ...row }) => ({ ...row, ...summary })), targets: clients.targets } }),
    ...(serve !== undefined && { serve: { rows: serve.rows.map(({ summary, ...row }) => ({ ...row, ...summary })), targets: serve.targets } }),
    ...(telemetry !== undefined && { telemetry: { ...telemetry, rows: telemetry.rows.map(({ summary, ...row }) => ({ ...row, ...summary })) } }),
    ...(sdk !== undefined && { sdk: { rows: sdk.rows.map(({ summary, ...row }) => ({ ...row, ...summary })), targets: sdk.targets } }),
    ...(guard !== undefined && { guard: { rows: guard.rows.map(({ summary, ...row }) => ({ ...row, ...summary })), targets: guard.targets } }),
    ...(rewrite !== undefined && { rewrite: { rows: rewrite.rows.map(({ summary, ...row }) => ({ ...row, ...summary })), targets: rewrite.targets } }),
    ...(policies !== undefined && { policies: { rows: policies.rows.map(({ summary, ...row }) => ({ ...row, ...summary })), targets: policies.targets } }),
  };
  if (args.json !== undefined && args.json.file === undefined) {
    process.stderr.write(report);
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    process.stdout.write(report);
    if (args.json?.file !== undefined) {
      await writeFile(args.json.file, `${JSON.stringify(json, null, 2)}\n`);
      process.stderr.write(`bench: wrote ${args.json.file}\n`);
    }
  }
}

await main();
