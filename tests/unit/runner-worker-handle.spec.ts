import { describe, expect, it } from 'vitest';
import { EXPORT_NAMES } from '../../host/runner/channel.ts';
import { type CallResult, WorkerGoneError, WorkerHandle, type WorkerTuning } from '../../host/runner/worker-handle.ts';
import { REFUSAL, type WorkerGuest, eventLoopTurnedBefore, watGuest, workerGuest } from '../helpers/worker-guest.ts';

// The main-thread side of a runner worker (host/runner/worker-handle.ts), driven
// through a real worker thread and a real guest: the request/reply channel, the
// spin before sleeping, the deadline, and what a caller sees when the worker goes.
// Each test starts its own worker and terminates it in `finally`.

const PRE_TOOL = EXPORT_NAMES.indexOf('pre_tool');
const PROMPT_SUBMIT = EXPORT_NAMES.indexOf('prompt_submit');
const FOREVER = EXPORT_NAMES.length + 1;

/** A small channel (1 KiB growing to 4 KiB), so the postMessage fallback is cheap to reach. */
function tuning(overrides: Partial<WorkerTuning> = {}): WorkerTuning {
  return { dataBytes: 1024, maxDataBytes: 4096, mainSpinUs: 0, workerSpinUs: 0, workerQueuedSpinUs: 0, ...overrides };
}

/** A spin budget no healthy call outlasts: a reply always lands within it. */
const LONG_SPIN_US = 5_000_000;

async function withHandle<T>(t: WorkerTuning, body: (handle: WorkerHandle, guest: WorkerGuest) => Promise<T>): Promise<T> {
  const [guest, handle] = [await workerGuest(), new WorkerHandle(t)];
  try {
    return await body(handle, guest);
  } finally {
    await handle.terminate();
  }
}

async function created(handle: WorkerHandle, guest: WorkerGuest, id = 1): Promise<void> {
  const result = await handle.create(id, 'guest', guest.modules, guest.options, 10_000);
  expect(result).toEqual({ logs: [], memoryBytes: 65_536 });
}

function reply(result: CallResult | { refused: true }) {
  if ('timedOut' in result || 'refused' in result) throw new Error(`expected a reply, got ${JSON.stringify(result)}`);
  return result;
}

const bytes = (length: number, seed = 7) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);

describe('worker handle: replies', () => {
  it('a reply that lands during the spin is read without yielding to the event loop', async () => {
    await withHandle(tuning({ mainSpinUs: LONG_SPIN_US }), async (handle, guest) => {
      await created(handle, guest);
      const input = bytes(100);
      for (let call = 0; call < 3; call++) {
        let result: CallResult | { refused: true } | undefined;
        const turned = await eventLoopTurnedBefore(async () => {
          result = await handle.call(1, PRE_TOOL, input, 10_000);
        });
        expect(turned).toBe(false);
        expect(reply(result!)).toEqual({ output: input, logs: [], memoryBytes: 65_536 });
      }
    });
  });

  it('without a spin budget the caller sleeps until the worker replies, and the reply is the same', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      for (const length of [100, 1, 1000]) {
        const input = bytes(length, length);
        expect(reply(await handle.call(1, PRE_TOOL, input, 10_000))).toEqual({ output: input, logs: [], memoryBytes: 65_536 });
      }
    });
  });

  it('while another call is in flight, a spinning handle lets the event loop turn before it spins', async () => {
    const guest = await workerGuest();
    const busy = new WorkerHandle(tuning());
    const spinner = new WorkerHandle(tuning({ mainSpinUs: LONG_SPIN_US }));
    try {
      await created(busy, guest);
      await created(spinner, guest);
      const stuck = busy.call(1, FOREVER, new Uint8Array(0), 60_000).then(() => undefined, (error: unknown) => error);
      const input = bytes(10);
      let result: CallResult | { refused: true } | undefined;
      const turned = await eventLoopTurnedBefore(async () => {
        result = await spinner.call(1, PRE_TOOL, input, 10_000);
      });
      expect(turned).toBe(true);
      expect(reply(result!).output).toEqual(input);
      await busy.terminate();
      expect(await stuck).toBeInstanceOf(WorkerGoneError);
      // Once nothing else is in flight, it spins right away again.
      const alone = await eventLoopTurnedBefore(() => spinner.call(1, PRE_TOOL, input, 10_000));
      expect(alone).toBe(false);
    } finally {
      await busy.terminate();
      await spinner.terminate();
    }
  });

  it('calls queued behind one another are served in order, each with its own reply', async () => {
    await withHandle(tuning({ mainSpinUs: LONG_SPIN_US }), async (handle, guest) => {
      await created(handle, guest);
      const inputs = [bytes(5, 1), bytes(6, 2), bytes(7, 3), bytes(8, 4)];
      const results = await Promise.all(inputs.map((input) => handle.call(1, PRE_TOOL, input, 10_000)));
      expect(results.map((r) => reply(r).output)).toEqual(inputs);
    });
  });

  it('an input bigger than the channel goes by postMessage and comes back whole, from a view into a bigger buffer too', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      const input = bytes(6000);
      expect(reply(await handle.call(1, PRE_TOOL, input, 10_000))).toEqual({ output: input, logs: [], memoryBytes: 65_536 });
      const view = bytes(9000, 3).subarray(1000, 6500);
      expect(reply(await handle.call(1, PRE_TOOL, view, 10_000)).output).toEqual(view.slice());
      // The channel still serves small calls afterwards.
      expect(reply(await handle.call(1, PRE_TOOL, bytes(3), 10_000)).output).toEqual(bytes(3));
    });
  });

  it('a plugin error comes back with its exit text, its logs empty, and the instance kept', async () => {
    await withHandle(tuning({ mainSpinUs: LONG_SPIN_US }), async (handle, guest) => {
      await created(handle, guest);
      const result = reply(await handle.call(1, PROMPT_SUBMIT, bytes(4), 10_000));
      expect(result.output).toBeNull();
      expect(result.fault?.kind).toBe('plugin-error');
      expect(result.fault?.message).toContain(REFUSAL);
      expect(result.exit).toEqual({ code: 1, errorText: REFUSAL });
      expect(result.discard).toBe(false);
      expect(result.logs).toEqual([]);
      expect(result.memoryBytes).toBe(65_536);
    });
  });

  it('a start gate that says no refuses the call and the creation without running them', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      expect(await handle.create(1, 'guest', guest.modules, guest.options, 10_000, () => false)).toEqual({ refused: true });
      await created(handle, guest, 2);
      expect(await handle.call(2, PRE_TOOL, bytes(3), 10_000, () => false)).toEqual({ refused: true });
      expect(reply(await handle.call(2, PRE_TOOL, bytes(3), 10_000, () => true)).output).toEqual(bytes(3));
    });
  });
});

describe('worker handle: deadlines and a worker that goes', () => {
  it('a call past its deadline resolves timedOut and the worker is terminated, once', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      const deaths: WorkerHandle[] = [];
      handle.onDeath = (dead) => deaths.push(dead);
      expect(handle.dead).toBe(false);
      expect(await handle.call(1, FOREVER, bytes(1), 200)).toEqual({ timedOut: true });
      expect(handle.dead).toBe(true);
      await handle.terminate();
      expect(deaths).toEqual([handle]);
      const after = handle.call(1, PRE_TOOL, bytes(1), 1000);
      await expect(after).rejects.toThrow(WorkerGoneError);
      await after.catch((error: WorkerGoneError) => {
        expect(error.name).toBe('WorkerGoneError');
        expect(error.message).toBe('worker terminated');
        expect(error.inFlight).toBe(false);
        expect(error.reason).toBe('terminated');
      });
    });
  });

  it('a call sent by postMessage is held to its deadline too', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      expect(await handle.call(1, FOREVER, bytes(6000), 200)).toEqual({ timedOut: true });
      expect(handle.dead).toBe(true);
    });
  });

  it('terminating the worker rejects the call in flight as in flight and the queued ones as not', async () => {
    await withHandle(tuning(), async (handle, guest) => {
      await created(handle, guest);
      const inFlight = handle.call(1, FOREVER, bytes(1), 60_000);
      const queued = handle.call(1, PRE_TOOL, bytes(1), 60_000);
      const background = handle.call(1, PRE_TOOL, bytes(1), 60_000, undefined, 'background');
      const errors = Promise.all([inFlight, queued, background].map((p) => p.then(() => undefined, (e: unknown) => e)));
      await handle.terminate();
      const [first, second, third] = (await errors) as WorkerGoneError[];
      expect(first).toBeInstanceOf(WorkerGoneError);
      expect([first?.message, first?.inFlight, first?.reason]).toEqual(['worker terminated', true, 'terminated']);
      expect([second?.message, second?.inFlight]).toEqual(['worker terminated', false]);
      expect([third?.message, third?.inFlight]).toEqual(['worker terminated', false]);
    });
  });

  it('an instantiation past its deadline resolves timedOut and takes the worker down', async () => {
    await withHandle(tuning(), async (handle) => {
      const { modules, options } = await watGuest(
        '(module (memory (export "memory") 1 1) (func $never (loop $l (br $l))) (start $never) (func (export "pre_tool") (result i32) (i32.const 0)))',
        'never',
      );
      expect(await handle.create(1, 'never', modules, options, 300)).toEqual({ timedOut: true });
      expect(handle.dead).toBe(true);
      await expect(handle.create(2, 'never', modules, options, 300)).rejects.toThrow('worker terminated');
    });
  });
});


