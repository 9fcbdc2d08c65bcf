/**
 * Quarantine bookkeeping (quarantine.ts) on its own: a streak per session,
 * `load` faults counted for the whole hook, the exact fault a quarantined
 * call answers with, and the bound on remembered sessions.
 * `tests/security/quarantine-scope.spec.ts` checks the same through a runner.
 */
import { describe, expect, it } from 'vitest';
import { Quarantine } from '../../host/runner/quarantine.ts';
import { hookFault } from '../../host/seams/index.ts';

const trap = hookFault('trap', 'unreachable executed');
const load = hookFault('load', 'the module could not be instantiated');

describe('Quarantine per session', () => {
  it('quarantines a session after exactly `after` consecutive faults, answering with the last fault kind and message', () => {
    const q = new Quarantine(3);
    q.record('s1', trap);
    q.record('s1', hookFault('timeout', 'no answer within 50 ms'));
    expect(q.quarantined('s1')).toBe(false);
    expect(q.faultFor('s1')).toBeUndefined();
    q.record('s1', hookFault('plugin-error', 'boom'));
    expect(q.quarantined('s1')).toBe(true);
    expect(q.hookWide).toBe(false);
    expect(q.faultFor('s1')).toEqual({
      kind: 'plugin-error',
      message: 'quarantined for this session after 3 consecutive faults (last: boom); reload the hook to retry',
    });
    // The count keeps going up while faults continue.
    q.record('s1', trap);
    expect(q.faultFor('s1')?.message).toBe('quarantined for this session after 4 consecutive faults (last: unreachable executed); reload the hook to retry');
  });

  it('a success ends the streak; other sessions are untouched', () => {
    const q = new Quarantine(2);
    q.record('s1', trap);
    q.record('s2', trap);
    q.record('s2', trap);
    q.record('s1', undefined);
    q.record('s1', trap);
    expect(q.quarantined('s1')).toBe(false);
    expect(q.quarantined('s2')).toBe(true);
    expect(q.quarantined('s3')).toBe(false);
    expect(q.faultFor('s3')).toBeUndefined();
  });

  it('remembers the 4,096 most recently faulting sessions; the least recently faulting is forgotten first', () => {
    const q = new Quarantine(1);
    q.record('first', trap);
    q.record('second', trap);
    // Faulting again makes `first` the most recent.
    q.record('first', trap);
    for (let i = 0; i < 4095; i++) q.record(`filler-${i}`, trap);
    expect(q.quarantined('second')).toBe(false);
    expect(q.quarantined('first')).toBe(true);
    expect(q.quarantined('filler-0')).toBe(true);
    expect(q.faultFor('first')?.message).toMatch(/^quarantined for this session after 2 consecutive faults/);
  });
});

describe('Quarantine for the whole hook', () => {
  it('counts load faults across sessions and quarantines every session after `after` in a row', () => {
    const q = new Quarantine(2);
    q.record('s1', load);
    expect(q.hookWide).toBe(false);
    expect(q.quarantined('s1')).toBe(false);
    q.record('s2', load);
    expect(q.hookWide).toBe(true);
    expect(q.quarantined('never-seen')).toBe(true);
    expect(q.faultFor('never-seen')).toEqual({
      kind: 'load',
      message: 'quarantined for every session after 2 consecutive faults (last: the module could not be instantiated); reload the hook to retry',
    });
  });

  it('a load fault is not a session fault, and a session fault is not a load fault', () => {
    const q = new Quarantine(2);
    q.record('s1', load);
    q.record('s1', trap);
    expect(q.quarantined('s1')).toBe(false);
    q.record('s1', trap);
    expect(q.quarantined('s1')).toBe(true);
    expect(q.hookWide).toBe(false);
    // The hook-wide streak (1) is still there: one more load fault makes it 2.
    q.record('s9', load);
    expect(q.hookWide).toBe(true);
    // While hook-wide, the hook-wide fault is the answer, even for a session with its own streak.
    expect(q.faultFor('s1')?.kind).toBe('load');
  });

  it('any success ends the hook-wide streak; clear() forgets everything', () => {
    const q = new Quarantine(2);
    q.record('s1', load);
    q.record('s2', undefined);
    q.record('s1', load);
    expect(q.hookWide).toBe(false);
    q.record('s1', load);
    q.record('s3', trap);
    q.record('s3', trap);
    expect(q.hookWide).toBe(true);
    q.clear();
    expect(q.hookWide).toBe(false);
    expect(q.quarantined('s3')).toBe(false);
    expect(q.faultFor('s3')).toBeUndefined();
  });
});
