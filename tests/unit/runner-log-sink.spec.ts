/**
 * A plugin's log lines for one call (log-sink.ts): the line and byte caps,
 * the one "dropped" line, the host's notes kept outside the cap, and the
 * reset after each drain.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOG_CAP, LogSink } from '../../host/runner/log-sink.ts';

describe('LogSink', () => {
  it('keeps lines in order with their levels and drains to empty', () => {
    const sink = new LogSink();
    sink.push('info', 'one');
    sink.push('error', 'two');
    expect(sink.drain()).toEqual([
      { level: 'info', message: 'one' },
      { level: 'error', message: 'two' },
    ]);
    expect(sink.drain()).toEqual([]);
  });

  it('defaults to 64 lines and 16 KiB per call', () => {
    expect(DEFAULT_LOG_CAP).toEqual({ lines: 64, bytes: 16 * 1024 });
    expect(new LogSink().cap).toBe(DEFAULT_LOG_CAP);
  });

  it('keeps `lines` lines, counts the rest as one warn line naming the cap, then resets the count', () => {
    const sink = new LogSink({ lines: 2, bytes: 1000 });
    for (const text of ['a', 'b', 'c', 'd', 'e']) sink.push('info', text);
    expect(sink.drain()).toEqual([
      { level: 'info', message: 'a' },
      { level: 'info', message: 'b' },
      { level: 'warn', message: '3 log lines dropped (cap 2 lines / 1000 bytes per call)' },
    ]);
    sink.push('debug', 'fresh');
    expect(sink.drain()).toEqual([{ level: 'debug', message: 'fresh' }]);
  });

  it('truncates the line that reaches the byte cap, marks it, and drops every line after it', () => {
    const sink = new LogSink({ lines: 10, bytes: 8 });
    sink.push('info', 'abcde');
    sink.push('info', 'fghij');
    sink.push('info', 'k');
    expect(sink.drain()).toEqual([
      { level: 'info', message: 'abcde' },
      { level: 'info', message: 'fgh… (truncated)' },
      { level: 'warn', message: '1 log lines dropped (cap 10 lines / 8 bytes per call)' },
    ]);
    // A line of exactly the room left is kept whole; the byte count resets at drain.
    sink.push('info', '12345678');
    sink.push('info', 'x');
    expect(sink.drain()).toEqual([
      { level: 'info', message: '12345678' },
      { level: 'warn', message: '1 log lines dropped (cap 10 lines / 8 bytes per call)' },
    ]);
  });

  it("keeps the host's notes outside the cap, after the plugin's lines and before the dropped line", () => {
    const sink = new LogSink({ lines: 1, bytes: 100 });
    sink.note('warn', 'stdout cut at 4096 bytes');
    sink.push('info', 'kept');
    sink.push('info', 'dropped');
    sink.note('info', 'second note');
    expect(sink.drain()).toEqual([
      { level: 'info', message: 'kept' },
      { level: 'warn', message: 'stdout cut at 4096 bytes' },
      { level: 'info', message: 'second note' },
      { level: 'warn', message: '1 log lines dropped (cap 1 lines / 100 bytes per call)' },
    ]);
    expect(sink.drain()).toEqual([]);
  });

  it('logger() maps console methods to levels and stringifies what it is given', () => {
    const sink = new LogSink();
    const log = sink.logger();
    log.trace('t');
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    log.log(42);
    expect(sink.drain()).toEqual([
      { level: 'debug', message: 't' },
      { level: 'debug', message: 'd' },
      { level: 'info', message: 'i' },
      { level: 'warn', message: 'w' },
      { level: 'error', message: 'e' },
      { level: 'info', message: '42' },
    ]);
  });
});
