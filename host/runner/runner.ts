import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Capabilities, pathGrant } from './limits.ts';
import { HookLoadError } from '../errors.ts';
import { SEAMS } from '../seams/index.ts';
import { type LogCap } from './log-sink.ts';
import { HTTP_MAX_RESPONSE_BYTES } from './http-calls.ts';
import { MemoryBudget, defaultMemoryBudgetBytes, mib } from './memory-budget.ts';
import { type WorkerOptions, openWorkers } from './open-workers.ts';
import type { WorkerPool } from './pool.ts';
import { wasmApi } from './wasm-api.ts';
import { fileBytes } from './wasm-binary.ts';
import {
  DEFAULT_LIMITS,
  DEFAULT_QUARANTINE_AFTER,
  type HookLogEntry,
  MIN_LOAD_TIMEOUT_MS,
  type WasmHook,
  type WasmHookSpec,
} from './types.ts';
import type { WasiPreopen } from './wasi/index.ts';
import { enableEagerWasmCompilation, useBaselineWasmCompilerOnly } from './warm-up.ts';
import { SOURCE_MAP_SECTION, stackMapper } from './source-map.ts';
import { type PreparedHookModule, compileHookModule } from './hook-module.ts';
import { WasmHookImpl } from './wasm-hook.ts';

/** A worker waits for a signal's answer this much past the call's own deadline (the main thread's deadline ends the call first). */
const SIGNAL_ANSWER_SLACK_MS = 5_000;

export { RUNNER_DEFAULTS } from './open-workers.ts';

/** Options of `HookRunner.start` (those that shape the workers: `WorkerOptions`, open-workers.ts). */
export interface HookRunnerOptions extends WorkerOptions {
  /** Receives plugin log lines (capped per call) and runner notes. */
  readonly onLog?: (entry: HookLogEntry) => void;
  /** Warm instances (sessions) kept per hook (default 64). */
  readonly maxInstancesPerHook?: number;
  /**
   * Memory all plugin instances together may hold, in MiB (default: the smaller of 1 GiB and a
   * quarter of RAM). Idle instances are evicted least-recently-used to stay within it; a call that
   * still cannot fit is a `memory` fault. See `memory-budget.ts`.
   */
  readonly memoryBudgetMb?: number;
  readonly logCap?: LogCap;
  /**
   * After loading a hook, run synthetic calls of its seams through a throwaway,
   * capability-free instance on each worker, in the background, so a session's
   * first calls find V8's host path and the guest's code warm (default false:
   * an embedder opts in to running a hook on synthetic input; the CLI does).
   */
  readonly warmUp?: boolean;
  /**
   * A runner for a single call (`hookbox call`), in a process that exits right after it
   * (default false). Sessions call a hook again and again: every function is compiled at load
   * (`enableEagerWasmCompilation`) and V8 tiers hot code up to its optimising compiler in the
   * background. One call reaches a small part of a JS-engine module and never profits from
   * optimised code, and the process waits at exit for the optimising jobs still running
   * (~0.5 s for guard-bash on a loaded machine): a one-shot runner compiles lazily, with V8's
   * baseline wasm compiler only (`useBaselineWasmCompilerOnly`). Process-wide flags: once set,
   * they hold for every runner of the process.
   */
  readonly oneShot?: boolean;
}

/**
 * Runs untrusted wasm hooks in a pool of worker threads with hard limits.
 * `load` turns a spec into a seam listener; `close` stops every worker.
 *
 * @example
 * const runner = await HookRunner.start();
 * try {
 *   const hook = await runner.load({ name: 'guard', wasm: 'guard.wasm' });
 *   bus.use(hook);
 * } finally {
 *   await runner.close();
 * }
 */
export class HookRunner {
  readonly #pool: WorkerPool;
  /** Workers of their own for hooks of a named lane (`WasmHookSpec.lane`), started at the lane's first hook. */
  readonly #lanes = new Map<string, WorkerPool>();
  readonly #options: HookRunnerOptions;
  readonly #modules = new Map<string, Promise<PreparedHookModule>>();
  readonly #hooks = new Set<WasmHook>();
  readonly #budget: MemoryBudget;
  readonly #warming = new Set<Promise<void>>();
  #nextInstanceId = 1;

  private constructor(pool: WorkerPool, options: HookRunnerOptions) {
    this.#pool = pool;
    this.#options = options;
    this.#budget = new MemoryBudget(
      options.memoryBudgetMb === undefined ? defaultMemoryBudgetBytes() : options.memoryBudgetMb * 1_048_576,
    );
  }

  /** The memory budget's state: what live instances are charged, and evictions so far. */
  get memory(): { budgetBytes: number; usedBytes: number; instances: number; evictions: number } {
    const budget = this.#budget;
    return { budgetBytes: budget.budgetBytes, usedBytes: budget.usedBytes, instances: budget.instances, evictions: budget.evictions };
  }

  /** Starts the runner and waits until its workers are ready; throws if one cannot start. */
  static async start(options: HookRunnerOptions = {}): Promise<HookRunner> {
    const runner = HookRunner.open(options);
    await runner.#pool.ready;
    return runner;
  }

  /**
   * Starts the runner without waiting for its workers: `load` reads, prepares and compiles the
   * module while they boot, and waits for them only to instantiate it. A worker that cannot
   * start makes `load` throw the error `start` would have. For a one-shot caller (`hookbox call`);
   * `close` it on every path, loaded or not.
   *
   * `workers`: a pool `openWorkers` started earlier with the same options (`hookbox call` starts
   * its worker before loading this module, see open-workers.ts). The runner owns it from here:
   * `close` closes it.
   */
  static open(options: HookRunnerOptions = {}, workers?: WorkerPool): HookRunner {
    if (options.oneShot === true) useBaselineWasmCompilerOnly();
    else enableEagerWasmCompilation();
    return new HookRunner(workers ?? openWorkers(options), options);
  }

  /** Workers started so far, replacements included. */
  get workersStarted(): number {
    let started = this.#pool.started;
    for (const lane of this.#lanes.values()) started += lane.started;
    return started;
  }

  /** Loads a hook; throws `HookLoadError` naming the file for anything that keeps it from running. */
  async load(spec: WasmHookSpec): Promise<WasmHook> {
    const source = spec.source ?? (typeof spec.wasm === 'string' ? spec.wasm : `${spec.name}.wasm`);
    const bytes = typeof spec.wasm === 'string' ? await readWasm(spec.wasm) : spec.wasm;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (spec.sha256 !== undefined && spec.sha256 !== sha256) {
      throw new HookLoadError(`${source}: sha256 mismatch: the manifest pins ${spec.sha256}, the file has ${sha256}; refusing to load`);
    }
    const limits = { ...DEFAULT_LIMITS, ...spec.limits };
    const capabilities: Capabilities = spec.capabilities ?? {};
    const env = grantedEnv(capabilities.env);
    const plainExports = spec.plainExports ?? [];
    const compiled = await this.#compile(bytes, sha256, source, { memoryMb: limits.memoryMb, plainExports });
    const exports = compiled.prepared.seamExports;
    for (const name of plainExports) {
      if (!compiled.prepared.functionExports.includes(name)) {
        throw new HookLoadError(`${source}: hook "${spec.name}" is configured to serve export "${name}" but the module does not export it (it exports: ${compiled.prepared.functionExports.join(', ')})`);
      }
    }
    if (exports.length === 0 && plainExports.length === 0) {
      throw new HookLoadError(`${source}: exports no seam function (expected one of ${Object.values(SEAMS).map((s) => s.exportName).join(', ')})`);
    }
    const seams = spec.seams ?? exports;
    for (const seam of seams) {
      if (!exports.includes(seam)) {
        throw new HookLoadError(
          `${source}: hook "${spec.name}" is configured for ${seam} but the module does not export "${SEAMS[seam].exportName}" (it exports: ${exports.map((s) => SEAMS[s].exportName).join(', ')})`,
        );
      }
    }
    // What one instance may hold at most: its linear-memory cap, the per-call Extism allocation
    // budget (memoryMb) and its vars (maxVarBytes = memoryMb × 64 KiB, see extism-adapter.ts).
    const varBytes = limits.memoryMb * 65_536;
    const capBytes = (compiled.prepared.memory?.max ?? 0) * 65_536 + limits.memoryMb * 1_048_576 + varBytes;
    if (capBytes > this.#budget.budgetBytes) {
      throw new HookLoadError(
        `${source}: one instance of hook "${spec.name}" may hold up to ${mib(capBytes)} MiB (memoryMb ${limits.memoryMb}: linear memory, Extism allocations and vars), more than the runner's whole memory budget of ${mib(this.#budget.budgetBytes)} MiB (memoryBudgetMb); lower memoryMb or raise the budget`,
      );
    }
    const config: Record<string, string> = { ...spec.config };
    if (limits.instructionBudget !== undefined) config['hookbox.instructionBudget'] = String(limits.instructionBudget);
    // Engines that honour it (the hookbox JS engine) keep their heap under the
    // linear-memory cap, so running out is a clean `memory` fault, not a malloc
    // failure: three quarters of the cap, the rest for stack and data.
    config['hookbox.memoryLimitBytes'] ??= String(Math.floor(limits.memoryMb * 1024 * 1024 * 0.75));
    const granted = Object.values(spec.signals ?? {});
    // Opened without waiting (`open`): the workers booted while the module was prepared.
    await this.#pool.ready;
    const pool = this.#laneFor(spec.lane);
    await pool.ready;
    const hook = new WasmHookImpl({
      name: spec.name,
      sha256,
      exports,
      seams,
      ...(spec.tools !== undefined && { tools: spec.tools }),
      ...(spec.failPolicy !== undefined && { failPolicy: spec.failPolicy }),
      ...(spec.codec !== undefined && { codec: spec.codec }),
      module: compiled,
      instanceOptions: {
        ...(compiled.prepared.wasi && { wasi: { preopens: wasiPreopens(capabilities.allowedPaths, source), env, clock: capabilities.clock === true } }),
        config,
        memoryMb: limits.memoryMb,
        memoryMaxPages: compiled.prepared.memory?.max,
        maxOutputBytes: limits.maxOutputBytes,
        ...(this.#options.logCap !== undefined && { logCap: this.#options.logCap }),
        ...(plainExports.length > 0 && { plainExports }),
        ...(spec.hostFunctions !== undefined && { hostFunctions: spec.hostFunctions }),
        ...((capabilities.allowedHosts ?? []).length > 0 && {
          http: { allowedHosts: capabilities.allowedHosts ?? [], timeoutMs: limits.timeoutMs, maxResponseBytes: HTTP_MAX_RESPONSE_BYTES },
        }),
        ...(granted.length > 0 && { signals: { waitMs: granted.reduce((sum, spec) => sum + spec.timeoutMs, limits.timeoutMs) + SIGNAL_ANSWER_SLACK_MS } }),
      },
      timeoutMs: limits.timeoutMs,
      ...(granted.length > 0 && { signals: spec.signals }),
      loadTimeoutMs: Math.max(limits.timeoutMs, MIN_LOAD_TIMEOUT_MS),
      quarantineAfter: spec.quarantineAfter ?? DEFAULT_QUARANTINE_AFTER,
      maxInstances: this.#options.maxInstancesPerHook ?? 64,
      pool,
      onLog: this.#options.onLog,
      nextInstanceId: () => this.#nextInstanceId++,
      budget: this.#budget,
      capBytes,
      mapStack: stackMapper(wasmApi.Module.customSections(compiled.guest, SOURCE_MAP_SECTION)),
    });
    const fault = await hook.probe();
    if (fault !== undefined) {
      await hook.close();
      throw new HookLoadError(`${source}: ${fault.message}`);
    }
    this.#hooks.add(hook);
    if (this.#options.warmUp === true) {
      const warming = hook.warmUp().catch((error: unknown) => {
        this.#options.onLog?.({ hook: spec.name, level: 'debug', message: `warm-up stopped: ${error instanceof Error ? error.message : String(error)}`, session: '' });
      });
      this.#warming.add(warming);
      void warming.finally(() => this.#warming.delete(warming));
    }
    return hook;
  }

  /** Settles when the background warm-up of every hook loaded so far has finished. */
  async warmedUp(): Promise<void> {
    await Promise.all([...this.#warming]);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#hooks].map((hook) => hook.close()));
    this.#hooks.clear();
    await Promise.all([this.#pool.close(), ...[...this.#lanes.values()].map((lane) => lane.close())]);
  }

  /** The workers of a lane: one worker of its own, no spare (a replacement after its own runaway starts cold, ~100 ms; a spare would double its memory). */
  #laneFor(lane: string | undefined): WorkerPool {
    if (lane === undefined) return this.#pool;
    let pool = this.#lanes.get(lane);
    if (pool === undefined) {
      pool = openWorkers({ ...this.#options, workers: 1, spareWorker: false });
      this.#lanes.set(lane, pool);
    }
    return pool;
  }

  #compile(bytes: Uint8Array, sha256: string, source: string, options: { memoryMb: number; plainExports: readonly string[] }) {
    const key = `${sha256}:${options.memoryMb}:${options.plainExports.join(',')}`;
    let entry = this.#modules.get(key);
    if (entry === undefined) {
      entry = compileHookModule(bytes, key, source, options);
      this.#modules.set(key, entry);
      entry.catch(() => this.#modules.delete(key));
    }
    return entry;
  }
}

async function readWasm(file: string): Promise<Uint8Array> {
  try {
    return fileBytes(await readFile(file));
  } catch (error) {
    throw new HookLoadError(`${file}: cannot read the wasm file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
}

/**
 * Granted directories for hookbox's WASI: each host path's realpath, taken
 * once here (the WASI layer resolves every guest path inside it), with the
 * grant's guest path and write flag.
 */
function wasiPreopens(paths: Capabilities['allowedPaths'], source: string): WasiPreopen[] {
  return Object.entries(paths ?? {}).map(([host, grant]) => {
    const { guest, write } = pathGrant(grant);
    let real: string;
    try {
      real = realpathSync(path.resolve(host));
    } catch (error) {
      throw new HookLoadError(`${source}: granted path ${host} cannot be opened (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
    }
    if (!statSync(real).isDirectory()) throw new HookLoadError(`${source}: granted path ${host} is not a directory`);
    return { guest, host: real, write };
  });
}

function grantedEnv(names: Capabilities['env']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names ?? []) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
