import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookLoadError } from '../../host/errors.ts';
import { type Fixture, SESSION, callSeam, healthyDecision, loadCorpus, openFixture, ticking } from './harness.ts';

// Plugins that do not come back, or try to take the host's memory or logs.
// Each: the seam's decision, the fault kind, the event loop keeps ticking
// during the call, and the healthy hook still answers afterwards.
let fx: Fixture;
beforeAll(async () => {
  fx = await openFixture();
});
afterAll(async () => {
  await fx?.runner.close();
});

describe('runaway plugins', () => {
  it('infinite-loop: timeout at the deadline, worker replaced, pre-tool asks', async () => {
    // A deadline long enough that the healthy call on a warm worker answers first even on a loaded machine.
    const hook = await loadCorpus(fx.runner, 'infinite-loop', { limits: { timeoutMs: 1000 } });
    try {
      const before = fx.runner.workersStarted;
      // Placement, so that the two sessions are on different workers: every hook's load-time instance
      // waits on one worker for the first session that calls it. This session takes the healthy hook's
      // (and, below, the runaway's) there; the other session then gets a new instance on the worker with
      // fewer instances. (Had the other session taken the leftover load-time instance, it would share the
      // runaway's worker and wait for the deadline.)
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
      const other = { ...SESSION, id: 'another-session' };
      const settled: string[] = [];
      const { value: result, ticks, elapsedMs } = await ticking(async () => {
        const runaway = callSeam(hook, 'tools/pre-execute').finally(() => settled.push('runaway'));
        // Another session's hook, on another worker (a session's instances share one worker, so the
        // runaway's own session waits behind it), answers while the runaway spins.
        const healthy = await callSeam(fx.healthy, 'tools/pre-execute', other);
        settled.push('healthy');
        expect(healthy.decision).toEqual({ action: 'allow' });
        return runaway;
      });
      expect(settled).toEqual(['healthy', 'runaway']);
      expect(result.fault?.kind).toBe('timeout');
      // pre-tool's policy: a timeout asks the person (the loop degrades ask to deny without a prompter).
      expect(result.decision).toEqual({ action: 'ask', reason: expect.stringContaining('(timeout)') });
      expect(elapsedMs).toBeGreaterThanOrEqual(999);
      // Not hung: the deadline is enforced, well before the test's own timeout even under load.
      expect(elapsedMs).toBeLessThan(30_000);
      expect(ticks).toBeGreaterThan(5);
      expect(fx.runner.workersStarted).toBeGreaterThan(before);
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
      // The hook itself runs again on a fresh worker (and times out again).
      expect((await callSeam(hook, 'tools/pre-execute')).fault?.kind).toBe('timeout');
    } finally {
      await hook.close();
    }
  });

  it('memory-bomb: the 4 GiB maximum is rewritten to the cap, the bomb stops there as a memory fault', async () => {
    const hook = await loadCorpus(fx.runner, 'memory-bomb', { limits: { memoryMb: 16, timeoutMs: 5000 } });
    try {
      const { value: result, ticks } = await ticking(() => callSeam(hook, 'tools/pre-execute'));
      expect(result.fault?.kind).toBe('memory');
      expect(result.decision).toMatchObject({ action: 'deny' });
      expect(ticks).toBeGreaterThan(0);
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });

  it('memory-bomb-capped: a module below the cap that fills its own maximum is a memory fault, not a trap', async () => {
    const hook = await loadCorpus(fx.runner, 'memory-bomb-capped');
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault?.kind).toBe('memory');
      expect(result.decision).toMatchObject({ action: 'deny' });
    } finally {
      await hook.close();
    }
  });

  it('alloc-bomb: host-side allocation past the cap is refused and reported as memory', async () => {
    const hook = await loadCorpus(fx.runner, 'alloc-bomb', { limits: { memoryMb: 16 } });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault?.kind).toBe('memory');
      expect(result.decision).toMatchObject({ action: 'deny' });
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });

  it('var-flood: Var memory is bounded; the call is a memory fault', async () => {
    const hook = await loadCorpus(fx.runner, 'var-flood', { limits: { timeoutMs: 5000 } });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault?.kind).toBe('memory');
      expect(result.fault?.message).toContain('var memory limit exceeded');
      expect(result.decision).toMatchObject({ action: 'deny' });
    } finally {
      await hook.close();
    }
  });

  it('log-flood: logs are capped per call and the decision stands; the wrapping flood is a fault', async () => {
    const hook = await loadCorpus(fx.runner, 'log-flood', { limits: { timeoutMs: 10_000 } });
    try {
      fx.logs.length = 0;
      const { value: result, ticks } = await ticking(() => callSeam(hook, 'tools/pre-execute'));
      expect(result.decision).toEqual({ action: 'allow' });
      const lines = fx.logs.filter((entry) => entry.hook === 'log-flood');
      expect(lines.length).toBeLessThanOrEqual(65);
      expect(lines.at(-1)?.message).toMatch(/^\d+ log lines dropped/);
      expect(lines[0]).toMatchObject({ level: 'info', message: 'corpus log flood', session: 'security-session' });
      expect(ticks).toBeGreaterThan(0);
      const post = await callSeam(hook, 'tools/post-execute');
      expect(post.invocation.outcome).toBe('fault');
      expect(post.decision).toMatchObject({ action: 'block' });
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });
});

describe('plugins refused at load', () => {
  it('start-never-returns: load fails at the deadline without hanging the host', async () => {
    const { value: error, ticks, elapsedMs } = await ticking(() =>
      loadCorpus(fx.runner, 'start-never-returns', { limits: { timeoutMs: 100 } }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(error).toBeInstanceOf(HookLoadError);
    expect((error as Error).message).toMatch(/start-never-returns\.wasm: instantiation did not finish within \d+ ms/);
    // Not hung: ended by its deadline, well before the test's own timeout even under load.
    expect(elapsedMs).toBeLessThan(30_000);
    expect(ticks).toBeGreaterThan(5);
    expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
  });

  it('unknown-import: refused, naming the missing import', async () => {
    await expect(loadCorpus(fx.runner, 'unknown-import')).rejects.toThrow(/unknown-import\.wasm: .*"extism:host\/env" "does_not_exist"/);
  });

  it('imported-memory: refused, since an imported memory cannot be capped', async () => {
    await expect(loadCorpus(fx.runner, 'imported-memory')).rejects.toThrow(/imported-memory\.wasm: imports its memory \("env" "memory"\)/);
  });

  it('no-memory-max: loads with the cap as its maximum and runs normally', async () => {
    const hook = await loadCorpus(fx.runner, 'no-memory-max', { limits: { memoryMb: 8 } });
    try {
      expect((await callSeam(hook, 'tools/pre-execute')).decision).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });
});
