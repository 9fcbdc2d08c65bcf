/**
 * The bench's event-loop lag monitor (bench/harness.ts) must see a block
 * however late in the measured work it happens. This asserts on the
 * monitor's reading of a deliberate, deterministic 100 ms synchronous block,
 * with a wide margin (≥ 80 ms), never on how long anything took. (100 ms, not
 * 50: on a loaded machine the lag before the block alone read up to 39 ms.)
 */
import { describe, expect, it } from 'vitest';
import { withLagMonitor } from '../../bench/harness.ts';

const BLOCK_MS = 100;

function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin: the event loop cannot run
  }
}

describe('withLagMonitor', () => {
  it('sees a block at the very end of the work', async () => {
    const { value, lagMaxMs } = await withLagMonitor(async () => {
      // Out of the timers phase: the work ends in a phase the monitor's timer does not run in.
      await new Promise((resolve) => setImmediate(resolve));
      blockFor(BLOCK_MS);
      return 'done';
    });
    expect(value).toBe('done');
    expect(lagMaxMs).toBeGreaterThanOrEqual(BLOCK_MS * 0.8);
  });

  it('sees a block at the very start of the work', async () => {
    const { lagMaxMs } = await withLagMonitor(async () => {
      blockFor(BLOCK_MS);
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    expect(lagMaxMs).toBeGreaterThanOrEqual(BLOCK_MS * 0.8);
  });
});
