import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_NAMES } from '../../host/runner/channel.ts';
import { type CallResult, WorkerHandle } from '../../host/runner/worker-handle.ts';
import { eventLoopTurnedBefore, workerGuest } from '../helpers/worker-guest.ts';

// The main thread's spin back-off (host/runner/worker-handle.ts #spin, #spinBudget), on a real
// worker. Whether a call was spun for is seen from the main thread: a reply read during the spin
// settles before a macrotask queued ahead of the call runs; a call not spun for waits for the
// event loop. The margins are wide (a spin of 1 s against a 50 ms call), but the outcome still
// depends on the scheduler, so this suite is not in the `worker` mutation group: a loaded
// machine must not fail the group's initial test run (see docs/testing.md, "Mutation testing").

const HOST_BLOCK = EXPORT_NAMES.length + 4;

const bytes = (length: number) => new Uint8Array(length);
describe('worker handle: spin back-off', () => {
  // `host_block` holds the worker one millisecond per input byte: SLOW outlasts the spin budget
  // (a sure miss); PROBE lands well within it when spun for, and surely after the event loop has
  // turned when not.
  const SPIN_US = 1_000_000;
  const SLOW = bytes(1100);
  const PROBE = bytes(50);

  it('two misses in a row stop the spin for two calls; a hit in between resets the count', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-worker-'));
    const handle = new WorkerHandle({ dataBytes: 4096, maxDataBytes: 4096, mainSpinUs: SPIN_US, workerSpinUs: 0, workerQueuedSpinUs: 0 });
    try {
      const guest = await workerGuest({ dir });
      for (const id of [1, 2, 3, 4, 5]) {
        expect(await handle.create(id, 'guest', guest.modules, guest.options, 10_000)).toEqual({ logs: [], memoryBytes: 65_536 });
      }
      const spun = async (id: number, input: Uint8Array) => {
        let result: CallResult | { refused: true } | undefined;
        const turned = await eventLoopTurnedBefore(async () => {
          result = await handle.call(id, HOST_BLOCK, input, 10_000);
        });
        expect(result).toEqual({ output: null, logs: [], memoryBytes: 65_536 });
        return !turned;
      };
      // A miss (instance 1), a hit (2), a miss (3): the hit reset the count, so 2 is still spun for.
      expect(await spun(1, SLOW)).toBe(false);
      expect(await spun(2, PROBE)).toBe(true);
      expect(await spun(3, SLOW)).toBe(false);
      expect(await spun(2, PROBE)).toBe(true);
      // Two misses in a row (fresh instances 4 and 5): the next two calls sleep, the third spins again.
      expect(await spun(4, SLOW)).toBe(false);
      expect(await spun(5, SLOW)).toBe(false);
      expect(await spun(2, PROBE)).toBe(false);
      expect(await spun(2, PROBE)).toBe(false);
      expect(await spun(2, PROBE)).toBe(true);
      // An instance known to outlast the spin is not spun for, and that is no miss: 2 still spins after it.
      expect(await spun(1, SLOW)).toBe(false);
      expect(await spun(2, PROBE)).toBe(true);
    } finally {
      await handle.terminate();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
