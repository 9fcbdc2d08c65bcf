/**
 * What a hook instance costs to start and to keep: cold start (a new
 * instance from the cached compiled module, and from bytes), each up to its
 * first decision; memory per live instance (process RSS, worker threads
 * included, and the guest's linear memory).
 */
import type { HookRunner } from '../host/runner/index.ts';
import { encodeEnvelope } from '../host/runner/wire.ts';
import { type BenchHook, NEXT, PAYLOAD, SESSION, withNonce } from './fixtures.ts';
import { type Summary, settledRss, timeEach } from './harness.ts';
import { callMainThread, compileForMainThread, createMainThreadInstance, guestMemoryAfterCall } from './main-thread.ts';

export interface ColdStartRow {
  readonly hook: string;
  readonly id: 'cached-main' | 'cached-isolated' | 'bytes-main' | 'bytes-isolated';
  readonly what: string;
  readonly summary: Summary;
}

export interface MemoryRow {
  readonly hook: string;
  /** Process RSS growth per live instance through the runner (workers are threads of this process). */
  readonly rssPerIsolatedInstanceBytes: number;
  /** The same for instances on the main thread. */
  readonly rssPerMainInstanceBytes: number;
  /** Guest linear memory at instantiation and after one call on the bench payload. */
  readonly wasmMemoryInitialBytes: number;
  readonly wasmMemoryAfterCallBytes: number;
  readonly instances: number;
}

export interface InstanceOptions {
  readonly coldSamples: number;
  readonly bytesSamples: number;
  readonly memoryInstances: number;
  readonly timeoutMs: number;
}

function expectDecision(outcome: { type: string }, what: string): void {
  if (outcome.type !== 'decision') throw new Error(`${what}: expected a decision, got ${JSON.stringify(outcome)}`);
}

/** Cold start rows for one hook. */
export async function measureColdStart(runner: HookRunner, hook: BenchHook, options: InstanceOptions): Promise<ColdStartRow[]> {
  const rows: ColdStartRow[] = [];
  const module = await compileForMainThread(hook.bytes, `${hook.name}.wasm`);

  // Warm the compiled code first: what is measured is a new instance, not V8's first compile.
  const warm = await createMainThreadInstance(module);
  expectDecision(await callMainThread(warm, PAYLOAD, SESSION, NEXT), hook.name);
  await warm.close();
  rows.push({
    hook: hook.name,
    id: 'cached-main',
    what: 'new instance from the compiled module + first call, main thread',
    summary: await timeEach(options.coldSamples, async () => {
      const instance = await createMainThreadInstance(module);
      try {
        expectDecision(await callMainThread(instance, PAYLOAD, SESSION, NEXT), hook.name);
      } finally {
        await instance.close();
      }
    }),
  });

  const loaded = await runner.load({ name: `${hook.name}-cold`, wasm: hook.bytes, limits: { timeoutMs: options.timeoutMs } });
  try {
    // The load-time probe instance goes to this first session; later sessions each get a new instance.
    expectDecision(await loaded.invoke({ seam: 'tools/pre-execute', payload: PAYLOAD, next: NEXT, session: SESSION }), hook.name);
    rows.push({
      hook: hook.name,
      id: 'cached-isolated',
      what: 'new session through HookRunner: instance on a worker from the shared module + first call',
      summary: await timeEach(options.coldSamples, async (i) => {
        const session = { ...SESSION, id: `cold-${hook.name}-${i}` };
        expectDecision(await loaded.invoke({ seam: 'tools/pre-execute', payload: PAYLOAD, next: NEXT, session }), hook.name);
      }),
    });
  } finally {
    await loaded.close();
  }

  let nonce = Date.now();
  rows.push({
    hook: hook.name,
    id: 'bytes-main',
    what: 'prepare + compile + instantiate + first call, main thread',
    summary: await timeEach(options.bytesSamples, async () => {
      const fresh = await compileForMainThread(withNonce(hook.bytes, nonce++), `${hook.name}.wasm`);
      const instance = await createMainThreadInstance(fresh);
      try {
        expectDecision(await callMainThread(instance, PAYLOAD, SESSION, NEXT), hook.name);
      } finally {
        await instance.close();
      }
    }),
  });
  rows.push({
    hook: hook.name,
    id: 'bytes-isolated',
    what: 'HookRunner.load(bytes) (sha256, prepare, compile, probe instance) + first call',
    summary: await timeEach(options.bytesSamples, async () => {
      const fresh = await runner.load({ name: `${hook.name}-bytes`, wasm: withNonce(hook.bytes, nonce++), limits: { timeoutMs: options.timeoutMs } });
      try {
        expectDecision(await fresh.invoke({ seam: 'tools/pre-execute', payload: PAYLOAD, next: NEXT, session: SESSION }), hook.name);
      } finally {
        await fresh.close();
      }
    }),
  });
  return rows;
}

/**
 * Memory per live instance for one hook. The isolated figure comes from a
 * runner of its own, so garbage other hooks left in the workers' heaps
 * (which a GC of this thread cannot collect) does not land in the delta.
 */
export async function measureMemory(startRunner: () => Promise<HookRunner>, hook: BenchHook, options: InstanceOptions): Promise<MemoryRow> {
  const count = options.memoryInstances;
  const runner = await startRunner();
  let rssPerIsolated: number;
  try {
    const loaded = await runner.load({ name: `${hook.name}-memory`, wasm: hook.bytes, limits: { timeoutMs: options.timeoutMs } });
    // Instances spread over the workers: warm every worker's code paths before the first reading.
    for (let i = 0; i < 4; i++) {
      expectDecision(await loaded.invoke({ seam: 'tools/pre-execute', payload: PAYLOAD, next: NEXT, session: { ...SESSION, id: `warm-${i}` } }), hook.name);
    }
    const before = await settledRss();
    for (let i = 0; i < count; i++) {
      const session = { ...SESSION, id: `memory-${hook.name}-${i}` };
      expectDecision(await loaded.invoke({ seam: 'tools/pre-execute', payload: PAYLOAD, next: NEXT, session }), hook.name);
    }
    rssPerIsolated = ((await settledRss()) - before) / count;
  } finally {
    await runner.close();
  }

  const module = await compileForMainThread(hook.bytes, `${hook.name}.wasm`);
  const instances = [];
  let rssPerMain: number;
  try {
    const first = await createMainThreadInstance(module);
    instances.push(first);
    expectDecision(await callMainThread(first, PAYLOAD, SESSION, NEXT), hook.name);
    const before = await settledRss();
    for (let i = 0; i < count; i++) {
      const instance = await createMainThreadInstance(module);
      instances.push(instance);
      expectDecision(await callMainThread(instance, PAYLOAD, SESSION, NEXT), hook.name);
    }
    rssPerMain = ((await settledRss()) - before) / count;
  } finally {
    for (const instance of instances) await instance.close();
  }

  const memory = await guestMemoryAfterCall(hook.bytes, encodeEnvelope('tools/pre-execute', SESSION, PAYLOAD, NEXT));
  return {
    hook: hook.name,
    rssPerIsolatedInstanceBytes: rssPerIsolated,
    rssPerMainInstanceBytes: rssPerMain,
    wasmMemoryInitialBytes: memory.initialBytes,
    wasmMemoryAfterCallBytes: memory.afterCallBytes,
    instances: count,
  };
}
