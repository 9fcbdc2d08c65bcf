/**
 * What the catalog's decision tables cannot say (`hookbox test` runs every
 * case in turn 1 of one session): turn-budget's count across turns and
 * sessions and its reading of a hostile Var record, and the host patterns
 * network-egress and package-installs match hosts with. Pure functions, the
 * same code the module runs.
 */
import { describe, expect, it } from 'vitest';
import { compileHostPattern, hostOf } from '../../examples-hooks/policies/shared/hosts.ts';
import { countCall, countContinuation, readState } from '../../examples-hooks/policies/turn-budget/rules.ts';

describe('turn-budget', () => {
  const config = { toolCallsPerTurn: 2, action: 'deny' as const };

  it('counts calls per turn: a new turn starts again, the session keeps its continuations', () => {
    let state = readState(undefined, 's', 1);
    for (const expected of ['allow', 'allow', 'deny']) {
      const next = countCall(state, config);
      expect(next.verdict.action).toBe(expected);
      state = next.state;
    }
    state = countContinuation(state, 1);
    const turn2 = readState(JSON.stringify(state), 's', 2);
    expect(turn2).toEqual({ session: 's', turn: 2, calls: 0, continuations: 1 });
    expect(countCall(turn2, config).verdict.action).toBe('allow');
  });

  it("counts none of another session's record, nor of a hostile one", () => {
    const other = JSON.stringify({ session: 'x', turn: 1, calls: 99, continuations: 99 });
    expect(readState(other, 's', 1)).toEqual({ session: 's', turn: 1, calls: 0, continuations: 0 });
    for (const raw of ['not json', 'null', '[]', JSON.stringify({ session: 's', turn: 1, calls: -5, continuations: 'many' })]) {
      expect(readState(raw, 's', 1)).toEqual({ session: 's', turn: 1, calls: 0, continuations: 0 });
    }
  });

  it('a continuation is counted only after one happened', () => {
    const state = readState(undefined, 's', 1);
    expect(countContinuation(state, 0).continuations).toBe(0);
    expect(countCall(countContinuation(countContinuation(state, 1), 2), { continuationsPerSession: 1, action: 'ask' }).verdict).toMatchObject({ action: 'ask', reason: expect.stringMatching(/^turn-budget: continuations: /) });
  });
});

describe('host patterns', () => {
  it('a host is that host; *.host its subdomains only', () => {
    expect(compileHostPattern('github.com').test('github.com')).toBe(true);
    expect(compileHostPattern('github.com').test('evilgithub.com')).toBe(false);
    expect(compileHostPattern('github.com').test('api.github.com')).toBe(false);
    expect(compileHostPattern('*.github.com').test('api.github.com')).toBe(true);
    expect(compileHostPattern('*.github.com').test('github.com')).toBe(false);
    expect(compileHostPattern('*.github.com').test('evil-github.com')).toBe(false);
  });

  it('reads the host of a URL past its user, port and case; names none for a file URL or a word', () => {
    expect(hostOf('https://user:pw@GitHub.com.:8443/x?y')).toBe('github.com');
    expect(hostOf('git@gitlab.com:o/r.git')).toBe('gitlab.com');
    expect(hostOf('evil.ngrok.io/payload')).toBe('evil.ngrok.io');
    expect(hostOf('https://github.com@evil.example/x')).toBe('evil.example');
    expect(hostOf('file:///etc/passwd')).toBeUndefined();
    expect(hostOf('out.json')).toBe('out.json');
    expect(hostOf('README')).toBeUndefined();
  });
});
