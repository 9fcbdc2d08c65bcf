/**
 * Session preparation and warm-up (host/runner/warm-up.ts): a session's
 * instance can be made before its first call, and synthetic warm-up calls
 * run on a throwaway instance that no session ever sees.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SeamBus } from '../../host/events/index.ts';
import { HookRunner, type HookLogEntry } from '../../host/runner/index.ts';
import { WARM_UP_PAYLOADS } from '../../host/runner/warm-up.ts';
import { SEAM_IDS, type SessionInfo, seamDefinition } from '../../host/seams/index.ts';
import { compileWat, compileWatSource } from '../helpers/wat.ts';
import { callSeam } from '../security/harness.ts';
import { extismModule } from '../helpers/wat-module.ts';

const session = (id: string): SessionInfo => ({ id, turn: 1, step: 1, cwd: '/workspace' });

/** Logs "instantiated" from its start function: every new instance says so, with the session it was made for. */
const LOGS_AT_START = extismModule(`(data (i32.const 0) "instantiated")
  (func $init (local $b i64) (local $i i32)
    (local.set $b (call $alloc (i64.const 12)))
    (block $end (loop $copy
      (br_if $end (i32.ge_u (local.get $i) (i32.const 12)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (call $log_info (local.get $b)))
  (start $init)
  (func (export "pre_tool") (result i32) (i32.const 0))`, { memory: '1 2' });

let runner: HookRunner | undefined;
afterEach(async () => {
  await runner?.close();
  runner = undefined;
});

describe('warm-up payloads', () => {
  it.each(SEAM_IDS)('%s: the synthetic payload is valid for the seam', (seam) => {
    expect(seamDefinition(seam).payload.safeParse(WARM_UP_PAYLOADS[seam]).success).toBe(true);
  });
});

describe('session preparation', () => {
  it('bus.sessionStarted creates the session instance before its first call', async () => {
    const logs: HookLogEntry[] = [];
    runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
    const hook = await runner.load({ name: 'logs-at-start', wasm: await compileWatSource(LOGS_AT_START, 'logs-at-start.wat') });
    const bus = new SeamBus();
    bus.use(hook);
    // The first session takes the instance made at load; the second needs a new one.
    bus.sessionStarted(session('s1'));
    bus.sessionStarted(session('s2'));
    await expect.poll(() => logs.filter((entry) => entry.message === 'instantiated').map((entry) => entry.session)).toEqual(['', 's2']);
    // The calls use the prepared instances: no further instantiation.
    await bus.dispatch('tools/pre-execute', WARM_UP_PAYLOADS['tools/pre-execute'], session('s1'));
    await bus.dispatch('tools/pre-execute', WARM_UP_PAYLOADS['tools/pre-execute'], session('s2'));
    expect(logs.filter((entry) => entry.message === 'instantiated')).toHaveLength(2);
  });
});

describe('load-time instances', () => {
  it('the first session uses every hook\'s load-time instance, on two workers too: no instantiation at its start', async () => {
    const logs: HookLogEntry[] = [];
    runner = await HookRunner.start({ workers: 2, spareWorker: false, onLog: (entry) => logs.push(entry) });
    const wasm = await compileWatSource(LOGS_AT_START, 'logs-at-start.wat');
    const bus = new SeamBus();
    for (const name of ['first', 'second', 'third', 'fourth']) bus.use(await runner.load({ name, wasm }));
    bus.sessionStarted(session('s1'));
    for (let call = 0; call < 2; call++) {
      const { decision } = await bus.dispatch('tools/pre-execute', WARM_UP_PAYLOADS['tools/pre-execute'], session('s1'));
      expect(decision).toEqual({ action: 'allow' });
    }
    // Four instances, all made at load (session ''); the session's calls made none.
    expect(logs.filter((entry) => entry.message === 'instantiated').map((entry) => `${entry.hook}:${entry.session}`)).toEqual([
      'first:',
      'second:',
      'third:',
      'fourth:',
    ]);
  });
});

describe('warm-up', () => {
  it('never touches a session instance: Var state starts fresh after warm-up calls', async () => {
    runner = await HookRunner.start({ workers: 2, warmUp: true });
    const hook = await runner.load({ name: 'var-counter', wasm: await compileWat('var-counter') });
    await runner.warmedUp();
    expect((await callSeam(hook, 'tools/pre-execute', session('a'))).decision).toEqual({ action: 'deny', reason: 'count=1' });
    expect((await callSeam(hook, 'tools/pre-execute', session('a'))).decision).toEqual({ action: 'deny', reason: 'count=2' });
    expect((await callSeam(hook, 'tools/pre-execute', session('b'))).decision).toEqual({ action: 'deny', reason: 'count=1' });
  });

  it('faults of warm-up calls never count towards quarantine', async () => {
    runner = await HookRunner.start({ workers: 2, warmUp: true });
    const hook = await runner.load({ name: 'trap', wasm: await compileWat('trap'), quarantineAfter: 2 });
    await runner.warmedUp();
    expect(hook.quarantined).toBe(false);
    const first = await callSeam(hook, 'tools/pre-execute', session('a'));
    expect(first.fault?.kind).toBe('trap');
    expect(first.fault?.message).not.toMatch(/quarantined/);
  });
});
