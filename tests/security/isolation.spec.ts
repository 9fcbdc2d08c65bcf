import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookLoadError } from '../../host/errors.ts';
import { compileWat, writeCorpusWasm } from '../helpers/wat.ts';
import { type Fixture, SESSION, callSeam, healthyDecision, loadCorpus, openFixture } from './harness.ts';

let fx: Fixture;
let dir: string;
beforeAll(async () => {
  fx = await openFixture();
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-isolation-'));
});
afterAll(async () => {
  await fx?.runner.close();
  await rm(dir, { recursive: true, force: true });
});

describe('state isolation', () => {
  it('var-counter: two sessions sharing a hook never see each other\'s Var state', async () => {
    const hook = await loadCorpus(fx.runner, 'var-counter');
    try {
      const a = { ...SESSION, id: 'session-a' };
      const b = { ...SESSION, id: 'session-b' };
      expect((await callSeam(hook, 'tools/pre-execute', a)).decision).toEqual({ action: 'deny', reason: 'count=1' });
      expect((await callSeam(hook, 'tools/pre-execute', a)).decision).toEqual({ action: 'deny', reason: 'count=2' });
      expect((await callSeam(hook, 'tools/pre-execute', b)).decision).toEqual({ action: 'deny', reason: 'count=1' });
      // Concurrent calls on one session are serialized, never re-entrant.
      const both = await Promise.all([callSeam(hook, 'tools/pre-execute', a), callSeam(hook, 'tools/pre-execute', a)]);
      expect(both.map((r) => (r.decision as { reason: string }).reason).sort()).toEqual(['count=3', 'count=4']);
    } finally {
      await hook.close();
    }
  });
});

describe('quarantine', () => {
  it('flaky: faults that alternate never reach N in a row, so it is not quarantined', async () => {
    const hook = await loadCorpus(fx.runner, 'flaky', { quarantineAfter: 2 });
    try {
      const kinds: (string | undefined)[] = [];
      for (let i = 0; i < 6; i++) kinds.push((await callSeam(hook, 'tools/pre-execute')).fault?.kind);
      expect(kinds).toEqual(['trap', undefined, 'trap', undefined, 'trap', undefined]);
      expect(hook.isQuarantined(SESSION.id)).toBe(false);
    } finally {
      await hook.close();
    }
  });

  it('trap: N consecutive faults quarantine the hook until reload', async () => {
    const hook = await loadCorpus(fx.runner, 'trap', { quarantineAfter: 3 });
    try {
      for (let i = 0; i < 3; i++) expect((await callSeam(hook, 'tools/pre-execute')).fault?.kind).toBe('trap');
      expect(hook.isQuarantined(SESSION.id)).toBe(true);
      const quarantined = await callSeam(hook, 'tools/pre-execute');
      expect(quarantined.fault).toEqual({ kind: 'trap', message: expect.stringContaining('quarantined for this session after 3 consecutive faults') });
      expect(quarantined.decision).toMatchObject({ action: 'deny' });
      await hook.reload();
      expect(hook.isQuarantined(SESSION.id)).toBe(false);
      const again = await callSeam(hook, 'tools/pre-execute');
      expect(again.fault).toEqual({ kind: 'trap', message: 'unreachable' });
    } finally {
      await hook.close();
    }
  });

  it('infinite-loop: a quarantined runaway hook answers at once instead of paying the timeout again', async () => {
    const hook = await loadCorpus(fx.runner, 'infinite-loop', { quarantineAfter: 1, limits: { timeoutMs: 4000 } });
    try {
      expect((await callSeam(hook, 'tools/pre-execute')).fault?.kind).toBe('timeout');
      const started = performance.now();
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault?.message).toContain('quarantined');
      // Not called: under the 4 s it would take to time out again (a 100 ms
      // margin here failed on a loaded machine, so the deadline is long).
      expect(performance.now() - started).toBeLessThan(4000);
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });
});

describe('supply chain', () => {
  it('a sha256 mismatch refuses to load, naming the file and both digests', async () => {
    const file = await writeCorpusWasm('allow', dir);
    const wrong = '0'.repeat(64);
    const load = fx.runner.load({ name: 'allow', wasm: file, sha256: wrong });
    await expect(load).rejects.toBeInstanceOf(HookLoadError);
    await expect(load).rejects.toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: sha256 mismatch: the manifest pins ${wrong}, the file has [0-9a-f]{64}`));
  });
});

describe('capabilities (wasi-attempts)', () => {
  it("deny by default: no env, no filesystem, no clock; stdio goes to the hook's log sink", async () => {
    const hook = await loadCorpus(fx.runner, 'wasi-attempts');
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      // random is not a capability; stdout/stderr writes "succeed" into the hook's capped log lines.
      expect(result.decision).toEqual({ action: 'deny', reason: 'wasi leaked: stdout,stderr,random' });
    } finally {
      await hook.close();
    }
  });

  it('env-dump: the plugin reads exactly the granted variables, never the rest of the host environment', async () => {
    process.env.HOOKBOX_SECURITY_GRANTED = 'yes';
    process.env.HOOKBOX_SECURITY_SECRET = 'hunter2';
    const granted = await loadCorpus(fx.runner, 'env-dump', { capabilities: { env: ['HOOKBOX_SECURITY_GRANTED', 'HOOKBOX_SECURITY_UNSET'] } });
    const none = await loadCorpus(fx.runner, 'env-dump');
    try {
      // What the guest read, verbatim: the one granted variable that is set.
      expect((await callSeam(granted, 'tools/pre-execute')).decision).toEqual({
        action: 'deny',
        reason: 'HOOKBOX_SECURITY_GRANTED=yes',
      });
      expect((await callSeam(none, 'tools/pre-execute')).decision).toEqual({ action: 'allow' });
    } finally {
      await granted.close();
      await none.close();
      delete process.env.HOOKBOX_SECURITY_GRANTED;
      delete process.env.HOOKBOX_SECURITY_SECRET;
    }
  });

  it('granted env, filesystem and clock reach the plugin, and only those', async () => {
    const granted = path.join(dir, 'granted');
    await writeFile(path.join(dir, 'marker'), 'x');
    await import('node:fs/promises').then((fs) => fs.mkdir(granted, { recursive: true }));
    process.env.HOOKBOX_SECURITY_GRANTED = 'yes';
    process.env.HOOKBOX_SECURITY_SECRET = 'no';
    const hook = await fx.runner.load({
      name: 'wasi-attempts',
      wasm: await compileWat('wasi-attempts'),
      capabilities: { env: ['HOOKBOX_SECURITY_GRANTED'], clock: true, allowedPaths: { [granted]: '/data' } },
    });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.decision).toEqual({ action: 'deny', reason: 'wasi leaked: env,fs,stdout,stderr,clock,random' });
    } finally {
      await hook.close();
      delete process.env.HOOKBOX_SECURITY_GRANTED;
      delete process.env.HOOKBOX_SECURITY_SECRET;
    }
  });
});
