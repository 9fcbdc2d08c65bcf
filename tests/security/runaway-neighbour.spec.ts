/**
 * A runaway costs only its own hook. A project hook granted nothing spins to
 * its deadline; its worker is terminated, and every other instance on that
 * worker goes with it. The organisation's test-gate (the real example hook)
 * kept its record "the tests failed" in Extism Var state, so it lost it and
 * let the turn end with failing tests: 0 forced continuations instead of 3.
 * Across sessions the same happened to a neighbour session's hooks. The
 * runner has one worker here, so every instance shares it (the worst
 * placement); var-counter (WAT corpus) shows another session's state.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHookFile, loadLayeredConfig, specForEntry } from '../../host/config/index.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import { HookRunner, type WasmHook } from '../../host/runner/index.ts';
import { type PayloadOf, type SeamId, type SessionInfo, seamDefinition } from '../../host/seams/index.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { SESSION, callSeam, loadCorpus } from './harness.ts';

let runner: HookRunner;

beforeAll(async () => {
  runner = await HookRunner.start({ workers: 1 });
});
afterAll(async () => {
  await runner.close();
});

async function call<S extends SeamId>(hook: WasmHook, seam: S, payload: PayloadOf<S>, session: SessionInfo): Promise<unknown> {
  const definition = seamDefinition(seam);
  const next = definition.kind === 'notify' ? null : definition.defaultDecision(payload);
  const applied = await invokeListener(hook, seam, payload, next, session);
  expect(applied.invocation.fault, `${hook.name} ${seam}`).toBeUndefined();
  return applied.decision;
}

const FAILED_TESTS: PayloadOf<'tools/post-execute'> = {
  toolCallId: 'c1',
  toolName: 'bash',
  arguments: { command: 'npm test' },
  result: { content: 'FAIL tests/app.spec.ts\nexit code 1', isError: true },
};

/** How many times test-gate forces the turn on (it stops at its default cap, 3). */
async function forcedContinuations(gate: WasmHook, session: SessionInfo): Promise<number> {
  let forced = 0;
  for (let continuations = 0; continuations < 5; continuations++) {
    const decision = (await call(gate, 'agent/turn-continuation', { continuations, lastAssistantText: 'done' }, session)) as { action: string } | null;
    if (decision?.action !== 'continue') break;
    forced++;
  }
  return forced;
}

describe("a runaway on a shared worker keeps other hooks' Var state", { timeout: 120_000 }, () => {
  it('the organisation test-gate still forces 3 continuations after a project hook spins to its deadline in the same session', async () => {
    const gate = await runner.load(loadHookFile(exampleManifest('test-gate'), { name: 'org-test-gate' }));
    const runaway = await loadCorpus(runner, 'infinite-loop', { name: 'project-runaway', limits: { timeoutMs: 300 } });
    const counter = await loadCorpus(runner, 'var-counter');
    try {
      const session = { ...SESSION, id: 'session-with-runaway' };
      const neighbour = { ...SESSION, id: 'neighbour-session' };
      await call(gate, 'tools/post-execute', FAILED_TESTS, session);
      await call(gate, 'tools/post-execute', FAILED_TESTS, neighbour);
      expect((await callSeam(counter, 'tools/pre-execute', neighbour)).decision).toEqual({ action: 'deny', reason: 'count=1' });
      expect((await callSeam(counter, 'tools/pre-execute', neighbour)).decision).toEqual({ action: 'deny', reason: 'count=2' });

      const started = runner.workersStarted;
      const spun = await callSeam(runaway, 'tools/pre-execute', session);
      expect(spun.fault?.kind).toBe('timeout');
      // The worker every instance was on was really terminated and replaced.
      await expect.poll(() => runner.workersStarted, { timeout: 30_000, message: 'a replacement worker' }).toBeGreaterThan(started);

      expect(await forcedContinuations(gate, session)).toBe(3);
      expect(await forcedContinuations(gate, neighbour)).toBe(3);
      expect((await callSeam(counter, 'tools/pre-execute', neighbour)).decision).toEqual({ action: 'deny', reason: 'count=3' });
    } finally {
      await Promise.all([gate.close(), runaway.close(), counter.close()]);
    }
  });

  it('a reload still starts every session fresh: the kept Vars go with the instances', async () => {
    const counter = await loadCorpus(runner, 'var-counter', { name: 'own-counter' });
    try {
      const session = { ...SESSION, id: 'own-fault' };
      expect((await callSeam(counter, 'tools/pre-execute', session)).decision).toEqual({ action: 'deny', reason: 'count=1' });
      await counter.reload();
      expect((await callSeam(counter, 'tools/pre-execute', session)).decision).toEqual({ action: 'deny', reason: 'count=1' });
    } finally {
      await counter.close();
    }
  });

  it("the organisation layer's hooks run on workers of their own: a project hook's runaway does not hold up their calls", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hookbox-org-lane-'));
    try {
      const org = path.join(dir, 'org.json');
      const project = path.join(dir, 'hookbox.config.json');
      await writeFile(org, JSON.stringify({ hooks: [{ name: 'org-test-gate', manifest: exampleManifest('test-gate') }] }));
      await writeFile(project, JSON.stringify({ hooks: [{ name: 'project-guard', manifest: exampleManifest('guard-bash') }] }));
      const config = loadLayeredConfig({ project, env: { HOOKBOX_ORG_CONFIG: org, XDG_CONFIG_HOME: path.join(dir, 'xdg') } });
      const [orgEntry, projectEntry] = config.hooks;
      if (orgEntry === undefined || projectEntry === undefined) throw new Error('two hooks expected');
      expect(specForEntry(org, orgEntry).lane).toBe('organisation');
      expect(specForEntry(project, projectEntry).lane).toBeUndefined();

      const gate = await runner.load(specForEntry(org, orgEntry));
      const runaway = await loadCorpus(runner, 'infinite-loop', { name: 'project-runaway', limits: { timeoutMs: 5_000 } });
      try {
        const session = { ...SESSION, id: 'org-lane' };
        await call(gate, 'tools/post-execute', FAILED_TESTS, session);
        let runawaySettled = false;
        const spinning = callSeam(runaway, 'tools/pre-execute', session).then((result) => {
          runawaySettled = true;
          return result;
        });
        // Queued behind the runaway on a shared worker, this call would settle only after its deadline.
        expect(await forcedContinuations(gate, session)).toBe(3);
        expect(runawaySettled, 'the org hook answered while the project hook still spun').toBe(false);
        expect((await spinning).fault?.kind).toBe('timeout');
        expect(await forcedContinuations(gate, session)).toBe(3);
      } finally {
        await Promise.all([gate.close(), runaway.close()]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
