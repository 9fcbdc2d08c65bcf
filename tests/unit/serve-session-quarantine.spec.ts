/**
 * `quarantinePerSession`: a served hook that keeps faulting in one agent
 * session is switched off for that session only, after `after` consecutive
 * faults; a good answer, or forgetting the session, starts its count again.
 * The wrapped listener is a scripted one that answers from a queue and
 * counts its calls.
 */
import { describe, expect, it } from 'vitest';
import type { ListenerOutcome, SeamCall, SeamListener } from '../../host/events/index.ts';
import type { SeamId } from '../../host/seams/index.ts';
import { quarantinePerSession } from '../../host/serve/index.ts';

type Outcome = ListenerOutcome<unknown>;
const fault = (message: string, kind: 'trap' | 'timeout' = 'trap'): Outcome => ({ type: 'fault', fault: { kind, message } });
const allow: Outcome = { type: 'decision', decision: { action: 'allow' } };

/** A listener answering each call from `script` in turn, recording the session of each call it really ran. */
function scripted(script: Outcome[], extra: Partial<SeamListener> = {}): SeamListener & { ran: string[] } {
  const ran: string[] = [];
  return {
    name: 'flaky',
    seams: ['tools/pre-execute'],
    ...extra,
    ran,
    invoke: <S extends SeamId>(call: SeamCall<S>) => {
      ran.push(call.session.id);
      return Promise.resolve(script.shift() as ListenerOutcome<never>);
    },
  };
}
const call = (session: string): SeamCall<'tools/pre-execute'> => ({
  seam: 'tools/pre-execute',
  payload: { toolCallId: 't', toolName: 'bash', arguments: {} },
  next: { action: 'allow' },
  session: { id: session, turn: 1, step: 1, cwd: '/w' },
});
const quarantined = (count: number, last: string, kind = 'trap') => ({
  type: 'fault',
  fault: { kind, message: `quarantined in this session after ${count} consecutive faults (last: ${last})` },
});

describe('quarantinePerSession', () => {
  it('keeps the listener as it is described: name, seams and each optional field only when set', () => {
    const described = (listener: SeamListener) => Object.fromEntries(Object.entries(listener).filter(([, value]) => typeof value !== 'function'));
    const full = scripted([], { digest: 'sha256:ab', tools: ['bash'], failPolicy: 'closed', sandbox: 'wasm' });
    expect(described(quarantinePerSession(full, 3))).toStrictEqual({
      name: 'flaky',
      digest: 'sha256:ab',
      seams: ['tools/pre-execute'],
      tools: ['bash'],
      failPolicy: 'closed',
      sandbox: 'wasm',
    });
    expect(described(quarantinePerSession(scripted([]), 3))).toStrictEqual({ name: 'flaky', seams: ['tools/pre-execute'] });
  });

  it('after `after` consecutive faults in a session, its calls fault at once with the last fault kind; other sessions still run', async () => {
    const listener = scripted([fault('boom 1'), fault('boom 2', 'timeout'), allow]);
    const guarded = quarantinePerSession(listener, 2);
    const outcomes = [await guarded.invoke(call('a')), await guarded.invoke(call('a')), await guarded.invoke(call('a')), await guarded.invoke(call('b'))];
    expect(outcomes).toStrictEqual([fault('boom 1'), fault('boom 2', 'timeout'), quarantined(2, 'boom 2', 'timeout'), allow]);
    expect(listener.ran).toStrictEqual(['a', 'a', 'b']);
  });

  it('counts every consecutive fault, and names the count', async () => {
    const listener = scripted([fault('one'), fault('two'), fault('three')]);
    const guarded = quarantinePerSession(listener, 3);
    for (let i = 0; i < 3; i += 1) await guarded.invoke(call('a'));
    expect(await guarded.invoke(call('a'))).toStrictEqual(quarantined(3, 'three'));
    expect(listener.ran).toStrictEqual(['a', 'a', 'a']);
  });

  it('a good answer between faults starts the count again', async () => {
    const listener = scripted([fault('one'), allow, fault('two'), { type: 'no-opinion' }, fault('three'), fault('four')]);
    const guarded = quarantinePerSession(listener, 2);
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 7; i += 1) outcomes.push(await guarded.invoke(call('a')));
    expect(outcomes).toStrictEqual([fault('one'), allow, fault('two'), { type: 'no-opinion' }, fault('three'), fault('four'), quarantined(2, 'four')]);
    expect(listener.ran).toHaveLength(6);
  });

  it('forget drops a closed session count: its next call runs the hook again', async () => {
    const listener = scripted([fault('one'), allow]);
    const guarded = quarantinePerSession(listener, 1);
    await guarded.invoke(call('a'));
    expect(await guarded.invoke(call('a'))).toStrictEqual(quarantined(1, 'one'));
    guarded.forget('b');
    expect(await guarded.invoke(call('a'))).toStrictEqual(quarantined(1, 'one'));
    guarded.forget('a');
    expect(await guarded.invoke(call('a'))).toStrictEqual(allow);
    expect(listener.ran).toStrictEqual(['a', 'a']);
  });
});
