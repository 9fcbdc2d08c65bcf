/**
 * Back-off for a bounded spin: a thread polling the shared channel for the
 * other side's next move before it sleeps. Main spins for a reply
 * (reply-wait.ts), a worker spins for the next request (worker.ts). On 2
 * cores a spin that keeps missing means the other side is slow or shares this
 * core, and spinning only takes the core from it: after repeated misses the
 * spinner sits out 2, 4, 8… spins, at most 64, and one hit resets it.
 */

/** Consecutive misses before spinning backs off. */
export const MISSES_BEFORE_BACKOFF = 2;
/** Longest back-off, in spins skipped. */
export const MAX_BACKOFF_SPINS = 64;

export class SpinBackoff {
  #missStreak = 0;
  #skip = 0;

  /** Whether to spin this time; each spin skipped while backing off counts one off. */
  shouldSpin(): boolean {
    if (this.#skip === 0) return true;
    this.#skip--;
    return false;
  }

  /** Records how a spin ended: a hit resets the streak, the second miss in a row and each after it back off longer. */
  record(hit: boolean): void {
    if (hit) {
      this.#missStreak = 0;
      return;
    }
    this.#missStreak++;
    if (this.#missStreak >= MISSES_BEFORE_BACKOFF) {
      // The exponent is capped: `1 << 31` is negative, and such a count would never run down to 0.
      this.#skip = Math.min(MAX_BACKOFF_SPINS, 2 ** Math.min(this.#missStreak - 1, 30));
    }
  }
}
