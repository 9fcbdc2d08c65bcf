/**
 * The mechanisms under hookbox's WASI calls at their edges: bounds checks
 * of guest memory (host/runner/wasi/guest-memory.ts), stdout/stderr to log
 * lines with the per-call byte cap (stdio.ts), clocks, environment, random
 * and exit (proc-calls.ts), Node error codes to WASI errnos (errno.ts), and
 * the resolver's refusals (path-resolver.ts).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogSink } from '../../host/runner/log-sink.ts';
import { Errno, WasiExit, errnoFromNode } from '../../host/runner/wasi/errno.ts';
import { GuestMemory } from '../../host/runner/wasi/guest-memory.ts';
import { MAX_SYMLINKS, resolveInRoot } from '../../host/runner/wasi/path-resolver.ts';
import { StdioSink } from '../../host/runner/wasi/stdio.ts';
import { BUF, SCRATCH, errnoOf, wasiGuest } from '../helpers/wasi-guest.ts';

describe('GuestMemory: every pointer checked against the memory size', () => {
  const memory = () => new GuestMemory({ buffer: new ArrayBuffer(64) });

  it('ranges that end at the last byte, start at 0 or are empty are fine; one byte past, negative or fractional is EFAULT', () => {
    const m = memory();
    expect(m.slice(60, 4).byteLength).toBe(4);
    expect(m.slice(0, 64).byteLength).toBe(64);
    expect(m.slice(64, 0).byteLength).toBe(0);
    expect(m.slice(5, 0).byteLength).toBe(0);
    for (const [ptr, length] of [[61, 4], [64, 1], [-1, 1], [0, -1], [1.5, 1], [0, 65]]) {
      expect([ptr, length, errnoOf(() => m.slice(ptr as number, length as number))]).toEqual([ptr, length, Errno.FAULT]);
    }
    expect(errnoOf(() => m.setU8(64, 1))).toBe(Errno.FAULT);
    expect(errnoOf(() => m.setU32(61, 1))).toBe(Errno.FAULT);
    expect(errnoOf(() => m.setU64(57, 1n))).toBe(Errno.FAULT);
    expect(errnoOf(() => m.u32(-4))).toBe(Errno.FAULT);
  });

  it('setU16 writes two little-endian bytes, and its last byte must fit', () => {
    const m = memory();
    m.setU16(10, 0x0102);
    expect([...m.bytes.subarray(9, 13)]).toEqual([0, 2, 1, 0]);
    m.setU16(62, 0xffff);
    expect(errnoOf(() => m.setU16(63, 1))).toBe(Errno.FAULT);
  });

  it('strings are strict UTF-8: invalid or overlong bytes are EILSEQ; out of bounds stays EFAULT', () => {
    const m = memory();
    const utf8 = new TextEncoder().encode('héllo/✓');
    m.bytes.set(utf8, 0);
    expect(m.string(0, utf8.byteLength)).toBe('héllo/✓');
    m.bytes.set([0x61, 0xff, 0x62], 32);
    expect(errnoOf(() => m.string(32, 3))).toBe(Errno.ILSEQ);
    m.bytes.set([0xc0, 0xaf], 40); // an overlong "/"
    expect(errnoOf(() => m.string(40, 2))).toBe(Errno.ILSEQ);
    expect(errnoOf(() => m.string(60, 8))).toBe(Errno.FAULT);
  });

  it('iovecs: exactly `count` buffers, each {buf, len} read at its own slot; an entry out of bounds is EFAULT', () => {
    const m = memory();
    m.bytes.set([1, 2, 3, 4, 5, 6, 7], 40);
    m.view.setUint32(0, 40, true);
    m.view.setUint32(4, 3, true);
    m.view.setUint32(8, 44, true);
    m.view.setUint32(12, 3, true);
    m.view.setUint32(16, 0, true);
    m.view.setUint32(20, 1000, true); // a third entry that would fault
    const buffers = m.iovecs(0, 2);
    expect(buffers.map((b) => [...b])).toEqual([[1, 2, 3], [5, 6, 7]]);
    expect(m.iovecs(0, 0)).toEqual([]);
    expect(errnoOf(() => m.iovecs(0, 3))).toBe(Errno.FAULT);
    expect(errnoOf(() => m.iovecs(60, 1))).toBe(Errno.FAULT);
  });
});

describe('StdioSink: fds 1 and 2 become log lines, at most the byte cap per call', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('the dropped-bytes note survives a stdout that filled the whole cap', () => {
    const sink = new LogSink({ lines: 64, bytes: 16 });
    const stdio = new StdioSink(sink);
    stdio.write(1, [bytes('x'.repeat(40))]);
    stdio.flush();
    expect(sink.drain()).toEqual([
      { level: 'info', message: 'x'.repeat(16) },
      { level: 'warn', message: '24 bytes of stdout/stderr dropped (cap 16 bytes per call)' },
    ]);
  });

  it('keeps bytes up to the cap, counts the rest over every later chunk, and says so once at the flush', () => {
    const sink = new LogSink({ lines: 1000, bytes: 100 });
    const stdio = new StdioSink(sink);
    stdio.write(1, [bytes('\n'.repeat(90))]);
    stdio.write(1, [bytes('abcdefghijklmno'), bytes('XYZ')]);
    stdio.write(2, [bytes('err\n')]);
    stdio.flush();
    const lines = sink.drain();
    expect(lines.slice(0, 90).every((line) => line.level === 'info' && line.message === '')).toBe(true);
    expect(lines.slice(90)).toEqual([
      { level: 'info', message: 'abcdefghij' },
      { level: 'warn', message: '12 bytes of stdout/stderr dropped (cap 100 bytes per call)' },
    ]);
  });

  it('the cap is per call: after a flush the next call writes again, with no note and nothing left over', () => {
    const sink = new LogSink({ lines: 64, bytes: 8 });
    const stdio = new StdioSink(sink);
    stdio.write(1, [bytes('12345678tail')]);
    stdio.flush();
    sink.drain();
    stdio.write(1, [bytes('again\n')]);
    stdio.flush();
    expect(sink.drain()).toEqual([{ level: 'info', message: 'again' }]);
  });

  it('a UTF-8 character split across chunks stays one character; an unfinished one ends as U+FFFD at the flush', () => {
    const sink = new LogSink();
    const stdio = new StdioSink(sink);
    stdio.write(1, [Uint8Array.of(0xc3)]);
    stdio.write(1, [Uint8Array.of(0xa9, 0x0a)]);
    stdio.write(2, [Uint8Array.of(0xe2, 0x82)]);
    stdio.flush();
    expect(sink.drain()).toEqual([
      { level: 'info', message: 'é' },
      { level: 'warn', message: '\ufffd' },
    ]);
  });

  it('stdout and stderr keep their own unfinished lines', () => {
    const sink = new LogSink();
    const stdio = new StdioSink(sink);
    stdio.write(1, [bytes('a')]);
    stdio.write(2, [bytes('b\n')]);
    stdio.write(1, [bytes('c\nd')]);
    stdio.flush();
    expect(sink.drain()).toEqual([
      { level: 'warn', message: 'b' },
      { level: 'info', message: 'ac' },
      { level: 'info', message: 'd' },
    ]);
  });
});

describe('process calls with the clock and an environment granted', () => {
  const granted = () => wasiGuest({ preopens: [], env: { A: '1', BB: 'two' }, clock: true }, new LogSink(), 2);

  it('clock_res_get: 1 ns for the monotonic clock (hrtime), 1 µs for the others; an unknown id is EINVAL and writes nothing', () => {
    const g = granted();
    const res = (id: number) => (g.call('clock_res_get', id, SCRATCH), g.u64());
    expect([0, 1, 2, 3].map(res)).toEqual([1000n, 1n, 1000n, 1000n]);
    g.view.setBigUint64(SCRATCH, 0xaan, true);
    expect(g.call('clock_res_get', 4, SCRATCH)).toBe(Errno.INVAL);
    expect(g.u64()).toBe(0xaan);
  });

  it('clock_time_get reads each clock: realtime, monotonic and CPU time in ns', () => {
    const g = granted();
    const time = (id: number) => (expect(g.call('clock_time_get', id, 1n, SCRATCH)).toBe(Errno.SUCCESS), g.u64());
    const wallBefore = BigInt(Date.now()) * 1_000_000n;
    const realtime = time(0);
    expect(realtime >= wallBefore && realtime <= BigInt(Date.now()) * 1_000_000n).toBe(true);
    const monoBefore = process.hrtime.bigint();
    const monotonic = time(1);
    expect(monotonic >= monoBefore && monotonic <= process.hrtime.bigint()).toBe(true);
    for (const id of [2, 3]) {
      const cpu = () => BigInt(process.cpuUsage().user + process.cpuUsage().system) * 1000n;
      const before = BigInt(process.cpuUsage().user + process.cpuUsage().system) * 1000n;
      const value = time(id);
      expect([id, value >= before && value <= cpu(), value % 1000n]).toEqual([id, true, 0n]);
    }
  });

  it('environ_get: one pointer per variable, each to its NAME=value\\0, packed one after the other', () => {
    const g = granted();
    expect(g.call('environ_sizes_get', SCRATCH, SCRATCH + 4)).toBe(Errno.SUCCESS);
    expect([g.u32(SCRATCH), g.u32(SCRATCH + 4)]).toEqual([2, 11]);
    expect(g.call('environ_get', SCRATCH, BUF)).toBe(Errno.SUCCESS);
    expect([g.u32(SCRATCH), g.u32(SCRATCH + 4)]).toEqual([BUF, BUF + 4]);
    expect(g.text(BUF, 11)).toBe('A=1\0BB=two\0');
  });

  it('random_get fills more than one 64 KiB chunk, to the last byte', () => {
    const g = granted();
    const length = 70_000;
    expect(g.call('random_get', 1000, length)).toBe(Errno.SUCCESS);
    for (const at of [1000, 1000 + 65_536, 1000 + length - 64]) expect(g.bytes.subarray(at, at + 64).some((b) => b !== 0)).toBe(true);
    expect(g.bytes.subarray(1000 + length, 1000 + length + 64).every((b) => b === 0)).toBe(true);
    expect(g.call('random_get', 0, 0)).toBe(Errno.SUCCESS);
  });

  it('proc_exit ends the call with its code and the message the fault carries', () => {
    const g = granted();
    let thrown: unknown;
    try {
      g.call('proc_exit', 7);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WasiExit);
    expect([(thrown as WasiExit).code, (thrown as WasiExit).message]).toEqual([7, 'the hook called proc_exit(7)']);
  });
});

describe('errnoFromNode', () => {
  it('maps each Node fs code to its preview1 errno, and anything else (or nothing) to EIO', () => {
    const table: Record<string, number> = {
      EACCES: 2, EAGAIN: 6, EBADF: 8, EBUSY: 10, EEXIST: 20, EFBIG: 22, EINVAL: 28, EIO: 29, EISDIR: 31, ELOOP: 32,
      EMFILE: 33, ENAMETOOLONG: 37, ENOENT: 44, ENOSPC: 51, ENOTDIR: 54, ENOTEMPTY: 55, EPERM: 63, EROFS: 69, ETXTBSY: 74,
      EXDEV: 75,
    };
    for (const [code, errno] of Object.entries(table)) expect([code, errnoFromNode(code)]).toEqual([code, errno]);
    expect([errnoFromNode(undefined), errnoFromNode('ECONNRESET'), errnoFromNode('')]).toEqual([Errno.IO, Errno.IO, Errno.IO]);
  });
});

describe('resolveInRoot refusals', () => {
  let base: string;
  let root: string;
  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-wasi-edges-')));
    root = path.join(base, 'root');
    mkdirSync(path.join(root, 'a'), { recursive: true });
    writeFileSync(path.join(root, 'a', 'f'), 'file');
    // link0 → link1 → … → link{MAX} → a: MAX + 1 links from link0, MAX from link1.
    for (let i = 0; i <= MAX_SYMLINKS; i++) symlinkSync(i === MAX_SYMLINKS ? 'a' : `link${i + 1}`, path.join(root, `link${i}`));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const resolve = (guestPath: string, at: string[] = []) => () => resolveInRoot(root, at, guestPath, true);

  it('a NUL byte is EINVAL; a missing intermediate ENOENT; a file used as a directory ENOTDIR, even before `..`', () => {
    expect(errnoOf(resolve('a/f\0x'))).toBe(Errno.INVAL);
    expect(errnoOf(resolve('nope/x'))).toBe(Errno.NOENT);
    expect(errnoOf(resolve('a/f/..'))).toBe(Errno.NOTDIR);
    expect(errnoOf(resolve('a/f/x'))).toBe(Errno.NOTDIR);
    // From a directory fd whose directory is now a file, or gone.
    expect(errnoOf(resolve('x', ['a', 'f']))).toBe(Errno.NOTDIR);
    expect(errnoOf(resolve('x/y', ['gone']))).toBe(Errno.NOENT);
  });

  it('a component longer than a file name may be is ENAMETOOLONG', () => {
    expect(errnoOf(resolve(`a/${'n'.repeat(300)}`))).toBe(Errno.NAMETOOLONG);
  });

  it(`follows exactly ${MAX_SYMLINKS} links; one more is ELOOP`, () => {
    expect(resolveInRoot(root, [], 'link1/f', true).rel).toEqual(['a', 'f']);
    expect(errnoOf(resolve('link0/f'))).toBe(Errno.LOOP);
  });

  it('a root that is gone is ENOENT', () => {
    const gone = path.join(base, 'gone-root');
    expect(errnoOf(() => resolveInRoot(gone, [], 'x', true))).toBe(Errno.NOENT);
  });
});
