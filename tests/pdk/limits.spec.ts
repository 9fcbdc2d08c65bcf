// The engine's own limits, seen through the host's runner: a deterministic
// instruction budget (timeout), the JS heap limit (memory), the QuickJS stack
// limit, and JS exceptions as plugin errors carrying the JS message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, type HookLogEntry, type WasmHook, type WasmHookSpec } from '../../host/runner/index.ts';
import type { BuildHookResult } from '../../pdk/compiler/index.ts';
import { ALL_SEAMS_ENTRY, SESSION, bash, buildInto, tempDir } from './support.ts';

let built: BuildHookResult;
let runner: HookRunner;
let cleanup: () => Promise<void>;
const logs: HookLogEntry[] = [];
const hooks: WasmHook[] = [];

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  built = await buildInto(tmp.dir, ALL_SEAMS_ENTRY, 'limits');
  runner = await HookRunner.start({ workers: 1, onLog: (entry) => logs.push(entry) });
});

afterAll(async () => {
  for (const hook of hooks) await hook.close();
  await runner?.close();
  await cleanup?.();
});

async function load(name: string, extra: Partial<WasmHookSpec> = {}): Promise<WasmHook> {
  const hook = await runner.load({ name, wasm: built.wasmPath, sha256: built.sha256, quarantineAfter: 1000, ...extra });
  hooks.push(hook);
  return hook;
}

const call = (hook: WasmHook, command: string, session = SESSION) =>
  hook.invoke({ seam: 'tools/pre-execute', payload: bash(command), next: { action: 'allow' }, session });

/** The instruction count the engine logged for the last call of `hook` (config `hookbox.logTicks`). */
function lastTicks(hookName: string): number {
  const line = logs.filter((l) => l.hook === hookName && l.message.startsWith('hookbox-ticks: ')).at(-1);
  if (line === undefined) throw new Error(`no tick count logged by ${hookName}`);
  return Number(line.message.slice('hookbox-ticks: '.length));
}

describe('instruction budget', () => {
  it('turns an endless loop into a timeout fault, and the hook keeps working', async () => {
    const hook = await load('budget', { limits: { instructionBudget: 2_000_000, timeoutMs: 5000 } });
    const outcome = await call(hook, 'forever');
    expect(outcome.type).toBe('fault');
    if (outcome.type !== 'fault') return;
    expect(outcome.fault.kind).toBe('timeout');
    expect(outcome.fault.message).toContain('instruction budget exhausted (budget 2000000 ticks)');
    expect(await call(hook, 'ls')).toEqual({ type: 'decision', decision: { action: 'allow' } });
  });

  it('is deterministic: the same call spends the same count, and exactly that budget suffices', async () => {
    const counting = await load('ticks', { config: { 'hookbox.logTicks': '1' }, limits: { timeoutMs: 5000 } });
    await call(counting, 'spin:20000', { ...SESSION, id: 'a' });
    const first = lastTicks('ticks');
    await call(counting, 'spin:20000', { ...SESSION, id: 'b' });
    const second = lastTicks('ticks');
    await call(counting, 'spin:20000', { ...SESSION, id: 'b' });
    const third = lastTicks('ticks');
    expect(first).toBeGreaterThan(20_000);
    expect([second, third]).toEqual([first, first]);

    const exact = await load('exact', { limits: { instructionBudget: first, timeoutMs: 5000 } });
    expect((await call(exact, 'spin:20000')).type).toBe('decision');
    const short = await load('short', { limits: { instructionBudget: first - 1, timeoutMs: 5000 } });
    const outcome = await call(short, 'spin:20000');
    expect(outcome.type === 'fault' && outcome.fault.kind).toBe('timeout');
  });
});

describe('memory', () => {
  it('a runaway allocation is a memory fault, and the hook recovers', async () => {
    const hook = await load('memory', { limits: { timeoutMs: 10_000 } });
    const outcome = await call(hook, 'alloc');
    expect(outcome.type).toBe('fault');
    if (outcome.type !== 'fault') return;
    expect(outcome.fault.kind).toBe('memory');
    expect(outcome.fault.message).toContain('JS heap limit reached');
    expect(await call(hook, 'ls')).toEqual({ type: 'decision', decision: { action: 'allow' } });
  });

  it('honours a smaller JS heap limit from config', async () => {
    const hook = await load('small-heap', { config: { 'hookbox.memoryLimitBytes': String(8 << 20) }, limits: { timeoutMs: 10_000 } });
    const outcome = await call(hook, 'alloc');
    expect(outcome.type === 'fault' && outcome.fault.message).toContain('limit 8388608 bytes');
  });

  it('the runner keeps the JS heap under a smaller memory cap, so running out is a memory fault', async () => {
    const hook = await load('small-cap', { limits: { memoryMb: 16, timeoutMs: 10_000 } });
    const outcome = await call(hook, 'alloc');
    expect(outcome.type === 'fault' && outcome.fault.kind).toBe('memory');
    expect(outcome.type === 'fault' && outcome.fault.message).toContain(`limit ${12 * 1024 * 1024} bytes`);
  });
});

describe('errors', () => {
  it("a thrown JS error is a plugin-error carrying the JS message and a stack mapped to the author's source line", async () => {
    const hook = await load('throws');
    const outcome = await call(hook, 'throw:kaboom');
    expect(outcome.type).toBe('fault');
    if (outcome.type !== 'fault') return;
    expect(outcome.fault.kind).toBe('plugin-error');
    expect(outcome.fault.message).toContain('Error: hook says kaboom');
    // fixtures/all-seams/hook.ts line 50 is the `throw`: the bundle's source map was applied.
    expect(outcome.fault.message).toMatch(/at preTool \(hook\.ts:50:\d+\)/);
  });

  it('deep recursion hits the QuickJS stack limit (a plugin error), not the host stack', async () => {
    const hook = await load('recursion');
    for (let i = 0; i < 3; i++) {
      const outcome = await call(hook, 'recurse');
      expect(outcome.type === 'fault' && outcome.fault.kind).toBe('plugin-error');
      expect(outcome.type === 'fault' && outcome.fault.message).toContain('InternalError: stack overflow');
    }
    expect(await call(hook, 'ls')).toEqual({ type: 'decision', decision: { action: 'allow' } });
  });
});
