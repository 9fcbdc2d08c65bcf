// A hook built from TypeScript source, called through the host's runner on every seam.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, type HookLogEntry, type WasmHook } from '../../host/runner/index.ts';
import { SEAM_IDS } from '../../host/seams/index.ts';
import type { BuildHookResult } from '../../pdk/compiler/index.ts';
import { SEAM_EXPORTS } from '../../pdk/generated/seam-names.ts';
import { ALL_SEAMS_ENTRY, SESSION, bash, buildInto, tempDir } from './support.ts';

let built: BuildHookResult;
let runner: HookRunner;
let hook: WasmHook;
let cleanup: () => Promise<void>;
const logs: HookLogEntry[] = [];

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  built = await buildInto(tmp.dir, ALL_SEAMS_ENTRY, 'all-seams');
  runner = await HookRunner.start({ workers: 1, onLog: (entry) => logs.push(entry) });
  hook = await runner.load({
    name: 'all-seams',
    wasm: built.wasmPath,
    sha256: built.sha256,
    config: { teamRules: 'tabs, not spaces', greeting: 'hi' },
    quarantineAfter: 1000,
  });
});

afterAll(async () => {
  await hook?.close();
  await runner?.close();
  await cleanup?.();
});

const preTool = (command: string, next: { action: 'allow' } | { action: 'ask' } = { action: 'allow' }) =>
  hook.invoke({ seam: 'tools/pre-execute', payload: bash(command), next, session: SESSION });

describe('a TypeScript hook on every seam', () => {
  it('exports exactly the handlers it defines, one per seam', () => {
    // The fixture defines the seed's five handlers; the lifecycle seams' handlers are covered by cli-call-lifecycle.spec.ts.
    const defined = new Set(['agent/session-start', 'agent/prompt-submit', 'tools/pre-execute', 'tools/post-execute', 'agent/turn-continuation']);
    const seams = SEAM_IDS.filter((seam) => defined.has(seam));
    expect(built.exports).toEqual(SEAM_EXPORTS.filter((_, index) => defined.has(SEAM_IDS[index]!)));
    expect(built.seams).toEqual(seams);
    expect(hook.exports).toEqual(seams);
  });

  it('session-start: adds context from config, no opinion on resume', async () => {
    const startup = await hook.invoke({ seam: 'agent/session-start', payload: { source: 'startup' }, next: null, session: SESSION });
    expect(startup).toEqual({ type: 'decision', decision: { additionalContext: 'rules: tabs, not spaces' } });
    const resume = await hook.invoke({ seam: 'agent/session-start', payload: { source: 'resume' }, next: null, session: SESSION });
    expect(resume).toEqual({ type: 'no-opinion' });
  });

  it('prompt-submit: blocks and rewrites', async () => {
    const next = { action: 'allow' } as const;
    const blocked = await hook.invoke({ seam: 'agent/prompt-submit', payload: { content: 'key AKIA123', source: 'cli' }, next, session: SESSION });
    expect(blocked).toEqual({ type: 'decision', decision: { action: 'block', reason: 'prompt contains an AWS key id' } });
    const allowed = await hook.invoke({ seam: 'agent/prompt-submit', payload: { content: '  hi  ', source: 'cli' }, next, session: SESSION });
    expect(allowed).toEqual({ type: 'decision', decision: { action: 'allow', content: 'hi', additionalContext: 'ctx' } });
  });

  it('pre-tool: deny, ask, allow, no opinion, and sees the decision so far', async () => {
    expect(await preTool('deny:rm -rf /')).toEqual({ type: 'decision', decision: { action: 'deny', reason: 'rm -rf /' } });
    expect(await preTool('ask')).toEqual({ type: 'decision', decision: { action: 'ask' } });
    expect(await preTool('ls')).toEqual({ type: 'decision', decision: { action: 'allow' } });
    expect(await preTool('none')).toEqual({ type: 'no-opinion' });
    expect(await preTool('next', { action: 'ask' })).toEqual({ type: 'decision', decision: { action: 'deny', reason: 'was ask' } });
    expect(await preTool('next')).toEqual({ type: 'decision', decision: { action: 'allow', reason: 'next was allow' } });
  });

  it('post-tool: accept with rewritten content, block on error results', async () => {
    const payload = { ...bash('ls'), result: { content: 'a.txt', isError: false } };
    const accepted = await hook.invoke({ seam: 'tools/post-execute', payload, next: { action: 'accept' }, session: SESSION });
    expect(accepted).toEqual({ type: 'decision', decision: { action: 'accept', content: 'A.TXT' } });
    const failed = { ...payload, result: { content: 'boom', isError: true } };
    expect(await hook.invoke({ seam: 'tools/post-execute', payload: failed, next: { action: 'accept' }, session: SESSION })).toEqual({
      type: 'decision',
      decision: { action: 'block', reason: 'tool failed' },
    });
  });

  it('turn-continuation: continue then stop', async () => {
    const call = (continuations: number) =>
      hook.invoke({ seam: 'agent/turn-continuation', payload: { continuations }, next: { action: 'stop' }, session: SESSION });
    expect(await call(0)).toEqual({ type: 'decision', decision: { action: 'continue', reason: 'go on (0)' } });
    expect(await call(2)).toEqual({ type: 'decision', decision: { action: 'stop' } });
  });

  it('keeps Var state per session, reads config, logs through Extism', async () => {
    expect(await preTool('count')).toEqual({ type: 'decision', decision: { action: 'allow', reason: '1' } });
    expect(await preTool('count')).toEqual({ type: 'decision', decision: { action: 'allow', reason: '2' } });
    const other = await hook.invoke({ seam: 'tools/pre-execute', payload: bash('count'), next: { action: 'allow' }, session: { ...SESSION, id: 'other' } });
    expect(other).toEqual({ type: 'decision', decision: { action: 'allow', reason: '1' } });

    expect(await preTool('config:greeting')).toEqual({ type: 'decision', decision: { action: 'allow', reason: 'hi' } });
    expect(await preTool('config:nope')).toEqual({ type: 'decision', decision: { action: 'allow', reason: '(unset)' } });
    expect(await preTool('text:héllo ✓')).toEqual({ type: 'decision', decision: { action: 'allow', reason: 'héllo ✓' } });

    await preTool('log:marker');
    const mine = logs.filter((l) => l.message.includes('marker')).map((l) => [l.level, l.message]);
    expect(mine).toEqual([
      ['info', 'info marker'],
      ['warn', 'warn marker'],
    ]);
  });

  it('reseeds Math.random per instance (two sessions do not replay one sequence)', async () => {
    const first = await hook.invoke({ seam: 'tools/pre-execute', payload: bash('random'), next: { action: 'allow' }, session: { ...SESSION, id: 'r1' } });
    const second = await hook.invoke({ seam: 'tools/pre-execute', payload: bash('random'), next: { action: 'allow' }, session: { ...SESSION, id: 'r2' } });
    // Both outcomes are checked: a fault on either side must not pass as "different".
    const number = expect.stringMatching(/^0\.\d+(e-\d+)?$|^0$/);
    expect(first).toEqual({ type: 'decision', decision: { action: 'allow', reason: number } });
    expect(second).toEqual({ type: 'decision', decision: { action: 'allow', reason: number } });
    const reason = (r: typeof first) => (r.type === 'decision' ? (r.decision as { reason: string }).reason : '');
    expect(reason(first)).not.toBe(reason(second));
  });
});
