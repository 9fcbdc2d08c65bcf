import { unpack } from 'msgpackr';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SeamBus, nativeHook } from '../../host/events/index.ts';
import type { SeamId } from '../../host/seams/index.ts';
import { type Fixture, callSeam, healthyDecision, loadCorpus, openFixture } from './harness.ts';

// Plugins that answer, but wrongly: every one must become the seam's fault
// decision (pre-tool: deny) with the right fault kind, and the host goes on.
//
// The shared runner opens before the first test, in a `beforeEach`, not a
// `beforeAll`: mutation testing credits the code a test (or its `beforeEach`)
// runs to that test, while code a `beforeAll` runs is "static" and makes
// Stryker rerun every suite for each of its mutants (docs/testing.md).
let opening: Promise<Fixture> | undefined;
let fx: Fixture;
beforeEach(async () => {
  fx = await (opening ??= openFixture());
});
afterAll(async () => {
  await (await opening)?.runner.close();
});

describe('plugins that answer badly', () => {
  it.each([
    ['garbage-output', 'decode'],
    ['deep-nesting', 'decode'],
    ['wrong-shape', 'schema'],
    ['unknown-action', 'schema'],
    ['missing-reason', 'schema'],
    ['oversized-output', 'output-too-large'],
    ['error-set', 'plugin-error'],
    ['nonzero-return', 'plugin-error'],
    ['trap', 'trap'],
    ['out-of-bounds', 'trap'],
    ['recursion', 'trap'],
  ] as const)('%s: pre-tool gets deny, fault %s', async (name, kind) => {
    // None of these is a timeout: a deadline no loaded machine reaches keeps it that way.
    const hook = await loadCorpus(fx.runner, name, { limits: { timeoutMs: 20_000 } });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault?.kind).toBe(kind);
      expect(result.decision).toEqual({ action: 'deny', reason: expect.stringContaining(`(${kind})`) });
      // The hook is still callable and fails the same way (no wedged instance, no thrown error).
      expect((await callSeam(hook, 'tools/pre-execute')).fault?.kind).toBe(kind);
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });

  it('fault messages name what was wrong', async () => {
    const hooks = await Promise.all(['missing-reason', 'error-set', 'nonzero-return'].map((n) => loadCorpus(fx.runner, n)));
    try {
      const [missingReason, errorSet, nonzero] = await Promise.all(hooks.map((h) => callSeam(h, 'tools/pre-execute')));
      expect(missingReason?.fault?.message).toContain('decision.reason');
      expect(errorSet?.fault?.message).toContain('corpus: refused');
      expect(nonzero?.fault?.message).toContain('returned 1');
    } finally {
      await Promise.all(hooks.map((h) => h.close()));
    }
  });

  it('input-rewrite: rewriting the call into `rm -rf /` is no fault, and a gate listed before it is asked again on it and denies', async () => {
    const hook = await loadCorpus(fx.runner, 'input-rewrite');
    try {
      const alone = await callSeam(hook, 'tools/pre-execute');
      expect(alone.fault).toBeUndefined();
      expect(alone.decision).toEqual({ action: 'allow', arguments: { command: 'rm -rf /' } });
      // The gate allowed the model's call; the hostile hook after it rewrote it: the gate, asked again, has the last word.
      const bus = new SeamBus();
      bus.use(nativeHook({ name: 'gate', handlers: { 'tools/pre-execute': (payload) => (String(payload.arguments.command).includes('rm -rf') ? { action: 'deny', reason: 'destructive' } : { action: 'allow' }) } }));
      bus.use(hook);
      const result = await bus.dispatch('tools/pre-execute', { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }, { id: 'sec', turn: 1, step: 1, cwd: '/tmp' });
      expect(result.decision).toEqual({ action: 'deny', reason: 'destructive' });
      expect(result.invocations.map((invocation) => invocation.hook)).toEqual(['gate', 'input-rewrite', 'gate']);
    } finally {
      await hook.close();
    }
  });

  it('wrong-shape is a schema fault on every seam, and nil is not "no opinion"', async () => {
    const hook = await loadCorpus(fx.runner, 'wrong-shape');
    try {
      const expected: Record<SeamId, unknown> = {
        'agent/session-start': null, // notify: a fault is logged and ignored
        'agent/prompt-submit': { action: 'block', reason: expect.stringContaining('(schema)') },
        'tools/pre-execute': { action: 'deny', reason: expect.stringContaining('(schema)') },
        'tools/post-execute': { action: 'block', reason: expect.stringContaining('(schema)') },
        'agent/turn-continuation': null, // open by default: the loop's default stands
        'tools/permission-request': { action: 'deny', reason: expect.stringContaining('(schema)') }, // a gate fails closed
        'agent/subagent-start': null,
        'agent/subagent-stop': null, // a broken hook never forces a subagent on
        'agent/notification': null,
        'agent/pre-compact': null, // a broken hook never blocks a compaction (the agent could not go on)
        'agent/session-end': null,
      };
      for (const seam of Object.keys(expected) as SeamId[]) {
        const result = await callSeam(hook, seam);
        expect(result.fault?.kind, seam).toBe('schema');
        expect(result.decision, seam).toEqual(expected[seam]);
      }
    } finally {
      await hook.close();
    }
  });

  it('kernel misuse on every seam is a fault, never a decision, and the host survives', async () => {
    const hook = await loadCorpus(fx.runner, 'kernel-misuse');
    try {
      const seams = ['agent/session-start', 'agent/prompt-submit', 'tools/pre-execute', 'tools/post-execute', 'agent/turn-continuation'] as const;
      expect([...hook.exports].sort()).toEqual([...seams].sort());
      for (const seam of seams) {
        const result = await callSeam(hook, seam);
        expect(result.invocation.outcome, seam).toBe('fault');
        expect(['trap', 'memory'], seam).toContain(result.fault?.kind);
      }
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });

  it('proc-exit cannot end the host: the call is a plugin-error with the exit code and the gate denies', async () => {
    const hook = await loadCorpus(fx.runner, 'proc-exit');
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault).toEqual({ kind: 'plugin-error', message: 'the hook called proc_exit(0)' });
      expect(result.decision).toMatchObject({ action: 'deny' });
      expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
  });
});

describe('healthy plugins', () => {
  it('no-opinion: empty output passes next through on every seam', async () => {
    const hook = await loadCorpus(fx.runner, 'no-opinion');
    try {
      // Pinned, so an empty export list cannot make the loop below check nothing.
      expect([...hook.exports].sort()).toEqual([
        'agent/prompt-submit',
        'agent/session-start',
        'agent/turn-continuation',
        'tools/post-execute',
        'tools/pre-execute',
      ]);
      for (const seam of hook.exports) {
        const result = await callSeam(hook, seam);
        expect(result.invocation.outcome, seam).toBe('no-opinion');
        expect(result.decision, seam).toBeNull();
      }
    } finally {
      await hook.close();
    }
  });

  it('deny: a restrictive decision is taken as is', async () => {
    const hook = await loadCorpus(fx.runner, 'deny');
    try {
      expect((await callSeam(hook, 'tools/pre-execute')).decision).toEqual({ action: 'deny', reason: 'corpus deny' });
    } finally {
      await hook.close();
    }
  });

  it('echo-next: the plugin receives the msgpack envelope {v, seam, session, payload, next}', async () => {
    const hook = await loadCorpus(fx.runner, 'echo-next');
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      const hex = (result.decision as { reason: string }).reason;
      expect(unpack(Buffer.from(hex, 'hex'))).toEqual({
        v: 1,
        seam: 'tools/pre-execute',
        session: { id: 'security-session', turn: 1, step: 1, cwd: '/workspace' },
        payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls -la' } },
        next: { action: 'allow' },
      });
    } finally {
      await hook.close();
    }
  });

  it('missing-export: a hook exporting only post_tool handles only post-tool', async () => {
    const hook = await loadCorpus(fx.runner, 'missing-export');
    try {
      expect(hook.exports).toEqual(['tools/post-execute']);
      expect(hook.seams).toEqual(['tools/post-execute']);
      expect((await callSeam(hook, 'tools/post-execute')).decision).toEqual({ action: 'accept' });
      const direct = await callSeam(hook, 'tools/pre-execute');
      expect(direct.fault?.kind).toBe('missing-export');
      expect(direct.decision).toMatchObject({ action: 'deny' });
    } finally {
      await hook.close();
    }
    await expect(loadCorpus(fx.runner, 'missing-export', { seams: ['tools/pre-execute'] })).rejects.toThrow(
      /configured for tools\/pre-execute but the module does not export "pre_tool" \(it exports: post_tool\)/,
    );
  });
});
