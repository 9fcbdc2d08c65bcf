import { type HookFault, hookFault } from '../seams/index.ts';

/** Sessions whose fault streak is remembered per hook; the least recently faulting is forgotten first. */
const MAX_TRACKED_SESSIONS = 4096;

interface Streak {
  count: number;
  last: HookFault;
}

/**
 * Counts a hook's consecutive faults, per session by default. One session (or a
 * model steering that session's inputs) that makes a hook fault only quarantines
 * the hook *for that session*: every other session keeps getting real
 * decisions. A fault that says nothing about the session — the module could
 * not be instantiated (`load`) — counts for the whole hook, and quarantines it
 * for everyone once it happens `after` times in a row.
 */
export class Quarantine {
  readonly #after: number;
  readonly #sessions = new Map<string, Streak>();
  #hookWide: Streak | undefined;

  constructor(after: number) {
    this.#after = after;
  }

  /** Whether the hook is quarantined for every session (load-level faults). */
  get hookWide(): boolean {
    return (this.#hookWide?.count ?? 0) >= this.#after;
  }

  /** Whether calls from `session` fault at once. */
  quarantined(session: string): boolean {
    return this.hookWide || (this.#sessions.get(session)?.count ?? 0) >= this.#after;
  }

  /** The fault to answer with while quarantined for `session`, or `undefined` when the hook may run. */
  faultFor(session: string): HookFault | undefined {
    const streak = this.hookWide ? this.#hookWide : this.#sessions.get(session);
    if (streak === undefined || streak.count < this.#after) return undefined;
    const scope = this.hookWide ? 'for every session' : 'for this session';
    return hookFault(
      streak.last.kind,
      `quarantined ${scope} after ${streak.count} consecutive faults (last: ${streak.last.message}); reload the hook to retry`,
    );
  }

  /** Records a call's result: a fault extends the streak, anything else ends it. */
  record(session: string, fault: HookFault | undefined): void {
    if (fault === undefined) {
      this.#sessions.delete(session);
      this.#hookWide = undefined;
      return;
    }
    if (fault.kind === 'load') {
      this.#hookWide = { count: (this.#hookWide?.count ?? 0) + 1, last: fault };
      return;
    }
    const streak = this.#sessions.get(session);
    this.#sessions.delete(session);
    this.#sessions.set(session, { count: (streak?.count ?? 0) + 1, last: fault });
    if (this.#sessions.size > MAX_TRACKED_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value as string);
  }

  clear(): void {
    this.#sessions.clear();
    this.#hookWide = undefined;
  }
}
