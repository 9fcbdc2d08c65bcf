/**
 * The worker pool's bookkeeping (pool.ts) with real worker threads: a spare
 * started beside the slots, placement on the least loaded worker, session
 * affinity, the spare taking a dead worker's slot at once, and a closed pool
 * refusing placement.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../host/runner/pool.ts';
import { DEFAULT_DATA_BYTES, DEFAULT_MAX_DATA_BYTES } from '../../host/runner/channel.ts';
import type { WorkerHandle } from '../../host/runner/worker-handle.ts';

const TUNING = { dataBytes: DEFAULT_DATA_BYTES, maxDataBytes: DEFAULT_MAX_DATA_BYTES, mainSpinUs: 0, workerSpinUs: 0, workerQueuedSpinUs: 0 };

/** Whether `handle` is ready already: its `ready` settles before anything else the event loop has queued. */
async function readyNow(handle: WorkerHandle): Promise<boolean> {
  let ready = false;
  void handle.ready.then(() => {
    ready = true;
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  return ready;
}

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('WorkerPool', () => {
  it('starts the slots and one spare, all ready; without a spare only the slots; never fewer than one slot', async () => {
    pool = await WorkerPool.start(2, TUNING);
    expect(pool.started).toBe(3);
    expect(pool.live()).toHaveLength(2);
    await pool.close();
    pool = await WorkerPool.start(0, TUNING, false);
    expect(pool.started).toBe(1);
    expect(pool.live()).toHaveLength(1);
  });

  it('start settles only once every worker, the spare included, is ready', async () => {
    pool = await WorkerPool.start(2, TUNING);
    const [a, b] = pool.live();
    expect(await readyNow(a!)).toBe(true);
    expect(await readyNow(b!)).toBe(true);
    // The spare is out of reach until it takes a dead worker's slot; it was ready before that.
    void a!.terminate();
    const spare = pool.live()[0]!;
    expect(spare).not.toBe(a);
    expect(await readyNow(spare)).toBe(true);
  });

  it('places a new session on the worker with the fewest instances, and keeps a session on its worker', async () => {
    pool = await WorkerPool.start(2, TUNING, false);
    const [a, b] = pool.live();
    if (a === undefined || b === undefined) throw new Error('two workers expected');
    expect(pool.pick()).toBe(a); // a tie goes to the first slot
    a.instanceCount = 3;
    expect(pool.pick('s1')).toBe(b);
    expect(pool.affinity('s1')).toBe(b);
    b.instanceCount = 5;
    expect(pool.pick('s1')).toBe(b); // bound: not moved although b is now the busier one
    expect(pool.pick('s2')).toBe(a);
    expect(pool.pick()).toBe(a); // no session: no binding made
    expect(pool.affinity('never')).toBeUndefined();
    pool.bind('s1', a);
    expect(pool.pick('s1')).toBe(a);
  });

  it('forgets the oldest of more than 4,096 session bindings', async () => {
    pool = await WorkerPool.start(1, TUNING, false);
    const [only] = pool.live();
    pool.bind('first', only!);
    pool.bind('second', only!);
    pool.bind('first', only!); // re-binding makes it the newest
    for (let i = 0; i < 4095; i++) pool.bind(`s${i}`, only!);
    expect(pool.affinity('second')).toBeUndefined();
    expect(pool.affinity('first')).toBe(only);
    expect(pool.affinity('s0')).toBe(only);
  });

  it('a placement without a session binds nothing (no slot of the 4,096 bindings is spent on it)', async () => {
    pool = await WorkerPool.start(1, TUNING, false);
    const [only] = pool.live();
    for (let i = 0; i < 4096; i++) pool.bind(`s${i}`, only!);
    expect(pool.pick()).toBe(only);
    expect(pool.affinity('s0')).toBe(only);
  });

  it('binds a session only to a live worker of this pool', async () => {
    pool = await WorkerPool.start(1, TUNING, false);
    const other = await WorkerPool.start(1, TUNING, false);
    try {
      pool.bind('elsewhere', other.live()[0]!);
      expect(pool.affinity('elsewhere')).toBeUndefined();
      expect(pool.pick('elsewhere')).toBe(pool.live()[0]);
    } finally {
      await other.close();
    }
    // A closed pool replaces nothing: its dead workers stay in their slots and bind no one.
    const [only] = pool.live();
    pool.bind('s1', only!);
    await pool.close();
    expect(only!.dead).toBe(true);
    expect(pool.affinity('s1')).toBeUndefined();
  });

  it('puts the spare in a dead worker\'s slot at once and starts a new spare; a dead worker\'s sessions are placed again', async () => {
    pool = await WorkerPool.start(2, TUNING);
    const [a, b] = pool.live();
    if (a === undefined || b === undefined) throw new Error('two workers expected');
    pool.bind('s1', a);
    await a.terminate();
    expect(pool.started).toBe(4);
    const live = pool.live();
    expect(live).toHaveLength(2);
    expect(live[1]).toBe(b);
    expect(live[0]).not.toBe(a);
    expect(live[0]?.dead).toBe(false);
    expect(pool.affinity('s1')).toBeUndefined();
    expect(pool.pick('s1')).not.toBe(a);
    // The spare started with the pool: it is ready already, not a cold start.
    expect(await readyNow(live[0]!)).toBe(true);
  });

  it('without a spare, a dead worker is replaced by a new one in its slot', async () => {
    pool = await WorkerPool.start(2, TUNING, false);
    const [a, b] = pool.live();
    await a!.terminate();
    expect(pool.started).toBe(3);
    const live = pool.live();
    expect(live).toHaveLength(2);
    expect(live[0]).not.toBe(a);
    expect(live[1]).toBe(b);
    await live[0]!.ready;
  });

  it('open returns before the workers are ready; a worker that dies booting rejects `ready` with its error and closes the pool', async () => {
    pool = WorkerPool.open(1, TUNING, false);
    const [booting] = pool.live();
    let ready = false;
    void pool.ready.then(() => (ready = true), () => undefined);
    await Promise.resolve();
    expect(ready).toBe(false); // still booting: a worker takes tens of ms to post `ready`
    await booting!.terminate();
    await expect(pool.ready).rejects.toThrow('worker terminated');
    expect(() => pool!.pick()).toThrow('the worker pool is closed');
    expect(pool.live()).toHaveLength(0); // the replacement started at the death is terminated with the pool
    pool = WorkerPool.open(1, TUNING, false);
    await pool.ready;
    expect(pool.live()[0]?.dead).toBe(false);
  });

  it('a closed pool refuses placement and replaces nothing', async () => {
    pool = await WorkerPool.start(1, TUNING);
    const [a] = pool.live();
    await pool.close();
    expect(() => pool!.pick()).toThrow('the worker pool is closed');
    expect(pool.started).toBe(2);
    expect(a!.dead).toBe(true);
    expect(pool.live()).toHaveLength(0);
  });
});
