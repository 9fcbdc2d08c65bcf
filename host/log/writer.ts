import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SessionEvent } from './events.ts';

export type EventListener = (event: SessionEvent) => void;

/**
 * The durable, append-only JSONL session log. Each event is serialised first
 * and then written as one `write` of a whole line, when it happens, so a crash
 * can at worst leave a torn last line (which the reader skips and a resume
 * trims before appending).
 */
export class SessionLogWriter {
  readonly path: string;
  readonly #fd: number;
  readonly #listeners: EventListener[] = [];
  readonly #fsync: boolean;
  #closed = false;

  private constructor(path: string, fd: number, fsync: boolean) {
    this.path = path;
    this.#fd = fd;
    this.#fsync = fsync;
  }

  /** Opens (creating if needed) a log for appending. */
  static open(path: string, options: { fsync?: boolean } = {}): SessionLogWriter {
    mkdirSync(dirname(path), { recursive: true });
    return new SessionLogWriter(path, openSync(path, 'a'), options.fsync ?? false);
  }

  /** Subscribes to every appended event (the CLI transcript renders from here). */
  onEvent(listener: EventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index >= 0) this.#listeners.splice(index, 1);
    };
  }

  append(event: SessionEvent): void {
    if (this.#closed) throw new Error(`session log ${this.path} is closed`);
    const line = `${JSON.stringify(event)}\n`;
    writeSync(this.#fd, line);
    if (this.#fsync) fsyncSync(this.#fd);
    for (const listener of this.#listeners) listener(event);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}
