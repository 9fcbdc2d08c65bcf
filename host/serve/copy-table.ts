import { createHash } from 'node:crypto';
import type { SeamBus } from '../events/index.ts';
import type { SeamId } from '../seams/index.ts';

/** How long a decision waits for its copy: the two copies of one event arrive within a second of each other (measured: ~0.1 s). */
export const COPY_WINDOW_MS = 10_000;

/** JSON with object keys sorted, so one payload built by two bridges in another key order reads the same. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

interface Entry {
  readonly bridge: string;
  readonly at: number;
  readonly result: Promise<unknown>;
}

/**
 * One event an agent sends twice, in two hook formats: Copilot CLI runs its
 * own hook file and a project's Claude Code setup for the same call
 * (measured with 1.0.102: both, with the same session id, its own first).
 * hookbox decides every copy — none is skipped on a guess of who sent it —
 * but the hooks run once: a seam call from another bridge, in the same
 * agent session, with the same payload (its tool call id aside: each
 * format derives its own) within {@link COPY_WINDOW_MS} gets the first
 * call's hook decision instead of running the hooks again. Each decision
 * serves one copy; a call from the same bridge (the model running `ls`
 * twice) is always decided afresh. Each bridge still answers in its own
 * format, with its own adjustments (a rewrite it cannot carry is a block).
 */
export class CopyTable {
  readonly #entries = new Map<string, Entry>();
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(windowMs = COPY_WINDOW_MS, now: () => number = Date.now) {
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** `bus.dispatch` for one bridge's event in one agent session, sharing each decision with its copy. */
  dispatcher(bus: SeamBus, bridge: string, agentSessionId: string): Pick<SeamBus, 'dispatch'> {
    return {
      dispatch: (seam, payload, session, initial) => this.#share(bridge, agentSessionId, seam, payload, () => bus.dispatch(seam, payload, session, initial)),
    };
  }

  #share<T>(bridge: string, agentSessionId: string, seam: SeamId, payload: unknown, run: () => Promise<T>): Promise<T> {
    const now = this.#now();
    // Entries are kept in the order they were made (a key made again is moved to the end), so the expired ones
    // are the first ones: a busy session's event does not walk every entry of its last 10 s.
    for (const [key, entry] of this.#entries) {
      if (now - entry.at <= this.#windowMs) break;
      this.#entries.delete(key);
    }
    const { toolCallId: _ignored, ...rest } = payload as Record<string, unknown>;
    const key = createHash('sha256').update(stableJson([agentSessionId, seam, rest])).digest('hex');
    const first = this.#entries.get(key);
    if (first !== undefined && first.bridge !== bridge) {
      this.#entries.delete(key);
      return first.result as Promise<T>;
    }
    const result = run();
    this.#entries.delete(key);
    this.#entries.set(key, { bridge, at: now, result });
    return result;
  }
}
