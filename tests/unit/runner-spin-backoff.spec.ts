import { describe, expect, it } from 'vitest';
import { MAX_BACKOFF_SPINS, SpinBackoff } from '../../host/runner/spin-backoff.ts';

// The back-off both spinners share (host/runner/spin-backoff.ts): how many spins are
// sat out after each miss, driven call by call with no clock.

/** Spins sat out before the next spin, counted up to 1,000 (a back-off that never ends reads as 1,000). */
function skipsBeforeNextSpin(backoff: SpinBackoff): number {
  let skipped = 0;
  while (skipped < 1000 && !backoff.shouldSpin()) skipped++;
  return skipped;
}

/** Misses `n` spins in a row; returns how many spins were sat out after each miss. */
function skippedAfterEachMiss(backoff: SpinBackoff, n: number): number[] {
  const skipped: number[] = [];
  for (let miss = 0; miss < n; miss++) {
    backoff.record(false);
    skipped.push(skipsBeforeNextSpin(backoff));
  }
  return skipped;
}

describe('spin back-off', () => {
  it('spins until the second miss in a row, then sits out 2, 4, 8 … spins, at most 64', () => {
    expect(skippedAfterEachMiss(new SpinBackoff(), 9)).toEqual([0, 2, 4, 8, 16, 32, 64, 64, 64]);
  });

  it('a hit resets the streak: the next single miss backs off nothing', () => {
    const backoff = new SpinBackoff();
    backoff.record(false);
    backoff.record(false);
    expect([backoff.shouldSpin(), backoff.shouldSpin(), backoff.shouldSpin()]).toEqual([false, false, true]);
    backoff.record(true);
    backoff.record(false);
    expect(backoff.shouldSpin()).toBe(true);
    backoff.record(false);
    expect([backoff.shouldSpin(), backoff.shouldSpin(), backoff.shouldSpin()]).toEqual([false, false, true]);
  });

  it('a streak of any length keeps backing off the most (no shift overflow ends it)', () => {
    const skipped = skippedAfterEachMiss(new SpinBackoff(), 40);
    expect(skipped.slice(30)).toEqual(Array(10).fill(MAX_BACKOFF_SPINS));
  });
});
