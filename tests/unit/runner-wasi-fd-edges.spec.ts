/**
 * The `fd_*` calls of hookbox's WASI (host/runner/wasi/fd-calls.ts,
 * fd-table.ts) at their edges, on real files under a writable grant: the
 * exact bytes of `fdstat`/`filestat`, scatter/gather across several iovecs,
 * positioned reads and writes, seek arithmetic, `APPEND`, rights narrowing,
 * the 128-descriptor limit, and that closing or renumbering a file really
 * closes the host fd behind it.
 */
import { existsSync, fstatSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errno, FdFlags, FstFlags, OFlags, Rights, Whence } from '../../host/runner/wasi/errno.ts';
import { STDIO_RIGHTS } from '../../host/runner/wasi/fd-calls.ts';
import { MAX_OPEN_FDS } from '../../host/runner/wasi/fd-table.ts';
import { BUF, IOV, SCRATCH, hostFdsOn, wasiGuest } from '../helpers/wasi-guest.ts';

const RW = Rights.FD_READ | Rights.FD_WRITE | Rights.FD_SEEK | Rights.FD_TELL;
const RO = Rights.FD_READ | Rights.FD_SEEK;

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-wasi-fd-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A fresh root holding `file.txt` = `content` and a `sub/` directory; fd 3 is the root. */
function rooted(name: string, content = '0123456789', write = true) {
  const root = path.join(base, name);
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 'file.txt'), content);
  const g = wasiGuest({ preopens: [{ guest: '/r', host: root, write }], env: {}, clock: false });
  return { g, root, file: path.join(root, 'file.txt') };
}

describe('fd_fdstat_get writes the 24-byte fdstat at its offsets', () => {
  it('a file opened with APPEND: filetype 4 at 0, flags 1 at 2, rights at 8 and 16, zeros between', () => {
    const { g } = rooted('fdstat');
    const inheriting = Rights.FD_READ;
    expect(g.call('path_open', 3, 0, 256, g.setPath('file.txt'), 0, RW, inheriting, FdFlags.APPEND, SCRATCH)).toBe(Errno.SUCCESS);
    const fd = g.u32();
    const at = BUF;
    g.bytes.fill(0xee, at, at + 24);
    expect(g.call('fd_fdstat_get', fd, at)).toBe(Errno.SUCCESS);
    expect([...g.bytes.subarray(at, at + 8)]).toEqual([4, 0, 1, 0, 0, 0, 0, 0]);
    expect(g.u64(at + 8)).toBe(RW);
    expect(g.u64(at + 16)).toBe(inheriting);
    g.host.close();
  });

  it('a file without APPEND says flags 0; stdout is a character device with its stdio rights; the root a directory', () => {
    const { g } = rooted('fdstat-kinds');
    const fd = g.open(3, 'file.txt', 0, RO);
    expect(g.call('fd_fdstat_get', fd, BUF)).toBe(Errno.SUCCESS);
    expect([g.bytes[BUF], g.view.getUint16(BUF + 2, true)]).toEqual([4, 0]);
    g.bytes.fill(0xee, BUF, BUF + 24);
    expect(g.call('fd_fdstat_get', 1, BUF)).toBe(Errno.SUCCESS);
    expect([...g.bytes.subarray(BUF, BUF + 8)]).toEqual([2, 0, 0, 0, 0, 0, 0, 0]);
    expect([g.u64(BUF + 8), g.u64(BUF + 16)]).toEqual([STDIO_RIGHTS[1], 0n]);
    expect(g.call('fd_fdstat_get', 3, BUF)).toBe(Errno.SUCCESS);
    expect([g.bytes[BUF], g.view.getUint16(BUF + 2, true)]).toEqual([3, 0]);
    g.host.close();
  });
});

describe('fd_fdstat_set_flags and fd_fdstat_set_rights', () => {
  it('APPEND toggles on a writable file and moves its writes to the end; off again, writes land at the position', () => {
    const { g, file } = rooted('set-flags');
    const fd = g.open(3, 'file.txt', 0, RW);
    expect(g.call('fd_fdstat_set_flags', fd, FdFlags.APPEND)).toBe(Errno.SUCCESS);
    expect(g.call('fd_fdstat_get', fd, BUF)).toBe(Errno.SUCCESS);
    expect(g.view.getUint16(BUF + 2, true)).toBe(FdFlags.APPEND);
    g.setData('AB');
    expect(g.call('fd_write', fd, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(readFileSync(file, 'utf8')).toBe('0123456789AB');
    expect(g.call('fd_tell', fd, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u64()).toBe(12n);
    expect(g.call('fd_fdstat_set_flags', fd, 0)).toBe(Errno.SUCCESS);
    expect(g.call('fd_seek', fd, 1n, Whence.SET, SCRATCH)).toBe(Errno.SUCCESS);
    g.setData('x');
    expect(g.call('fd_write', fd, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(readFileSync(file, 'utf8')).toBe('0x23456789AB');
    g.host.close();
  });

  it('a file opened with APPEND writes at the end, not over the start', () => {
    const { g, file } = rooted('open-append', 'hello');
    const fd = g.open(3, 'file.txt', 0, Rights.FD_WRITE, FdFlags.APPEND);
    g.setData('XY');
    expect(g.call('fd_write', fd, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    g.setData('Z');
    expect(g.call('fd_write', fd, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(readFileSync(file, 'utf8')).toBe('helloXYZ');
    g.host.close();
  });

  it('other flags are ENOTSUP, on stdio too; the same flags succeed even read-only; APPEND on read-only is ENOTCAPABLE', () => {
    const { g } = rooted('set-flags-refused');
    const ro = g.open(3, 'file.txt', 0, RO);
    const rw = g.open(3, 'file.txt', 0, RW);
    expect(g.call('fd_fdstat_set_flags', rw, 4)).toBe(Errno.NOTSUP); // NONBLOCK
    expect(g.call('fd_fdstat_set_flags', rw, FdFlags.APPEND | 4)).toBe(Errno.NOTSUP);
    expect(g.call('fd_fdstat_set_flags', 1, FdFlags.APPEND)).toBe(Errno.NOTSUP);
    expect(g.call('fd_fdstat_set_flags', 3, FdFlags.APPEND)).toBe(Errno.NOTSUP);
    expect(g.call('fd_fdstat_set_flags', 1, 0)).toBe(Errno.SUCCESS);
    expect(g.call('fd_fdstat_set_flags', ro, 0)).toBe(Errno.SUCCESS);
    expect(g.call('fd_fdstat_set_flags', ro, FdFlags.APPEND)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_fdstat_get', ro, BUF)).toBe(Errno.SUCCESS);
    expect(g.view.getUint16(BUF + 2, true)).toBe(0);
    g.host.close();
  });

  it('rights only shrink: narrower base and inheriting are kept, growing either one is ENOTCAPABLE', () => {
    const { g } = rooted('set-rights');
    expect(g.call('path_open', 3, 0, 256, g.setPath('file.txt'), 0, RW, Rights.FD_READ | Rights.FD_SEEK, 0, SCRATCH)).toBe(Errno.SUCCESS);
    const fd = g.u32();
    expect(g.call('fd_fdstat_set_rights', fd, Rights.FD_READ, Rights.FD_READ)).toBe(Errno.SUCCESS);
    expect(g.call('fd_fdstat_get', fd, BUF)).toBe(Errno.SUCCESS);
    expect([g.u64(BUF + 8), g.u64(BUF + 16)]).toEqual([Rights.FD_READ, Rights.FD_READ]);
    expect(g.call('fd_fdstat_set_rights', fd, Rights.FD_READ | Rights.FD_WRITE, Rights.FD_READ)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_fdstat_set_rights', fd, Rights.FD_READ, Rights.FD_READ | Rights.FD_SEEK)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_fdstat_get', fd, BUF)).toBe(Errno.SUCCESS);
    expect([g.u64(BUF + 8), g.u64(BUF + 16)]).toEqual([Rights.FD_READ, Rights.FD_READ]);
    g.host.close();
  });
});

describe('reads and writes across iovecs, positioned', () => {
  it('fd_read scatters one file over three buffers, stops short at the end, and advances the position', () => {
    const { g } = rooted('scatter');
    const fd = g.open(3, 'file.txt', 0, RO);
    g.bytes.fill(0, BUF, BUF + 64);
    const count = g.setIovecs([[BUF, 3], [BUF + 16, 4], [BUF + 32, 8], [BUF + 48, 8]]);
    expect(g.call('fd_read', fd, IOV, count, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u32()).toBe(10);
    expect([g.text(BUF, 3), g.text(BUF + 16, 4), g.text(BUF + 32, 3)]).toEqual(['012', '3456', '789']);
    expect(g.bytes[BUF + 35]).toBe(0);
    expect(g.call('fd_tell', fd, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u64()).toBe(10n);
    expect(g.call('fd_read', fd, IOV, count, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u32()).toBe(0);
    g.host.close();
  });

  it('fd_pread reads at its offset across buffers and leaves the position alone', () => {
    const { g } = rooted('pread');
    const fd = g.open(3, 'file.txt', 0, RO);
    const count = g.setIovecs([[BUF, 2], [BUF + 8, 3]]);
    expect(g.call('fd_pread', fd, IOV, count, 4n, SCRATCH)).toBe(Errno.SUCCESS);
    expect([g.u32(), g.text(BUF, 2), g.text(BUF + 8, 3)]).toEqual([5, '45', '678']);
    expect(g.call('fd_tell', fd, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u64()).toBe(0n);
    g.host.close();
  });

  it('fd_write gathers several buffers at the position; fd_pwrite at its offset without moving it', () => {
    const { g, file } = rooted('gather');
    const fd = g.open(3, 'file.txt', 0, RW);
    g.setPath('ab', BUF);
    g.setPath('cde', BUF + 8);
    const count = g.setIovecs([[BUF, 2], [BUF + 8, 3]]);
    expect(g.call('fd_seek', fd, 2n, Whence.SET, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.call('fd_write', fd, IOV, count, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u32()).toBe(5);
    expect(readFileSync(file, 'utf8')).toBe('01abcde789');
    expect(g.call('fd_pwrite', fd, IOV, count, 8n, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u32()).toBe(5);
    expect(readFileSync(file, 'utf8')).toBe('01abcde7abcde');
    expect(g.call('fd_tell', fd, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u64()).toBe(7n);
    g.host.close();
  });

  it('a write-only open cannot read; an open asking for no rights is a read-only open (O_RDONLY is 0)', () => {
    const { g } = rooted('modes');
    const wo = g.open(3, 'file.txt', 0, Rights.FD_WRITE);
    g.setIovecs([[BUF, 8]]);
    expect(g.call('fd_read', wo, IOV, 1, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_pread', wo, IOV, 1, 0n, SCRATCH)).toBe(Errno.NOTCAPABLE);
    const none = g.open(3, 'file.txt', 0, 0n);
    expect(g.call('fd_read', none, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.text(BUF, g.u32())).toBe('01234567');
    expect(g.call('fd_write', none, IOV, 1, SCRATCH)).toBe(Errno.NOTCAPABLE);
    g.host.close();
  });

  it('on a writable root a read-only open still cannot write; a read-write open reads and writes', () => {
    const { g, file } = rooted('rw-modes');
    const ro = g.open(3, 'file.txt', 0, RO);
    g.setData('zz');
    expect(g.call('fd_write', ro, IOV, 1, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_pwrite', ro, IOV, 1, 0n, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_allocate', ro, 0n, 100n)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_filestat_set_times', ro, 0n, 0n, FstFlags.MTIM_NOW)).toBe(Errno.NOTCAPABLE);
    const rw = g.open(3, 'file.txt', 0, RW);
    g.setIovecs([[BUF, 4]]);
    expect(g.call('fd_read', rw, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.text(BUF, g.u32())).toBe('0123');
    g.setData('W');
    expect(g.call('fd_write', rw, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(readFileSync(file, 'utf8')).toBe('0123W56789');
    g.host.close();
  });

  it('directories and stdio are not files: EISDIR and ESPIPE, exactly', () => {
    const { g } = rooted('not-files');
    g.setIovecs([[BUF, 4]]);
    expect(g.call('fd_read', 3, IOV, 1, SCRATCH)).toBe(Errno.ISDIR);
    expect(g.call('fd_write', 3, IOV, 1, SCRATCH)).toBe(Errno.ISDIR);
    expect(g.call('fd_pread', 3, IOV, 1, 0n, SCRATCH)).toBe(Errno.ISDIR);
    expect(g.call('fd_seek', 3, 0n, Whence.SET, SCRATCH)).toBe(Errno.ISDIR);
    expect(g.call('fd_tell', 3, SCRATCH)).toBe(Errno.ISDIR);
    expect(g.call('fd_advise', 3, 0n, 0n, 0)).toBe(Errno.ISDIR);
    expect(g.call('fd_filestat_set_size', 3, 0n)).toBe(Errno.ISDIR);
    expect(g.call('fd_pwrite', 1, IOV, 1, 0n, SCRATCH)).toBe(Errno.SPIPE);
    expect(g.call('fd_tell', 2, SCRATCH)).toBe(Errno.SPIPE);
    expect(g.call('fd_allocate', 1, 0n, 1n)).toBe(Errno.SPIPE);
    expect(g.call('fd_sync', 1)).toBe(Errno.SPIPE);
    expect(g.call('fd_datasync', 2)).toBe(Errno.SPIPE);
    const fd = g.open(3, 'file.txt', 0, RW);
    expect([g.call('fd_advise', fd, 0n, 4n, 1), g.call('fd_sync', fd), g.call('fd_datasync', fd)]).toEqual([0, 0, 0]);
    g.host.close();
  });
});

describe('fd_seek and fd_tell', () => {
  it('SET, CUR and END move from 0, the position and the size; the new offset is written as a u64', () => {
    const { g } = rooted('seek');
    const fd = g.open(3, 'file.txt', 0, RW);
    const seek = (offset: bigint, whence: number): [number, bigint] => {
      g.view.setBigUint64(SCRATCH, 0xffffn, true);
      return [g.call('fd_seek', fd, offset, whence, SCRATCH), g.u64()];
    };
    expect(seek(3n, Whence.SET)).toEqual([Errno.SUCCESS, 3n]);
    expect(seek(2n, Whence.CUR)).toEqual([Errno.SUCCESS, 5n]);
    expect(seek(-1n, Whence.CUR)).toEqual([Errno.SUCCESS, 4n]);
    expect(seek(-2n, Whence.END)).toEqual([Errno.SUCCESS, 8n]);
    expect(seek(0n, Whence.END)).toEqual([Errno.SUCCESS, 10n]);
    expect(seek(0n, Whence.SET)).toEqual([Errno.SUCCESS, 0n]);
    g.setIovecs([[BUF, 2]]);
    expect(seek(6n, Whence.SET)[0]).toBe(Errno.SUCCESS);
    expect(g.call('fd_read', fd, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.text(BUF, 2)).toBe('67');
    g.host.close();
  });

  it('a negative result or an unknown whence is EINVAL, writes nothing and keeps the position', () => {
    const { g } = rooted('seek-bad');
    const fd = g.open(3, 'file.txt', 0, RW);
    expect(g.call('fd_seek', fd, 4n, Whence.SET, SCRATCH)).toBe(Errno.SUCCESS);
    g.view.setBigUint64(SCRATCH, 0xabcn, true);
    expect(g.call('fd_seek', fd, -1n, Whence.SET, SCRATCH)).toBe(Errno.INVAL);
    expect(g.call('fd_seek', fd, -5n, Whence.CUR, SCRATCH)).toBe(Errno.INVAL);
    expect(g.call('fd_seek', fd, -11n, Whence.END, SCRATCH)).toBe(Errno.INVAL);
    expect(g.call('fd_seek', fd, 0n, 3, SCRATCH)).toBe(Errno.INVAL);
    expect(g.u64()).toBe(0xabcn);
    expect(g.call('fd_tell', fd, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u64()).toBe(4n);
    g.host.close();
  });
});

describe('sizes and times', () => {
  it('fd_allocate grows a file to offset + length and never shrinks it', () => {
    const { g, file } = rooted('allocate', 'hello');
    const fd = g.open(3, 'file.txt', 0, RW);
    expect(g.call('fd_allocate', fd, 3n, 10n)).toBe(Errno.SUCCESS);
    expect(statSync(file).size).toBe(13);
    expect(g.call('fd_allocate', fd, 0n, 4n)).toBe(Errno.SUCCESS);
    expect(statSync(file).size).toBe(13);
    expect(readFileSync(file).subarray(0, 6).toString()).toBe('hello\0');
    expect(g.call('fd_filestat_set_size', fd, 2n)).toBe(Errno.SUCCESS);
    expect(readFileSync(file, 'utf8')).toBe('he');
    g.host.close();
  });

  it('fd_filestat_get writes the 64-byte filestat of a file and of a directory at their offsets', () => {
    const { g, root, file } = rooted('filestat');
    const fd = g.open(3, 'file.txt', 0, RO);
    for (const [guestFd, host, type] of [[fd, file, 4], [3, root, 3]] as const) {
      g.bytes.fill(0xee, BUF, BUF + 64);
      expect(g.call('fd_filestat_get', guestFd, BUF)).toBe(Errno.SUCCESS);
      const stat = lstatSync(host, { bigint: true });
      expect([g.u64(BUF), g.u64(BUF + 8)]).toEqual([stat.dev, stat.ino]);
      expect([...g.bytes.subarray(BUF + 16, BUF + 24)]).toEqual([type, 0, 0, 0, 0, 0, 0, 0]);
      expect([g.u64(BUF + 24), g.u64(BUF + 32)]).toEqual([stat.nlink, stat.size]);
      expect([g.u64(BUF + 40), g.u64(BUF + 48), g.u64(BUF + 56)]).toEqual([stat.atimeNs, stat.mtimeNs, stat.ctimeNs]);
    }
    g.host.close();
  });

  it('fd_filestat_set_times sets what the flags name, keeps the rest, and refuses a time and NOW together', () => {
    const { g, file } = rooted('times');
    const fd = g.open(3, 'file.txt', 0, RW);
    const atim = 1_600_000_000_000_000_000n;
    const mtim = 1_500_000_000_000_000_000n;
    expect(g.call('fd_filestat_set_times', fd, atim, mtim, FstFlags.ATIM | FstFlags.MTIM)).toBe(Errno.SUCCESS);
    expect([statSync(file, { bigint: true }).atimeNs, statSync(file, { bigint: true }).mtimeNs]).toEqual([atim, mtim]);
    expect(g.call('fd_filestat_set_times', fd, 0n, 1_400_000_000_000_000_000n, FstFlags.MTIM)).toBe(Errno.SUCCESS);
    expect([statSync(file, { bigint: true }).atimeNs, statSync(file, { bigint: true }).mtimeNs]).toEqual([atim, 1_400_000_000_000_000_000n]);
    expect(g.call('fd_filestat_set_times', fd, 0n, 0n, FstFlags.ATIM | FstFlags.ATIM_NOW)).toBe(Errno.INVAL);
    expect(g.call('fd_filestat_set_times', fd, 0n, 0n, FstFlags.MTIM | FstFlags.MTIM_NOW)).toBe(Errno.INVAL);
    const before = Date.now();
    expect(g.call('fd_filestat_set_times', fd, 0n, 0n, FstFlags.ATIM_NOW)).toBe(Errno.SUCCESS);
    const after = statSync(file);
    expect(after.atimeMs).toBeGreaterThanOrEqual(before - 1000);
    expect(after.atimeMs).toBeLessThanOrEqual(Date.now() + 1000);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(1_400_000_000_000_000_000n);
    g.host.close();
  });
});

describe('the descriptor table closes the host fds behind files', () => {
  it('fd_close closes the host fd; fd_renumber onto a file closes that one and moves the other', () => {
    const { g, root, file } = rooted('close');
    writeFileSync(path.join(root, 'other.txt'), 'other');
    const other = path.join(root, 'other.txt');
    const a = g.open(3, 'file.txt', 0, RO);
    const b = g.open(3, 'other.txt', 0, RO);
    const [hostA] = hostFdsOn(file);
    expect(hostFdsOn(other)).toHaveLength(1);
    expect(g.call('fd_renumber', a, a)).toBe(Errno.SUCCESS);
    g.setIovecs([[BUF, 5]]);
    expect(g.call('fd_pread', a, IOV, 1, 0n, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.call('fd_renumber', a, b)).toBe(Errno.SUCCESS);
    expect(hostFdsOn(other)).toEqual([]);
    expect(g.call('fd_pread', a, IOV, 1, 0n, SCRATCH)).toBe(Errno.BADF);
    expect(g.call('fd_pread', b, IOV, 1, 0n, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.text(BUF, 5)).toBe('01234');
    expect(g.call('fd_close', b)).toBe(Errno.SUCCESS);
    expect(() => fstatSync(hostA as number)).toThrow(expect.objectContaining({ code: 'EBADF' }));
    expect(hostFdsOn(file)).toEqual([]);
  });

  it(`at most ${MAX_OPEN_FDS} descriptors: the next open is EMFILE and leaves no host fd; a freed number is reused`, () => {
    const { g, file } = rooted('limit');
    const opened: number[] = [];
    // 0-2 stdio and 3 the root are already in the table.
    for (let i = 4; i < MAX_OPEN_FDS; i++) opened.push(g.open(3, 'file.txt', 0, RO));
    expect(opened).toEqual(Array.from({ length: MAX_OPEN_FDS - 4 }, (_, i) => i + 4));
    expect(hostFdsOn(file)).toHaveLength(MAX_OPEN_FDS - 4);
    expect(g.call('path_open', 3, 0, 256, g.setPath('file.txt'), 0, RO, 0n, 0, SCRATCH)).toBe(Errno.MFILE);
    expect(g.call('path_open', 3, 0, 256, g.setPath('sub'), OFlags.DIRECTORY, Rights.FD_READDIR, 0n, 0, SCRATCH)).toBe(Errno.MFILE);
    expect(hostFdsOn(file)).toHaveLength(MAX_OPEN_FDS - 4);
    expect(g.call('fd_close', 10)).toBe(Errno.SUCCESS);
    expect(g.open(3, 'file.txt', 0, RO)).toBe(10);
    g.host.close();
    expect(hostFdsOn(file)).toEqual([]);
  });

  it('closing the instance closes every host fd it opened, and only files hold one', () => {
    const { g, root, file } = rooted('close-all');
    g.open(3, 'file.txt', 0, RO);
    g.open(3, 'file.txt', 0, RW);
    g.open(3, 'sub', OFlags.DIRECTORY, Rights.FD_READDIR);
    expect(hostFdsOn(file)).toHaveLength(2);
    expect(hostFdsOn(path.join(root, 'sub'))).toEqual([]);
    g.host.close();
    expect(hostFdsOn(file)).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });
});
