/** Plugin log levels, as the runner reports them. */
export type HookLogLevel = 'info' | 'warn' | 'error' | 'debug';

export interface LogLine {
  readonly level: HookLogLevel;
  readonly message: string;
}

export interface LogCap {
  /** Lines kept per call; the rest are counted and reported as one "dropped" line. */
  readonly lines: number;
  /** Bytes kept per call (UTF-16 code units, close enough for a cap). */
  readonly bytes: number;
}

export const DEFAULT_LOG_CAP: LogCap = { lines: 64, bytes: 16 * 1024 };

/**
 * Collects a plugin's log lines for one call, capped so that a log flood
 * costs the host a counter increment per line and nothing more.
 */
export class LogSink {
  #lines: LogLine[] = [];
  #notes: LogLine[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(readonly cap: LogCap = DEFAULT_LOG_CAP) {}

  push(level: HookLogLevel, message: string): void {
    if (this.#lines.length >= this.cap.lines || this.#bytes >= this.cap.bytes) {
      this.#dropped++;
      return;
    }
    const room = this.cap.bytes - this.#bytes;
    const text = message.length > room ? `${message.slice(0, room)}… (truncated)` : message;
    this.#bytes += text.length;
    this.#lines.push({ level, message: text });
  }

  /**
   * A line the host writes about the call (e.g. how much stdout was cut). It
   * is kept outside the cap it may be reporting on, after the plugin's lines;
   * hosts write at most a few per call.
   */
  note(level: HookLogLevel, message: string): void {
    this.#notes.push({ level, message });
  }

  /** The collected lines, the host's notes and one "N lines dropped" line; resets the sink. */
  drain(): LogLine[] {
    const lines = this.#lines;
    lines.push(...this.#notes);
    this.#notes = [];
    if (this.#dropped > 0) lines.push({ level: 'warn', message: `${this.#dropped} log lines dropped (cap ${this.cap.lines} lines / ${this.cap.bytes} bytes per call)` });
    this.#lines = [];
    this.#bytes = 0;
    this.#dropped = 0;
    return lines;
  }

  /** A `Console`-shaped logger for the Extism SDK. */
  logger(): Console {
    const sink = (level: HookLogLevel) => (message: unknown) => this.push(level, String(message));
    return { trace: sink('debug'), debug: sink('debug'), info: sink('info'), warn: sink('warn'), error: sink('error'), log: sink('info') } as unknown as Console;
  }
}
