/**
 * Resolving a pre-tool `ask` (host/loop/permission.ts): each way it ends, as
 * the exact resolution the log and the model read, what the prompter is given,
 * and that no timer outlives the answer (a 60 s timer left behind would keep
 * `hookbox run` alive after its last turn).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PermissionPrompter, type PermissionRequest, resolveAsk } from '../../host/loop/permission.ts';

const request: PermissionRequest = {
  toolCall: { id: 'c1', name: 'bash', arguments: { command: 'git push' } },
  asks: [{ hook: 'guard', reason: 'push?' }],
  reason: 'push?',
};
const { reason: _, ...unreasoned } = request;

afterEach(() => {
  vi.useRealTimers();
});

describe('resolveAsk', () => {
  it('without a prompter denies at once, naming why', async () => {
    expect(await resolveAsk(undefined, request, 1000)).toStrictEqual({ action: 'deny', reason: 'push? (ask degraded to deny: no permission prompter attached)' });
    expect(await resolveAsk(undefined, unreasoned, 1000)).toStrictEqual({
      action: 'deny',
      reason: 'a hook asked for permission (ask degraded to deny: no permission prompter attached)',
    });
  });

  it('passes the request and a live signal to the prompter, and words each answer', async () => {
    const seen: [PermissionRequest, boolean][] = [];
    const answering = (answer: 'allow' | 'deny'): PermissionPrompter => ({
      ask: async (asked, signal) => (seen.push([asked, signal.aborted]), answer),
    });
    expect(await resolveAsk(answering('allow'), request, 1000)).toStrictEqual({ action: 'allow', reason: 'push? (allowed by the user)' });
    expect(await resolveAsk(answering('deny'), unreasoned, 1000)).toStrictEqual({ action: 'deny', reason: 'a hook asked for permission (denied by the user)' });
    expect(seen).toStrictEqual([
      [request, false],
      [unreasoned, false],
    ]);
  });

  it('a prompter that throws is a deny naming its message', async () => {
    const broken: PermissionPrompter = { ask: async () => Promise.reject(new Error('no tty')) };
    expect(await resolveAsk(broken, request, 1000)).toStrictEqual({ action: 'deny', reason: 'push? (ask degraded to deny: prompter failed: no tty)' });
  });

  it('no answer within the timeout is a deny, and the prompter’s signal is aborted so it can take its question back', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const never: PermissionPrompter = { ask: (_asked, given) => ((signal = given), new Promise(() => {})) };
    const resolution = resolveAsk(never, request, 60_000);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await resolution).toStrictEqual({ action: 'deny', reason: 'push? (ask degraded to deny: no answer within 60000 ms)' });
    expect(signal?.aborted).toBe(true);
  });

  it('leaves no timer behind once answered, or once the prompter fails', async () => {
    vi.useFakeTimers();
    await resolveAsk({ ask: async () => 'allow' }, request, 60_000);
    expect(vi.getTimerCount()).toBe(0);
    await resolveAsk({ ask: async () => Promise.reject(new Error('x')) }, request, 60_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
