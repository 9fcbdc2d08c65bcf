/**
 * The warm-up loop itself (`warmUpHook`, host/runner/warm-up.ts), driven
 * directly on real worker threads with a real compiled hook: which instance it
 * makes on each worker and with which capabilities, how many synthetic calls
 * it makes per seam and with what input, when it stops (time budget, a slow
 * call, a fault, a refusal, the hook closing), and that it gives back what it
 * took (instance, budget room, the worker's instance count).
 *
 * The worker handles are the pool's own, wrapped so each `create`, `call` and
 * `dispose` is recorded on its way through; the calls really run. The clock
 * the loop reads (`performance.now` on the main thread) is held still and
 * moved by the test, so "a call took 20 ms" is a fact of the test, not of the
 * machine's load. (The two runaway cases keep the real clock: a handle spins on
 * it until a call's deadline.)
 */
import { unpack } from 'msgpackr';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DATA_BYTES, DEFAULT_MAX_DATA_BYTES, EXPORT_NAMES } from '../../host/runner/channel.ts';
import type { InstanceOptions } from '../../host/runner/extism-adapter.ts';
import { compileHookModule } from '../../host/runner/hook-module.ts';
import { MemoryBudget } from '../../host/runner/memory-budget.ts';
import { WorkerPool } from '../../host/runner/pool.ts';
import {
  WARM_UP_BUDGET_MS,
  WARM_UP_CALLS,
  WARM_UP_HOST_CALLS,
  WARM_UP_PAYLOADS,
  WARM_UP_SESSION,
  WARM_UP_SLOW_MS,
  type WarmUpInit,
  warmUpHook,
} from '../../host/runner/warm-up.ts';
import { type HookCodec, hookboxCodec } from '../../host/runner/wire.ts';
import type { WorkerHandle } from '../../host/runner/worker-handle.ts';
import { PROTOCOL_VERSION } from '../../host/seams/envelope.ts';
import { type SeamId, exportForSeam, seamDefinition } from '../../host/seams/index.ts';
import { compileWat, compileWatSource } from '../helpers/wat.ts';

const TUNING = { dataBytes: DEFAULT_DATA_BYTES, maxDataBytes: DEFAULT_MAX_DATA_BYTES, mainSpinUs: 30, workerSpinUs: 50, workerQueuedSpinUs: 200 };
const MEMORY_MB = 4;
const PRE: SeamId = 'tools/pre-execute';
const START: SeamId = 'agent/session-start';

interface Recorded {
  readonly worker: number;
  readonly op: 'create' | 'call' | 'dispose';
  readonly id: number;
  readonly args: readonly unknown[];
  readonly usedBytes?: number;
}

let pool: WorkerPool | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await pool?.close();
  pool = undefined;
});

/** Pre-tool hook whose start function traps: every instance of it fails to start. */
const START_TRAPS = `(module
  (memory (export "memory") 1 2)
  (func $init unreachable)
  (start $init)
  (func (export "pre_tool") (result i32) (i32.const 0)))`;

/**
 * A warm-up of corpus hook `name` (or a WAT source) on `workers` real workers. The clock moves by
 * `clock.perCall` ms in each call; after `clock.closedAfter` calls the hook reads as closed.
 */
async function rig(
  name: string,
  options: { workers?: number; budgetBytes?: number; hostCallsDone?: number; timeoutMs?: number; realClock?: boolean; instanceOptions?: Partial<WarmUpInit['instanceOptions']> } = {},
) {
  const bytes = name === 'start-traps' ? await compileWatSource(START_TRAPS, 'start-traps.wat') : await compileWat(name);
  await pool?.close();
  const module = await compileHookModule(bytes, `${name}:key`, `${name}.wat`, { memoryMb: MEMORY_MB, plainExports: [] });
  pool = await WorkerPool.start(options.workers ?? 1, TUNING, false);
  const capBytes = (module.prepared.memory?.max ?? 0) * 65_536 + MEMORY_MB * 1_048_576 + MEMORY_MB * 65_536;
  const budget = new MemoryBudget(options.budgetBytes ?? 64 * capBytes);
  const log: Recorded[] = [];
  const clock = { now: 1_000_000, perCall: 0, closedAfter: Infinity, calls: 0 };
  // A runaway needs the real clock: the handle spins on it until its deadline.
  if (options.realClock !== true) vi.spyOn(performance, 'now').mockImplementation(() => clock.now);
  const handles = pool.live().map((handle, worker) => {
    if (options.hostCallsDone !== undefined) handle.warmUpCalls = options.hostCallsDone;
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'create') {
          return async (...args: Parameters<WorkerHandle['create']>) => {
            log.push({ worker, op: 'create', id: args[0], args: args.slice(1), usedBytes: budget.usedBytes });
            return target.create(...args);
          };
        }
        if (key === 'call') {
          return async (...args: Parameters<WorkerHandle['call']>) => {
            log.push({ worker, op: 'call', id: args[0], args: args.slice(1), usedBytes: budget.usedBytes });
            const result = await target.call(...args);
            clock.calls++;
            clock.now += clock.perCall;
            return result;
          };
        }
        if (key === 'dispose') {
          return (id: number) => {
            log.push({ worker, op: 'dispose', id, args: [], usedBytes: budget.usedBytes });
            target.dispose(id);
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
      set(target, key, value) {
        return Reflect.set(target, key, value, target);
      },
    });
  });
  let nextId = 100;
  const init: WarmUpInit = {
    module,
    instanceOptions: {
      config: {},
      memoryMb: MEMORY_MB,
      memoryMaxPages: module.prepared.memory?.max,
      maxOutputBytes: 65_536,
      ...(module.prepared.wasi && { wasi: { preopens: [], env: {}, clock: false } }),
      ...options.instanceOptions,
    },
    timeoutMs: options.timeoutMs ?? 5_000,
    loadTimeoutMs: (options.timeoutMs ?? 5_000) + 100,
    pool: { live: () => handles } as unknown as WorkerPool,
    budget,
    capBytes,
    nextInstanceId: () => nextId++,
  };
  const decoded: SeamId[] = [];
  const wire: HookCodec = { name: 'hookbox', encode: hookboxCodec.encode, decode: (seam, reply) => (decoded.push(seam), hookboxCodec.decode(seam, reply)) };
  const run = (seams: readonly SeamId[]) => warmUpHook(init, wire, seams, () => clock.calls >= clock.closedAfter);
  return { run, log, clock, budget, capBytes, handles: pool.live(), decoded, module };
}

const calls = (log: readonly Recorded[]) => log.filter((entry) => entry.op === 'call');
const exportIndex = (seam: SeamId) => EXPORT_NAMES.indexOf(exportForSeam(seam));

describe('warmUpHook: what it makes', () => {
  it('one throwaway instance per live worker, with no capabilities, as background work, disposed afterwards', async () => {
    const granted: Partial<WarmUpInit['instanceOptions']> = {
      config: { 'hookbox.memoryLimitBytes': '1000' },
      memoryMb: MEMORY_MB,
      maxOutputBytes: 65_536,
      wasi: { preopens: [{ guest: '/workspace', host: '/tmp', write: true }], env: { SECRET: 'hunter2' }, clock: true },
      http: { allowedHosts: ['example.com'], timeoutMs: 1_000, maxResponseBytes: 1_024 },
    };
    const { run, log, handles, module, budget } = await rig('allow', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS, instanceOptions: granted });
    await run([PRE]);
    const creates = log.filter((entry) => entry.op === 'create');
    expect(creates.map((entry) => [entry.worker, entry.id])).toEqual([[0, 100], [1, 101]]);
    for (const create of creates) {
      const [key, modules, options, loadTimeoutMs, gate, priority] = create.args as [string, { guest: unknown; wrapper: unknown }, InstanceOptions, number, unknown, string];
      expect(key).toBe(module.key);
      expect(modules).toEqual({ guest: module.guest, wrapper: module.wrapper });
      // The same limits and config, but no directories, no environment and no network; the clock as granted.
      expect(options).toEqual({
        config: { 'hookbox.memoryLimitBytes': '1000' },
        memoryMb: MEMORY_MB,
        memoryMaxPages: module.prepared.memory?.max,
        maxOutputBytes: 65_536,
        wasi: { preopens: [], env: {}, clock: true },
      });
      expect(loadTimeoutMs).toBe(5_100);
      expect(typeof gate).toBe('function');
      expect(priority).toBe('background');
    }
    // Each worker's calls go to its own instance, then that instance is disposed; nothing is left charged.
    for (const [worker, id] of [[0, 100], [1, 101]] as const) {
      expect(calls(log).filter((entry) => entry.worker === worker).every((entry) => entry.id === id)).toBe(true);
      expect(log.filter((entry) => entry.op === 'dispose' && entry.worker === worker).map((entry) => entry.id)).toEqual([id]);
    }
    expect(handles.map((handle) => handle.instanceCount)).toEqual([0, 0]);
    expect(budget.instances).toBe(0);
    expect(budget.usedBytes).toBe(0);
  });

  it('counts the instance in the memory budget at its cap while it runs, and a refusal ends the warm-up on every worker', async () => {
    const counted = await rig('allow', { hostCallsDone: WARM_UP_HOST_CALLS });
    await counted.run([PRE]);
    expect(calls(counted.log).map((entry) => entry.usedBytes)).toEqual(Array(WARM_UP_CALLS).fill(counted.capBytes));

    const refused = await rig('allow', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS, budgetBytes: 1 });
    await refused.run([PRE]);
    // The first worker's instance does not fit: nothing is instantiated or called anywhere, and nothing stays charged.
    expect(refused.log.map((entry) => `${entry.op}:${entry.worker}`)).toEqual(['create:0', 'dispose:0']);
    expect(refused.handles.map((handle) => handle.instanceCount)).toEqual([0, 0]);
    expect(refused.budget.instances).toBe(0);
  });
});

describe('warmUpHook: its calls', () => {
  it(`makes ${WARM_UP_CALLS} calls per seam, in order, each with the seam's synthetic payload, as background work`, async () => {
    const { run, log, handles, decoded } = await rig('allow', { hostCallsDone: WARM_UP_HOST_CALLS });
    await run([PRE, START]);
    // A module without WASI imports gets no WASI options from the warm-up either.
    expect(log[0]?.args[2]).not.toHaveProperty('wasi');
    const made = calls(log);
    expect(made.map((entry) => entry.args[0])).toEqual([...Array(WARM_UP_CALLS).fill(exportIndex(PRE)), ...Array(WARM_UP_CALLS).fill(exportIndex(START))]);
    for (const entry of made) {
      const [index, input, timeoutMs, gate, priority] = entry.args as [number, Uint8Array, number, unknown, string];
      const seam = index === exportIndex(PRE) ? PRE : START;
      const payload = WARM_UP_PAYLOADS[seam];
      const next = seamDefinition(seam).kind === 'notify' ? null : seamDefinition(seam).defaultDecision(payload as never);
      expect(unpack(input)).toEqual({ v: PROTOCOL_VERSION, seam, session: WARM_UP_SESSION, payload, next });
      expect(timeoutMs).toBe(5_000);
      expect(typeof gate).toBe('function');
      expect(priority).toBe('background');
    }
    // Every reply is decoded, as a real call's would be (the codec is part of the path to warm).
    expect(decoded).toEqual(made.map((entry) => (entry.args[0] === exportIndex(PRE) ? PRE : START)));
    expect(handles[0]!.warmUpCalls).toBe(WARM_UP_HOST_CALLS + 2 * WARM_UP_CALLS);
  });

  it(`a worker whose host path is still cold goes on until ${WARM_UP_HOST_CALLS} calls on it, then stops at the per-seam count`, async () => {
    const { run, log, handles } = await rig('allow', { hostCallsDone: WARM_UP_HOST_CALLS - 20 });
    await run([PRE, START]);
    // 20 calls of the first seam bring the worker to its host-call count; the second seam gets the usual number.
    expect(calls(log).map((entry) => entry.args[0])).toEqual([...Array(20).fill(exportIndex(PRE)), ...Array(WARM_UP_CALLS).fill(exportIndex(START))]);
    expect(handles[0]!.warmUpCalls).toBe(WARM_UP_HOST_CALLS + WARM_UP_CALLS);
  });
});

describe('warmUpHook: when it stops', () => {
  it(`stops starting calls once ${WARM_UP_BUDGET_MS} ms have passed, counting a call that starts exactly then`, async () => {
    const { run, log, clock, budget } = await rig('allow', { hostCallsDone: WARM_UP_HOST_CALLS });
    // Every call "takes" exactly the slow threshold: not slow. Calls start at 0, 20, … 300 ms; the one at 320 is not made.
    clock.perCall = WARM_UP_SLOW_MS;
    await run([PRE, START]);
    const made = calls(log);
    expect(made).toHaveLength(WARM_UP_BUDGET_MS / WARM_UP_SLOW_MS + 1);
    expect(made.filter((entry) => entry.args[0] === exportIndex(START))).toHaveLength(WARM_UP_BUDGET_MS / WARM_UP_SLOW_MS + 1 - WARM_UP_CALLS);
    expect(log.at(-1)?.op).toBe('dispose');
    expect(budget.instances).toBe(0);
  });

  it('a call slower than the threshold ends the warm-up of the hook on that worker, not on the next', async () => {
    const { run, log, clock } = await rig('allow', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS });
    clock.perCall = WARM_UP_SLOW_MS + 1;
    await run([PRE, START]);
    expect(calls(log).map((entry) => `${entry.worker}:${entry.args[0]}`)).toEqual([`0:${exportIndex(PRE)}`, `1:${exportIndex(PRE)}`]);
    expect(log.filter((entry) => entry.op === 'dispose').map((entry) => entry.worker)).toEqual([0, 1]);
  });

  it('a call whose instance must be discarded (proc_exit) ends that worker\'s warm-up, and the next worker still warms', async () => {
    const { run, log, handles } = await rig('proc-exit', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS });
    await run([PRE, START]);
    expect(calls(log).map((entry) => `${entry.worker}:${entry.args[0]}`)).toEqual([`0:${exportIndex(PRE)}`, `1:${exportIndex(PRE)}`]);
    expect(handles.map((handle) => handle.instanceCount)).toEqual([0, 0]);
  });

  it('an instance whose start function faults is skipped: no call on it, and the next worker is tried', async () => {
    const { run, log } = await rig('start-traps', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS });
    await run([PRE]);
    expect(log.filter((entry) => entry.op !== 'call').map((entry) => `${entry.op}:${entry.worker}`)).toEqual(['create:0', 'dispose:0', 'create:1', 'dispose:1']);
    expect(calls(log)).toEqual([]);
  });

  it('stops as soon as the hook is closed: no further call, no next worker', async () => {
    const { run, log, clock, handles, budget } = await rig('allow', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS });
    clock.closedAfter = 5;
    await run([PRE, START]);
    expect(calls(log)).toHaveLength(5);
    expect(log.map((entry) => `${entry.op}:${entry.worker}`).filter((op) => op !== 'call:0')).toEqual(['create:0', 'dispose:0']);
    expect(handles.map((handle) => handle.instanceCount)).toEqual([0, 0]);
    expect(budget.instances).toBe(0);

    const before = await rig('allow', { hostCallsDone: WARM_UP_HOST_CALLS });
    before.clock.closedAfter = 0;
    await before.run([PRE]);
    expect(before.log).toEqual([]);
  });

  it('an instance that does not start before the load deadline is skipped; the worker it ran on is not called again', async () => {
    const { run, log, handles, budget } = await rig('start-never-returns', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS, timeoutMs: 100, realClock: true });
    await run([PRE]);
    expect(calls(log)).toEqual([]);
    expect(log.filter((entry) => entry.op === 'create').map((entry) => entry.worker)).toEqual([0, 1]);
    // A worker stuck in a start function is ended, not disposed into; nothing stays counted.
    expect(log.filter((entry) => entry.op === 'dispose')).toEqual([]);
    expect(handles.map((handle) => handle.dead)).toEqual([true, true]);
    expect(handles.map((handle) => handle.instanceCount)).toEqual([0, 0]);
    expect(budget.instances).toBe(0);
  });

  it('a call that runs past its deadline ends the warm-up on that worker (its worker is gone), and the next worker still warms', async () => {
    const { run, log, handles, budget } = await rig('infinite-loop', { workers: 2, hostCallsDone: WARM_UP_HOST_CALLS, timeoutMs: 100, realClock: true });
    await run([PRE, START]);
    expect(calls(log).map((entry) => `${entry.worker}:${entry.args[0]}`)).toEqual([`0:${exportIndex(PRE)}`, `1:${exportIndex(PRE)}`]);
    expect(log.filter((entry) => entry.op === 'dispose')).toEqual([]);
    expect(handles.map((handle) => handle.instanceCount)).toEqual([0, 0]);
    expect(budget.instances).toBe(0);
  });
});
