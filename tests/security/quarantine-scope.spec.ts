// Finding 7c: quarantine is per (hook, session). One session that makes a hook
// fault `quarantineAfter` times in a row (a model steering that session's
// inputs, say) must not change any other session's decisions; a load-level
// failure still disables the hook for every session.
import { afterEach, describe, expect, it } from 'vitest';
import { invokeListener } from '../../host/events/invoke.ts';
import { HookRunner, type WasmHook } from '../../host/runner/index.ts';
import type { PayloadOf, SessionInfo } from '../../host/seams/index.ts';
import { ALLOW_ANSWER_DATA, ALLOW_ANSWER_LENGTH, outputFromOffsetZero } from '../helpers/wat-answer.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { extismModule } from '../helpers/wat-module.ts';

/** Answers pre_tool `allow`, but traps when the envelope is longer than 300 bytes (a long command). */
const INPUT_TRAP = extismModule(`${ALLOW_ANSWER_DATA}
  (func (export "pre_tool") (result i32)
    (local $block i64) (local $i i32)
    (if (i64.gt_u (call $input_length) (i64.const 300)) (then unreachable))
    ${outputFromOffsetZero(ALLOW_ANSWER_LENGTH)})`, { memory: '1 16' });

const session = (id: string): SessionInfo => ({ id, turn: 1, step: 1, cwd: '/workspace' });
const bash = (command: string): PayloadOf<'tools/pre-execute'> => ({ toolCallId: 'c1', toolName: 'bash', arguments: { command } });

async function preTool(hook: WasmHook, id: string, command: string) {
  const applied = await invokeListener(hook, 'tools/pre-execute', bash(command), { action: 'allow' }, session(id));
  return { decision: applied.decision, fault: applied.invocation.fault };
}

// Started in the test, not a `beforeAll`, so mutation testing credits its code to the test (docs/testing.md).
let runner: HookRunner | undefined;
afterEach(async () => {
  await runner?.close();
  runner = undefined;
});

describe('quarantine scope', () => {
  it('session A faulting the hook 3 times quarantines it for A only; session B still gets real decisions', async () => {
    runner = await HookRunner.start({ workers: 1, spareWorker: false });
    const hook = await runner.load({ name: 'input-trap', wasm: await compileWatSource(INPUT_TRAP), quarantineAfter: 3 });
    try {
      const poison = `echo ${'x'.repeat(400)}`;
      for (let i = 0; i < 3; i++) expect((await preTool(hook, 'session-a', poison)).fault?.kind).toBe('trap');
      // B is not quarantined: the hook still runs for it and decides.
      expect(await preTool(hook, 'session-b', 'ls')).toEqual({ decision: { action: 'allow' }, fault: undefined });
      expect(hook.isQuarantined('session-a')).toBe(true);
      // A is quarantined: even a harmless call from A faults at once, without running the hook.
      const inA = await preTool(hook, 'session-a', 'ls');
      expect(inA.fault?.message).toMatch(/^quarantined for this session after 3 consecutive faults/);
      expect(inA.decision).toMatchObject({ action: 'deny' });
      expect(hook.isQuarantined('session-b')).toBe(false);
      expect(hook.quarantined).toBe(false);
      // B's own faults count for B alone, from zero.
      expect((await preTool(hook, 'session-b', poison)).fault?.kind).toBe('trap');
      expect(await preTool(hook, 'session-b', 'ls')).toEqual({ decision: { action: 'allow' }, fault: undefined });
      await hook.reload();
      expect(hook.isQuarantined('session-a')).toBe(false);
      expect(await preTool(hook, 'session-a', 'ls')).toEqual({ decision: { action: 'allow' }, fault: undefined });
    } finally {
      await hook.close();
    }
  });
});
