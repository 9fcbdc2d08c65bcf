/**
 * One hook's instances (host/runner/instance-table.ts) on their own: the
 * load-time instance handed to the first session, one instance per session
 * reused until it is dropped, least recently used dropped past
 * `maxInstances`, the memory budget evicting an idle one (and saying so),
 * and a session's Vars reaching its next instance only when the loss was not
 * its own doing. Real wasm on a real worker thread, a real memory budget;
 * every pool is closed in `finally`.
 */
import { describe, expect, it } from 'vitest';
import { EXPORT_NAMES, DEFAULT_DATA_BYTES, DEFAULT_MAX_DATA_BYTES } from '../../host/runner/channel.ts';
import { compileHookModule } from '../../host/runner/hook-module.ts';
import { type InstanceTableInit, InstanceTable } from '../../host/runner/instance-table.ts';
import { MemoryBudget } from '../../host/runner/memory-budget.ts';
import { WorkerPool } from '../../host/runner/pool.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { extismModule } from '../helpers/wat-module.ts';

const TUNING = { dataBytes: DEFAULT_DATA_BYTES, maxDataBytes: DEFAULT_MAX_DATA_BYTES, mainSpinUs: 0, workerSpinUs: 0, workerQueuedSpinUs: 0 };
const MIB = 1_048_576;

/**
 * Logs "instantiated" from its start function (so a test sees which lookups made an instance);
 * 16 pages (1 MiB) from the start, so each instance reports 1 MiB. Its plain export `read_k`
 * answers the value of Var "k" (empty when unset).
 */
const VAR_READER = extismModule(`(data (i32.const 0) "k")
  (data (i32.const 32) "instantiated")
  (func $block (param $ptr i32) (param $len i32) (result i64)
    (local $b i64) (local $i i32)
    (local.set $b (call $alloc (i64.extend_i32_u (local.get $len))))
    (block $done (loop $copy
      (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (local.get $b))
  (func $init (call $log_info (call $block (i32.const 32) (i32.const 12))))
  (start $init)
  (func (export "read_k") (result i32)
    (local $v i64)
    (local.set $v (call $var_get (call $block (i32.const 0) (i32.const 1))))
    (if (i64.ne (local.get $v) (i64.const 0))
      (then (call $output_set (local.get $v) (call $length (local.get $v)))))
    (i32.const 0))`, { memory: '16 16' });

const READ_K = EXPORT_NAMES.length; // the first plain export
const base64 = (text: string) => Buffer.from(text).toString('base64');

interface Fixture {
  readonly table: InstanceTable;
  readonly budget: MemoryBudget;
  /** Sessions whose new instance logged "instantiated", in order. */
  readonly made: string[];
  readonly evicted: { session: string; reason: string }[];
}

/** Runs `body` with a one-worker pool and a table of VAR_READER instances; closes the pool whatever happens. */
async function withTable(body: (fixture: Fixture) => Promise<void>, options: { maxInstances?: number; budgetBytes?: number } = {}): Promise<void> {
  const pool = await WorkerPool.start(1, TUNING, false);
  try {
    const module = await compileHookModule(await compileWatSource(VAR_READER, 'var-reader.wat'), 'var-reader', 'var-reader.wat', {
      memoryMb: 1,
      plainExports: ['read_k'],
    });
    const budget = new MemoryBudget(options.budgetBytes ?? 64 * MIB);
    let nextId = 1;
    const init: InstanceTableInit = {
      module,
      instanceOptions: { config: {}, memoryMb: 1, memoryMaxPages: module.prepared.memory?.max, maxOutputBytes: 4096, plainExports: ['read_k'] },
      loadTimeoutMs: 10_000,
      maxInstances: options.maxInstances ?? 8,
      pool,
      nextInstanceId: () => nextId++,
      budget,
      capBytes: MIB,
    };
    const made: string[] = [];
    const evicted: { session: string; reason: string }[] = [];
    const table = new InstanceTable(init, {
      log: (session, lines) => {
        for (const line of lines) if (line.message === 'instantiated') made.push(session);
      },
      evicted: (session, reason) => evicted.push({ session, reason }),
    });
    try {
      await body({ table, budget, made, evicted });
    } finally {
      table.clear();
    }
  } finally {
    await pool.close();
  }
}

/** The session's instance's answer to `read_k` (its Var "k"), once it is ready. */
async function readK(table: InstanceTable, session: string): Promise<string> {
  const record = table.for(session);
  expect(await record.ready).toBeUndefined();
  const result = await record.handle.call(record.id, READ_K, new Uint8Array(), 10_000);
  if ('refused' in result || 'timedOut' in result) throw new Error(`read_k did not run: ${JSON.stringify(result)}`);
  expect(result.fault).toBeUndefined();
  return result.output === null ? '' : new TextDecoder().decode(result.output);
}

describe('instance table', () => {
  it('hands the load-time instance to the first session, makes a new one for the next, and reuses each', async () => {
    await withTable(async ({ table, budget, made }) => {
      expect(await table.probe()).toBeUndefined();
      expect(made).toEqual(['']);
      const first = table.for('s1');
      expect(first.session).toBe('s1');
      expect(await first.ready).toBeUndefined();
      expect(made).toEqual(['']); // the load-time instance, not a new one
      const second = table.for('s2');
      expect(await second.ready).toBeUndefined();
      expect(second.id).not.toBe(first.id);
      expect(made).toEqual(['', 's2']);
      expect(table.for('s1')).toBe(first);
      expect(table.for('s2')).toBe(second);
      expect(first.handle.instanceCount).toBe(2);
      expect(budget.instances).toBe(2);
      table.clear();
      expect(first.dropped && second.dropped).toBe(true);
      expect(first.handle.instanceCount).toBe(0);
      expect(budget.instances).toBe(0);
    });
  });

  it('drops the least recently used session past maxInstances; a lookup counts as a use', async () => {
    await withTable(
      async ({ table, made }) => {
        const a = table.for('a');
        expect(await a.ready).toBeUndefined();
        const b = table.for('b');
        expect(await b.ready).toBeUndefined();
        table.for('a'); // b is now the least recently used
        const c = table.for('c');
        expect(await c.ready).toBeUndefined();
        expect(b.dropped).toBe(true);
        expect(a.dropped || c.dropped).toBe(false);
        const again = table.for('b');
        expect(again).not.toBe(b);
        expect(await again.ready).toBeUndefined();
        expect(made).toEqual(['a', 'b', 'c', 'b']);
        expect(a.dropped).toBe(true); // b's return pushed out the next least recently used
      },
      { maxInstances: 2 },
    );
  });

  it('lets the memory budget evict an idle instance to fit a new one, and reports it for that session', async () => {
    await withTable(
      async ({ table, budget, evicted }) => {
        const a = table.for('a');
        expect(await a.ready).toBeUndefined();
        const b = table.for('b');
        expect(await b.ready).toBeUndefined();
        expect(budget.usedBytes).toBe(2 * MIB);
        const c = table.for('c');
        expect(await c.ready).toBeUndefined();
        expect(a.dropped).toBe(true);
        expect(b.dropped).toBe(false);
        expect(evicted.map((e) => e.session)).toEqual(['a']);
        expect(budget.evictions).toBe(1);
        expect(table.for('a')).not.toBe(a);
      },
      { budgetBytes: 2.5 * MIB },
    );
  });

  it("gives a session's Vars to its next instance only when the loss was not its own doing", async () => {
    await withTable(async ({ table }) => {
      expect(await readK(table, 's')).toBe('');
      table.applyVars('s', [['k', base64('kept')]]);
      // Lost with its worker under another call: the next instance starts with the Vars.
      table.forget('s', table.for('s'), true, true);
      expect(await readK(table, 's')).toBe('kept');
      // Its own loss (a timeout, an eviction, a reload): the session starts fresh.
      table.forget('s', table.for('s'));
      expect(await readK(table, 's')).toBe('');
      table.applyVars('s', [['k', base64('again')]]);
      table.clear();
      expect(await readK(table, 's')).toBe('');
    });
  });
});
