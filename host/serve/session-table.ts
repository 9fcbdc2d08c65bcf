import type { SessionStartSource } from '../seams/index.ts';
import { ServedSession } from './served-session.ts';

export interface SessionTableOptions {
  /** Sessions kept open at once; past it the least recently used idle one is closed. */
  readonly maxSessions: number;
  /** A session idle this long is closed (its log stays; it is reopened from it on its next event). */
  readonly idleMs: number;
  /** Where session logs go: a fixed folder, or `<cwd>/.hookbox/sessions` of the session's first event. */
  readonly logDir?: string;
  /** Called when a session is closed (expiry, eviction, shutdown): per-session state elsewhere is dropped. */
  readonly onClose?: (key: string) => void;
}

/**
 * The agent sessions a server holds, keyed by agent and session id: bounded
 * in number, expired after idle, never closed under an in-flight call.
 */
export class SessionTable {
  readonly #sessions = new Map<string, ServedSession>();
  readonly #options: SessionTableOptions;

  constructor(options: SessionTableOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The session for an agent event, opened (or reopened from its log) on first use. */
  acquire(agent: string, id: string, cwd: string, source: SessionStartSource): { session: ServedSession; key: string; opened: boolean } {
    const key = `${agent}:${id}`;
    let session = this.#sessions.get(key);
    const opened = session === undefined;
    if (session === undefined) {
      this.sweep();
      if (this.#sessions.size >= this.#options.maxSessions) this.#evictOne();
      const dir = this.#options.logDir ?? `${cwd}/.hookbox/sessions`;
      session = ServedSession.open(agent, id, cwd, dir, source);
      this.#sessions.set(key, session);
    } else {
      // Most recently used last (Map order), for eviction.
      this.#sessions.delete(key);
      this.#sessions.set(key, session);
    }
    session.lastUsed = Date.now();
    return { session, key, opened };
  }

  /** Closes sessions idle longer than `idleMs`. */
  sweep(now = Date.now()): void {
    for (const [key, session] of this.#sessions) {
      if (session.inFlight === 0 && now - session.lastUsed > this.#options.idleMs) this.#close(key, session);
    }
  }

  #evictOne(): void {
    for (const [key, session] of this.#sessions) {
      if (session.inFlight === 0) {
        this.#close(key, session);
        return;
      }
    }
    // Every session is mid-call: allow one over the bound rather than fail a call.
  }

  #close(key: string, session: ServedSession): void {
    this.#sessions.delete(key);
    session.close();
    this.#options.onClose?.(key);
  }

  /** Closes every session (shutdown, after in-flight calls finished). */
  closeAll(): void {
    for (const [key, session] of [...this.#sessions]) this.#close(key, session);
  }
}
