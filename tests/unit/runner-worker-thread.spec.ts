import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_NAMES } from '../../host/runner/channel.ts';
import { type CallResult, WorkerGoneError, WorkerHandle, type WorkerTuning } from '../../host/runner/worker-handle.ts';
import { GREETING, HOST_THROW_MESSAGE, REFUSAL, type WorkerGuest, unlinkableGuest, workerGuest } from '../helpers/worker-guest.ts';

// The worker side (host/runner/worker.ts), seen from the main thread: what a
// worker does with create, dispose and call, which reply path it takes (the
// shared channel, or postMessage when the reply does not fit), and how its
// death reaches the handle. This code runs only in the worker thread, so every
// test drives a real one through a WorkerHandle.

const SESSION_START = EXPORT_NAMES.indexOf('session_start');
const PRE_TOOL = EXPORT_NAMES.indexOf('pre_tool');
const POST_TOOL = EXPORT_NAMES.indexOf('post_tool');
const PROMPT_SUBMIT = EXPORT_NAMES.indexOf('prompt_submit');
const TURN_CONTINUATION = EXPORT_NAMES.indexOf('turn_continuation');
const ECHO_PLUS = EXPORT_NAMES.length;
const HOST_EXIT = EXPORT_NAMES.length + 2;
const HOST_THROW = EXPORT_NAMES.length + 3;

const MAX_DATA = 4096;
const LONG_SPIN_US = 5_000_000;

function tuning(overrides: Partial<WorkerTuning> = {}): WorkerTuning {
  return { dataBytes: 1024, maxDataBytes: MAX_DATA, mainSpinUs: 0, workerSpinUs: 0, workerQueuedSpinUs: 0, ...overrides };
}

async function withHandle(t: WorkerTuning, body: (handle: WorkerHandle, guest: WorkerGuest) => Promise<void>, guest?: WorkerGuest): Promise<void> {
  const handle = new WorkerHandle(t);
  try {
    await body(handle, guest ?? (await workerGuest()));
  } finally {
    await handle.terminate();
  }
}

async function created(handle: WorkerHandle, guest: WorkerGuest, id = 1): Promise<void> {
  expect(await handle.create(id, 'guest', guest.modules, guest.options, 10_000)).toEqual({ logs: [], memoryBytes: 65_536 });
}

function reply(result: CallResult | { refused: true }) {
  if ('timedOut' in result || 'refused' in result) throw new Error(`expected a reply, got ${JSON.stringify(result)}`);
  return result;
}

const bytes = (length: number, seed = 7) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);
const noLiveInstance = (id: number) => ({ output: null, fault: { kind: 'load', message: `no live instance ${id}` }, discard: true, logs: [] });

describe('runner worker: instances', () => {
  it('a module that does not instantiate comes back as a load fault, and the worker serves on', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      const bad = await unlinkableGuest();
      const result = await handle.create(1, 'bad', bad.modules, bad.options, 10_000);
      if (!('logs' in result)) throw new Error(`expected a creation result, got ${JSON.stringify(result)}`);
      expect(result.fault?.kind).toBe('load');
      expect(result.fault?.message).toMatch(/nowhere|nothing|import/i);
      expect(result.memoryBytes).toBeUndefined();
      expect(reply(await handle.call(1, PRE_TOOL, bytes(2), 10_000))).toEqual(noLiveInstance(1));
      await created(handle, guest, 2);
      expect(reply(await handle.call(2, PRE_TOOL, bytes(2), 10_000)).output).toEqual(bytes(2));
    });
  });

  it('a second instance of a module the worker already has is created from its cache', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest, 1);
      await created(handle, guest, 2);
      expect(reply(await handle.call(2, PRE_TOOL, bytes(9), 10_000)).output).toEqual(bytes(9));
      expect(reply(await handle.call(1, PRE_TOOL, bytes(8), 10_000)).output).toEqual(bytes(8));
    });
  });

  it('a disposed instance is gone from the worker; disposing an unknown one harms nothing', async () => {
    await withHandle(tuning({ mainSpinUs: LONG_SPIN_US }), async (handle, guest) => {
      await created(handle, guest, 1);
      await created(handle, guest, 2);
      handle.dispose(1);
      handle.dispose(99);
      // Messages reach the worker in order: once instance 3 is created, both disposals were handled.
      await created(handle, guest, 3);
      expect(reply(await handle.call(1, PRE_TOOL, bytes(2), 10_000))).toEqual(noLiveInstance(1));
      expect(reply(await handle.call(2, PRE_TOOL, bytes(2), 10_000)).output).toEqual(bytes(2));
      expect(handle.dead).toBe(false);
      await handle.terminate();
      expect(() => handle.dispose(2)).not.toThrow();
    });
  });

  it('a stack overflow discards the instance: the fault says so, with no memory figure, and the next call finds no instance', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      const trapped = reply(await handle.call(1, TURN_CONTINUATION, bytes(2), 10_000));
      expect(trapped.output).toBeNull();
      expect(trapped.fault?.kind).toBe('trap');
      expect(trapped.fault?.message).toMatch(/^stack overflow/);
      expect(trapped.discard).toBe(true);
      expect(trapped.exit).toBeUndefined();
      expect('memoryBytes' in trapped).toBe(false);
      expect(reply(await handle.call(1, PRE_TOOL, bytes(2), 10_000))).toEqual(noLiveInstance(1));
      // The same by postMessage (an input too big for the channel).
      await created(handle, guest, 2);
      const spilled = reply(await handle.call(2, TURN_CONTINUATION, bytes(6000), 10_000));
      expect([spilled.fault?.kind, spilled.discard, 'memoryBytes' in spilled, 'exit' in spilled]).toEqual(['trap', true, false, false]);
      expect(reply(await handle.call(2, PRE_TOOL, bytes(2), 10_000))).toEqual(noLiveInstance(2));
    });
  });

  it('plain exports are served by their index after the seam exports; an index past them finds nothing', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      // A longer call first leaves its bytes in the channel: the 16 zeros must be written, not left over.
      expect(reply(await handle.call(1, PRE_TOOL, bytes(200, 9), 10_000)).output).toEqual(bytes(200, 9));
      const input = bytes(20);
      expect(reply(await handle.call(1, ECHO_PLUS, input, 10_000))).toEqual({
        output: Uint8Array.from([...input, ...new Uint8Array(16)]),
        logs: [],
        memoryBytes: 65_536,
      });
      expect(reply(await handle.call(1, EXPORT_NAMES.length + 9, input, 10_000))).toEqual(noLiveInstance(1));
      // Still alive: a missing export does not discard anything.
      expect(reply(await handle.call(1, PRE_TOOL, input, 10_000)).output).toEqual(input);
    });
  });
});

describe('runner worker: replies', () => {
  it('an instance without plain exports answers a plain export index with no live instance, and serves on', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      const { plainExports: _, ...seamOnly } = guest.options;
      expect(await handle.create(1, 'guest', guest.modules, seamOnly, 10_000)).toEqual({ logs: [], memoryBytes: 65_536 });
      expect(reply(await handle.call(1, ECHO_PLUS, bytes(2), 10_000))).toEqual(noLiveInstance(1));
      expect(reply(await handle.call(1, PRE_TOOL, bytes(2), 10_000)).output).toEqual(bytes(2));
    });
  });

  // Both reply paths carry the same fields: the channel (small) and postMessage (too big for it).
  for (const [path, size] of [['the channel', 8], ['postMessage', 6000]] as const) {
    it(`a plugin error keeps its exit and the memory figure, and the instance lives on (by ${path})`, async () => {
      await withHandle(tuning(), async (handle, guest) => {
        await created(handle, guest);
        const failed = reply(await handle.call(1, PROMPT_SUBMIT, bytes(size), 10_000));
        expect(failed).toEqual({
          output: null,
          fault: { kind: 'plugin-error', message: expect.stringContaining(REFUSAL) as string },
          exit: { code: 1, errorText: REFUSAL },
          discard: false,
          logs: [],
          memoryBytes: 65_536,
        });
        expect(reply(await handle.call(1, PRE_TOOL, bytes(size), 10_000)).output).toEqual(bytes(size));
      });
    });
  }

  it('no output is null, not empty bytes', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      expect(reply(await handle.call(1, SESSION_START, bytes(3), 10_000))).toEqual({ output: null, logs: [], memoryBytes: 65_536 });
    });
  });

  it("a guest's logs come back with its output on the channel", async () => {
    await withHandle(tuning({ mainSpinUs: LONG_SPIN_US }), async (handle, guest) => {
      await created(handle, guest);
      const input = bytes(40);
      const result = reply(await handle.call(1, POST_TOOL, input, 10_000));
      expect(result).toEqual({ output: input, logs: [{ level: 'info', message: GREETING }], memoryBytes: 65_536 });
      expect('fault' in result).toBe(false);
      expect('exit' in result).toBe(false);
      expect('discard' in result).toBe(false);
    });
  });

  // The reply goes by postMessage when output plus extras exceed the channel; main reads it
  // whether it was spinning (the message comes after) or asleep (the message may come first).
  for (const [how, mainSpinUs] of [['asleep', 0], ['spinning', LONG_SPIN_US]] as const) {
    it(`a reply too big for the channel comes by postMessage, whole (main ${how})`, async () => {
      await withHandle(tuning({ mainSpinUs }), async (handle, guest) => {
        await created(handle, guest);
        // Output alone overflows the channel.
        const input = bytes(MAX_DATA - 8);
        expect(reply(await handle.call(1, ECHO_PLUS, input, 10_000))).toEqual({
          output: Uint8Array.from([...input, ...new Uint8Array(16)]),
          logs: [],
          memoryBytes: 65_536,
        });
        // Output fits, output plus logs does not.
        const near = bytes(MAX_DATA - 20, 5);
        expect(reply(await handle.call(1, POST_TOOL, near, 10_000))).toEqual({
          output: near,
          logs: [{ level: 'info', message: GREETING }],
          memoryBytes: 65_536,
        });
        // The channel is used again for the next small reply.
        expect(reply(await handle.call(1, POST_TOOL, bytes(4), 10_000))).toEqual({
          output: bytes(4),
          logs: [{ level: 'info', message: GREETING }],
          memoryBytes: 65_536,
        });
      });
    });
  }
});

describe('runner worker: death', () => {
  /** A worker serving the guest whose host functions take the worker down. */
  async function withCrashGuest(body: (handle: WorkerHandle) => Promise<void>): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-worker-'));
    try {
      await withHandle(
        tuning(),
        async (handle, guest) => {
          await created(handle, guest);
          await body(handle);
        },
        await workerGuest({ dir }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('a worker that exits is reported as a crash to the call in flight and to onDeath, once', async () => {
    await withCrashGuest(async (handle) => {
      const deaths: WorkerHandle[] = [];
      handle.onDeath = (dead) => deaths.push(dead);
      const error = await handle.call(1, HOST_EXIT, bytes(1), 10_000).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkerGoneError);
      const gone = error as WorkerGoneError;
      expect([gone.message, gone.inFlight, gone.reason]).toEqual(['the worker exited', true, 'crash']);
      expect(handle.dead).toBe(true);
      await handle.terminate();
      expect(deaths).toEqual([handle]);
    });
  });

  it('an uncaught error in the worker is reported as a crash with its message', async () => {
    await withCrashGuest(async (handle) => {
      const died = new Promise<void>((resolve) => {
        handle.onDeath = () => resolve();
      });
      const pending = handle.call(1, HOST_THROW, bytes(1), 10_000).then(() => undefined, (e: unknown) => e);
      await died;
      const after = await handle.call(1, PRE_TOOL, bytes(1), 10_000).then(() => undefined, (e: unknown) => e);
      expect(after).toBeInstanceOf(WorkerGoneError);
      // The call itself may have been answered before the throw landed; if not, it carries the crash.
      const first = await pending;
      if (first !== undefined) {
        const gone = first as WorkerGoneError;
        expect([gone.message, gone.reason]).toEqual([HOST_THROW_MESSAGE, 'crash']);
      }
      expect(handle.dead).toBe(true);
    });
  });
});
