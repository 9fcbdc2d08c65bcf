import { describe, expect, it } from 'vitest';
import { HEADER_BYTES, RespStatus, Slot, channelBuffer } from '../../host/runner/channel.ts';
import { ReplyWait, SPILLED } from '../../host/runner/reply-wait.ts';

// The main thread's wait for a reply (host/runner/reply-wait.ts) on a real channel buffer. The
// test plays the worker's side of the channel: it writes a reply into the slots and the data
// region as the worker does (host/runner/worker.ts, writeReply), then bumps `respSeq`. The spin
// through a real worker thread is covered by runner-worker-handle.spec.ts and its back-off by
// runner-worker-backoff.spec.ts.

interface Channel {
  readonly ctrl: Int32Array;
  readonly data: Uint8Array;
}

function channel(): Channel {
  const sab = channelBuffer(1024, 1024);
  return { ctrl: new Int32Array(sab, 0, HEADER_BYTES / 4), data: new Uint8Array(sab, HEADER_BYTES) };
}

/** Writes a reply the way the worker does and publishes it under `seq`. */
function answer(
  { ctrl, data }: Channel,
  seq: number,
  reply: { output?: Uint8Array; extras?: object; serveUs?: number; pages?: number; spilled?: boolean },
): void {
  if (reply.spilled === true) {
    ctrl[Slot.respStatus] = RespStatus.spilled;
  } else {
    const extras = reply.extras === undefined ? undefined : new TextEncoder().encode(JSON.stringify(reply.extras));
    const outLen = reply.output?.byteLength ?? 0;
    if (reply.output !== undefined) data.set(reply.output, 0);
    if (extras !== undefined) data.set(extras, outLen);
    ctrl[Slot.respStatus] = RespStatus.output;
    ctrl[Slot.respOutLen] = reply.output === undefined ? -1 : outLen;
    ctrl[Slot.respExtraLen] = extras?.byteLength ?? 0;
    ctrl[Slot.respMemPages] = reply.pages ?? -1;
  }
  ctrl[Slot.respServeUs] = reply.serveUs ?? 1;
  Atomics.store(ctrl, Slot.respSeq, seq);
  Atomics.notify(ctrl, Slot.respSeq);
}

const notGone = (): undefined => undefined;

describe('reply wait', () => {
  it('a reply already there when the spin starts is returned as it is, not as a promise', () => {
    const ch = channel();
    const wait = new ReplyWait(ch.ctrl, ch.data, 1_000, notGone);
    answer(ch, 1, { output: Uint8Array.of(1, 2, 3), pages: 2 });
    const reply = wait.reply(1, 7, false);
    expect(reply).not.toBeInstanceOf(Promise);
    expect(reply).toEqual({ output: Uint8Array.of(1, 2, 3), logs: [], memoryBytes: 2 * 65_536 });
  });

  it('without a spin budget it sleeps until the other side publishes the reply', async () => {
    const ch = channel();
    const wait = new ReplyWait(ch.ctrl, ch.data, 0, notGone);
    const pending = wait.reply(1, 7, false);
    expect(pending).toBeInstanceOf(Promise);
    setTimeout(() => answer(ch, 1, { output: Uint8Array.of(9) }), 5);
    await expect(pending).resolves.toEqual({ output: Uint8Array.of(9), logs: [] });
  });

  it('while the main thread is busy the spin waits for an idle event loop first', async () => {
    const ch = channel();
    const wait = new ReplyWait(ch.ctrl, ch.data, 1_000, notGone);
    answer(ch, 1, { output: Uint8Array.of(4) });
    const pending = wait.reply(1, 7, true);
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).resolves.toEqual({ output: Uint8Array.of(4), logs: [] });
  });

  it('reads the extras after the output: fault, exit, discard, logs, vars; no output reads as null', () => {
    const ch = channel();
    const wait = new ReplyWait(ch.ctrl, ch.data, 1_000, notGone);
    const fault = { kind: 'trap', message: 'unreachable' };
    const logs = [{ level: 'info', message: 'hi' }];
    answer(ch, 1, { output: Uint8Array.of(5, 6), extras: { fault, exit: { code: 1 }, discard: true, logs, vars: [] } });
    expect(wait.reply(1, 7, false)).toEqual({ output: Uint8Array.of(5, 6), fault, exit: { code: 1 }, discard: true, logs, vars: [] });
    answer(ch, 2, { extras: { logs } });
    expect(wait.reply(2, 7, false)).toEqual({ output: null, logs });
  });

  it('a spilled reply is named as such (it follows by postMessage)', () => {
    const ch = channel();
    const wait = new ReplyWait(ch.ctrl, ch.data, 1_000, notGone);
    answer(ch, 1, { spilled: true });
    expect(wait.reply(1, 7, false)).toBe(SPILLED);
  });

  it('an instance whose last call took longer than the spin is not spun for; forgetting it spins again', async () => {
    const ch = channel();
    const wait = new ReplyWait(ch.ctrl, ch.data, 100, notGone);
    answer(ch, 1, { output: Uint8Array.of(1), serveUs: 10_000 });
    expect(wait.reply(1, 7, false)).not.toBeInstanceOf(Promise);
    // Instance 7 served in 10 ms against a 100 µs spin: the next wait sleeps even with the reply there.
    answer(ch, 2, { output: Uint8Array.of(2) });
    const slept = wait.reply(2, 7, false);
    expect(slept).toBeInstanceOf(Promise);
    await expect(slept).resolves.toEqual({ output: Uint8Array.of(2), logs: [] });
    // Another instance on the same channel is spun for.
    answer(ch, 3, { output: Uint8Array.of(3) });
    expect(wait.reply(3, 8, false)).not.toBeInstanceOf(Promise);
    wait.forget(7);
    answer(ch, 4, { output: Uint8Array.of(4) });
    expect(wait.reply(4, 7, false)).not.toBeInstanceOf(Promise);
  });

  it('a sleeping wait settles with the gone error once the worker is gone', async () => {
    const ch = channel();
    const worker: { gone?: Error } = {};
    const wait = new ReplyWait(ch.ctrl, ch.data, 0, () => worker.gone);
    const pending = wait.reply(1, 7, false);
    const gone = (worker.gone = new Error('the worker exited'));
    // What the handle does when its worker dies: wake its own wait.
    Atomics.notify(ch.ctrl, Slot.respSeq);
    await expect(pending).rejects.toBe(gone);
  });
});
