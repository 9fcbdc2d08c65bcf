import type { HookLogLevel, LogSink } from '../log-sink.ts';

const LEVEL: Readonly<Record<1 | 2, HookLogLevel>> = { 1: 'info', 2: 'warn' };

/**
 * The guest's fds 1 and 2: bytes become log lines in the hook's capped
 * `LogSink` (stdout at `info`, stderr at `warn`), split on newlines. Per
 * call at most the sink's byte cap is decoded; the rest is only counted, so
 * a flood costs a length addition per `fd_write`.
 */
export class StdioSink {
  readonly #sink: LogSink;
  readonly #pending: Record<1 | 2, string> = { 1: '', 2: '' };
  readonly #decoders = { 1: new TextDecoder(), 2: new TextDecoder() };
  #taken = 0;
  #dropped = 0;

  constructor(sink: LogSink) {
    this.#sink = sink;
  }

  write(stream: 1 | 2, chunks: readonly Uint8Array[]): void {
    for (const chunk of chunks) {
      const room = Math.max(0, this.#sink.cap.bytes - this.#taken);
      const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      this.#dropped += chunk.byteLength - kept.byteLength;
      if (kept.byteLength === 0) continue;
      this.#taken += kept.byteLength;
      const text = this.#pending[stream] + this.#decoders[stream].decode(kept, { stream: true });
      const lines = text.split('\n');
      this.#pending[stream] = lines.pop() ?? '';
      for (const line of lines) this.#sink.push(LEVEL[stream], line);
    }
  }

  /** Pushes unterminated text and the dropped-bytes count; called at the end of every call. */
  flush(): void {
    for (const stream of [1, 2] as const) {
      const rest = this.#pending[stream] + this.#decoders[stream].decode();
      if (rest !== '') this.#sink.push(LEVEL[stream], rest);
      this.#pending[stream] = '';
    }
    if (this.#dropped > 0) this.#sink.note('warn', `${this.#dropped} bytes of stdout/stderr dropped (cap ${this.#sink.cap.bytes} bytes per call)`);
    this.#taken = 0;
    this.#dropped = 0;
  }
}
