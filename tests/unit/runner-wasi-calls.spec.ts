/**
 * Each WASI preview1 call of hookbox's layer (host/runner/wasi/), called the
 * way the Extism SDK calls host functions, on a real guest-sized memory and
 * real files: what it answers with nothing granted, and what a read-only or
 * writable grant changes.
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errno, OFlags, Rights } from '../../host/runner/wasi/errno.ts';
import { type WasiGrant, WasiExit } from '../../host/runner/wasi/index.ts';
import { WASI_FUNCTIONS } from '../../host/runner/wasi/names.ts';
import { BUF, IOV, PATH, SCRATCH, wasiGuest } from '../helpers/wasi-guest.ts';

/** Every function of `wasi_snapshot_preview1` (the witx), sorted. */
const PREVIEW1 = [
  'args_get', 'args_sizes_get', 'clock_res_get', 'clock_time_get', 'environ_get', 'environ_sizes_get',
  'fd_advise', 'fd_allocate', 'fd_close', 'fd_datasync', 'fd_fdstat_get', 'fd_fdstat_set_flags', 'fd_fdstat_set_rights',
  'fd_filestat_get', 'fd_filestat_set_size', 'fd_filestat_set_times', 'fd_pread', 'fd_prestat_dir_name', 'fd_prestat_get',
  'fd_pwrite', 'fd_read', 'fd_readdir', 'fd_renumber', 'fd_seek', 'fd_sync', 'fd_tell', 'fd_write',
  'path_create_directory', 'path_filestat_get', 'path_filestat_set_times', 'path_link', 'path_open', 'path_readlink',
  'path_remove_directory', 'path_rename', 'path_symlink', 'path_unlink_file',
  'poll_oneoff', 'proc_exit', 'proc_raise', 'random_get', 'sched_yield',
  'sock_accept', 'sock_recv', 'sock_send', 'sock_shutdown',
];

const guest = (grant?: WasiGrant) => wasiGuest(grant);

describe('hookbox WASI with nothing granted', () => {
  it('serves exactly the 46 preview1 functions', () => {
    expect(Object.keys(guest().host.functions).sort()).toEqual(PREVIEW1);
  });

  it('the name list in wasi/names.ts is exactly preview1, each function once', () => {
    expect([...WASI_FUNCTIONS].sort()).toEqual(PREVIEW1);
  });

  it('every fd call on an fd that does not exist is EBADF, every path call too (no preopens)', () => {
    const g = guest();
    const fd = 3;
    const answers: Record<string, number> = {
      fd_advise: g.call('fd_advise', fd, 0n, 0n, 0),
      fd_allocate: g.call('fd_allocate', fd, 0n, 1n),
      fd_close: g.call('fd_close', fd),
      fd_datasync: g.call('fd_datasync', fd),
      fd_fdstat_get: g.call('fd_fdstat_get', fd, SCRATCH),
      fd_fdstat_set_flags: g.call('fd_fdstat_set_flags', fd, 0),
      fd_fdstat_set_rights: g.call('fd_fdstat_set_rights', fd, 0n, 0n),
      fd_filestat_get: g.call('fd_filestat_get', fd, SCRATCH),
      fd_filestat_set_size: g.call('fd_filestat_set_size', fd, 0n),
      fd_filestat_set_times: g.call('fd_filestat_set_times', fd, 0n, 0n, 0),
      fd_pread: g.call('fd_pread', fd, IOV, 1, 0n, SCRATCH),
      fd_prestat_dir_name: g.call('fd_prestat_dir_name', fd, SCRATCH, 16),
      fd_prestat_get: g.call('fd_prestat_get', fd, SCRATCH),
      fd_pwrite: g.call('fd_pwrite', fd, IOV, 1, 0n, SCRATCH),
      fd_read: g.call('fd_read', fd, IOV, 1, SCRATCH),
      fd_readdir: g.call('fd_readdir', fd, BUF, 256, 0n, SCRATCH),
      fd_renumber: g.call('fd_renumber', fd, 1),
      fd_seek: g.call('fd_seek', fd, 0n, 0, SCRATCH),
      fd_sync: g.call('fd_sync', fd),
      fd_tell: g.call('fd_tell', fd, SCRATCH),
      fd_write: g.call('fd_write', fd, IOV, 1, SCRATCH),
      path_create_directory: g.call('path_create_directory', fd, PATH, g.setPath('x')),
      path_filestat_get: g.call('path_filestat_get', fd, 1, PATH, 1, SCRATCH),
      path_filestat_set_times: g.call('path_filestat_set_times', fd, 1, PATH, 1, 0n, 0n, 0),
      path_link: g.call('path_link', fd, 0, PATH, 1, fd, PATH, 1),
      path_open: g.call('path_open', fd, 1, PATH, 1, 0, Rights.FD_READ, 0n, 0, SCRATCH),
      path_readlink: g.call('path_readlink', fd, PATH, 1, BUF, 64, SCRATCH),
      path_remove_directory: g.call('path_remove_directory', fd, PATH, 1),
      path_rename: g.call('path_rename', fd, PATH, 1, fd, PATH, 1),
      path_symlink: g.call('path_symlink', PATH, 1, fd, PATH, 1),
      path_unlink_file: g.call('path_unlink_file', fd, PATH, 1),
      sock_accept: g.call('sock_accept', fd, 0, SCRATCH),
      sock_recv: g.call('sock_recv', fd, IOV, 1, 0, SCRATCH, SCRATCH + 4),
      sock_send: g.call('sock_send', fd, IOV, 1, 0, SCRATCH),
      sock_shutdown: g.call('sock_shutdown', fd, 0),
    };
    for (const [name, errno] of Object.entries(answers)) expect([name, errno]).toEqual([name, Errno.BADF]);
  });

  it('no clock: ENOTCAPABLE and nothing written; no environment, no arguments; random works; nothing to poll', () => {
    const g = guest();
    g.view.setBigUint64(SCRATCH, 0xdeadn, true);
    expect(g.call('clock_time_get', 0, 1n, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('clock_time_get', 1, 1n, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('clock_res_get', 1, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.view.getBigUint64(SCRATCH, true)).toBe(0xdeadn);
    g.view.setUint32(SCRATCH, 99, true);
    g.view.setUint32(SCRATCH + 4, 99, true);
    expect(g.call('environ_sizes_get', SCRATCH, SCRATCH + 4)).toBe(Errno.SUCCESS);
    expect([g.view.getUint32(SCRATCH, true), g.view.getUint32(SCRATCH + 4, true)]).toEqual([0, 0]);
    expect(g.call('environ_get', SCRATCH, BUF)).toBe(Errno.SUCCESS);
    expect(g.call('args_sizes_get', SCRATCH, SCRATCH + 4)).toBe(Errno.SUCCESS);
    expect([g.view.getUint32(SCRATCH, true), g.view.getUint32(SCRATCH + 4, true)]).toEqual([0, 0]);
    expect(g.call('args_get', SCRATCH, BUF)).toBe(Errno.SUCCESS);
    expect(g.call('random_get', BUF, 64)).toBe(Errno.SUCCESS);
    expect(g.bytes.subarray(BUF, BUF + 64).some((b) => b !== 0)).toBe(true);
    expect(g.call('poll_oneoff', BUF, SCRATCH, 1, SCRATCH + 8)).toBe(Errno.NOSYS);
    expect(g.call('proc_raise', 9)).toBe(Errno.NOSYS);
    expect(g.call('sched_yield')).toBe(Errno.SUCCESS);
    expect(() => g.call('proc_exit', 7)).toThrow(WasiExit);
    expect(g.call('sock_accept', 1, 0, SCRATCH)).toBe(Errno.NOTSOCK);
  });

  it('virtual stdio: stdin is at EOF, stdout/stderr go to the log sink, and describe no host file', () => {
    const g = guest();
    g.view.setUint32(SCRATCH, 99, true);
    expect(g.call('fd_read', 0, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.view.getUint32(SCRATCH, true)).toBe(0);
    g.setData('to stdout\npartial');
    expect(g.call('fd_write', 1, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.view.getUint32(SCRATCH, true)).toBe('to stdout\npartial'.length);
    g.setData('to stderr\n');
    expect(g.call('fd_write', 2, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    g.host.flush();
    expect(g.sink.drain()).toEqual([
      { level: 'info', message: 'to stdout' },
      { level: 'warn', message: 'to stderr' },
      { level: 'info', message: 'partial' },
    ]);
    expect(g.call('fd_write', 0, IOV, 1, SCRATCH)).toBe(Errno.BADF);
    expect(g.call('fd_read', 1, IOV, 1, SCRATCH)).toBe(Errno.BADF);
    expect(g.call('fd_seek', 1, 0n, 0, SCRATCH)).toBe(Errno.SPIPE);
    // fd_filestat_get: a character device with no dev/ino/size/timestamps.
    g.bytes.fill(0xff, SCRATCH, SCRATCH + 64);
    expect(g.call('fd_filestat_get', 1, SCRATCH)).toBe(Errno.SUCCESS);
    const stat = [...g.bytes.subarray(SCRATCH, SCRATCH + 64)];
    expect(stat[16]).toBe(2);
    expect(stat.filter((b, i) => i !== 16 && b !== 0)).toEqual([]);
    expect(g.call('fd_prestat_get', 1, SCRATCH)).toBe(Errno.BADF);
  });

  it('fd_close and fd_renumber only edit the guest table', () => {
    const g = guest();
    expect(g.call('fd_close', 1)).toBe(Errno.SUCCESS);
    g.setData('x\n');
    expect(g.call('fd_write', 1, IOV, 1, SCRATCH)).toBe(Errno.BADF);
    expect(g.call('fd_close', 1)).toBe(Errno.BADF);
    expect(g.call('fd_renumber', 2, 1)).toBe(Errno.BADF); // the target must be open
    expect(g.call('fd_renumber', 2, 0)).toBe(Errno.SUCCESS);
    expect(g.call('fd_write', 0, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS); // stderr, now at 0
    expect(g.call('fd_write', 2, IOV, 1, SCRATCH)).toBe(Errno.BADF);
    g.host.flush();
    expect(g.sink.drain()).toEqual([{ level: 'warn', message: 'x' }]);
  });

  it('a pointer outside the guest memory is EFAULT, not a host exception', () => {
    const g = guest();
    expect(g.call('random_get', 65_530, 64)).toBe(Errno.FAULT);
    expect(g.call('fd_write', 1, 65_532, 1, SCRATCH)).toBe(Errno.FAULT);
    expect(g.call('args_sizes_get', 70_000, 0)).toBe(Errno.FAULT);
  });
});

describe('hookbox WASI with grants', () => {
  let base: string;
  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-wasi-calls-')));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const tree = (name: string): string => {
    const root = path.join(base, name);
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    writeFileSync(path.join(root, 'sub', 'file.txt'), 'hello');
    return root;
  };

  it('clock and environment: only when granted', () => {
    const g = guest({ preopens: [], env: { ONLY: 'this' }, clock: true });
    expect(g.call('clock_time_get', 0, 1n, SCRATCH)).toBe(Errno.SUCCESS);
    expect(Number(g.view.getBigUint64(SCRATCH, true) / 1_000_000n)).toBeGreaterThan(Date.UTC(2020, 0));
    expect(g.call('clock_time_get', 9, 1n, SCRATCH)).toBe(Errno.INVAL);
    expect(g.call('environ_sizes_get', SCRATCH, SCRATCH + 4)).toBe(Errno.SUCCESS);
    expect([g.view.getUint32(SCRATCH, true), g.view.getUint32(SCRATCH + 4, true)]).toEqual([1, 'ONLY=this\0'.length]);
    expect(g.call('environ_get', SCRATCH, BUF)).toBe(Errno.SUCCESS);
    expect(g.view.getUint32(SCRATCH, true)).toBe(BUF);
    expect(new TextDecoder().decode(g.bytes.subarray(BUF, BUF + 10))).toBe('ONLY=this\0');
  });

  it('a read-only grant: the preopen is named, files read, nothing changes', () => {
    const root = tree('ro');
    const g = guest({ preopens: [{ guest: '/data', host: root, write: false }], env: {}, clock: false });
    expect(g.call('fd_prestat_get', 3, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.view.getUint32(SCRATCH + 4, true)).toBe(5);
    expect(g.call('fd_prestat_dir_name', 3, BUF, 5)).toBe(Errno.SUCCESS);
    expect(new TextDecoder().decode(g.bytes.subarray(BUF, BUF + 5))).toBe('/data');
    expect(g.call('fd_prestat_dir_name', 3, BUF, 4)).toBe(Errno.NOBUFS);
    // read
    expect(g.call('path_open', 3, 1, PATH, g.setPath('sub/file.txt'), 0, Rights.FD_READ | Rights.FD_SEEK, 0n, 0, SCRATCH)).toBe(Errno.SUCCESS);
    const fd = g.view.getUint32(SCRATCH, true);
    expect(fd).toBe(4);
    g.view.setUint32(IOV + 4, 64, true);
    g.view.setUint32(IOV, BUF, true);
    expect(g.call('fd_read', fd, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(new TextDecoder().decode(g.bytes.subarray(BUF, BUF + g.view.getUint32(SCRATCH, true)))).toBe('hello');
    expect(g.call('fd_write', fd, IOV, 1, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_filestat_set_size', fd, 0n)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_close', fd)).toBe(Errno.SUCCESS);
    // no change of any kind
    const write = Rights.FD_READ | Rights.FD_WRITE;
    expect(g.call('path_open', 3, 1, PATH, g.setPath('sub/file.txt'), 0, write, 0n, 0, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_open', 3, 1, PATH, g.setPath('new.txt'), OFlags.CREAT, Rights.FD_READ, 0n, 0, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_open', 3, 1, PATH, g.setPath('sub/file.txt'), OFlags.TRUNC, Rights.FD_READ, 0n, 0, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_create_directory', 3, PATH, g.setPath('newdir'))).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_unlink_file', 3, PATH, g.setPath('sub/file.txt'))).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_remove_directory', 3, PATH, g.setPath('sub'))).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_rename', 3, PATH, g.setPath('sub'), 3, PATH, 3)).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_symlink', PATH, g.setPath('sub'), 3, PATH, 3)).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_filestat_set_times', 3, 0, PATH, g.setPath('sub'), 0n, 0n, 2)).toBe(Errno.NOTCAPABLE);
    // fdstat of the preopen holds no write right
    expect(g.call('fd_fdstat_get', 3, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.view.getUint8(SCRATCH)).toBe(3);
    expect(g.view.getBigUint64(SCRATCH + 8, true) & Rights.FD_WRITE).toBe(0n);
    expect(g.view.getBigUint64(SCRATCH + 16, true) & Rights.PATH_CREATE_FILE).toBe(0n);
    expect(readdirSync(root).sort()).toEqual(['sub']);
    expect(readdirSync(path.join(root, 'sub'))).toEqual(['file.txt']);
  });

  it('fd_readdir lists an opened directory, re-resolved at each call', () => {
    const root = tree('list');
    const g = guest({ preopens: [{ guest: '/data', host: root, write: false }], env: {}, clock: false });
    expect(g.call('path_open', 3, 1, PATH, g.setPath('sub'), OFlags.DIRECTORY, Rights.FD_READDIR, 0n, 0, SCRATCH)).toBe(Errno.SUCCESS);
    const fd = g.view.getUint32(SCRATCH, true);
    expect(g.call('fd_readdir', fd, BUF, 1024, 0n, SCRATCH)).toBe(Errno.SUCCESS);
    const used = g.view.getUint32(SCRATCH, true);
    const names: string[] = [];
    for (let at = BUF; at < BUF + used; ) {
      const length = g.view.getUint32(at + 16, true);
      names.push(new TextDecoder().decode(g.bytes.subarray(at + 24, at + 24 + length)));
      at += 24 + length;
    }
    expect(names).toEqual(['.', '..', 'file.txt']);
    // The directory is swapped for a symlink out of the root: the next listing is refused.
    rmSync(path.join(root, 'sub'), { recursive: true });
    symlinkSync('..', path.join(root, 'sub'));
    expect(g.call('fd_readdir', fd, BUF, 1024, 0n, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(g.call('fd_filestat_get', fd, SCRATCH)).toBe(Errno.NOTCAPABLE);
  });

  it('a write grant creates, writes, renames and removes inside its root only', () => {
    const root = tree('rw');
    const g = guest({ preopens: [{ guest: '/w', host: root, write: true }], env: {}, clock: false });
    const rw = Rights.FD_READ | Rights.FD_WRITE | Rights.FD_SEEK;
    expect(g.call('path_open', 3, 1, PATH, g.setPath('made.txt'), OFlags.CREAT, rw, 0n, 0, SCRATCH)).toBe(Errno.SUCCESS);
    const fd = g.view.getUint32(SCRATCH, true);
    g.setData('written');
    expect(g.call('fd_write', fd, IOV, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.call('fd_tell', fd, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.view.getBigUint64(SCRATCH, true)).toBe(7n);
    expect(g.call('fd_close', fd)).toBe(Errno.SUCCESS);
    expect(g.call('path_create_directory', 3, PATH, g.setPath('dir'))).toBe(Errno.SUCCESS);
    const from = g.setPath('made.txt');
    g.bytes.set(new TextEncoder().encode('dir/moved.txt'), PATH + 64);
    expect(g.call('path_rename', 3, PATH, from, 3, PATH + 64, 13)).toBe(Errno.SUCCESS);
    expect(g.call('path_symlink', PATH, g.setPath('../..'), 3, PATH + 64, 13)).toBe(Errno.EXIST);
    g.bytes.set(new TextEncoder().encode('dir/evil'), PATH + 64);
    expect(g.call('path_symlink', PATH, g.setPath('../..'), 3, PATH + 64, 8)).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_symlink', PATH, g.setPath('/etc'), 3, PATH + 64, 8)).toBe(Errno.NOTCAPABLE);
    expect(g.call('path_symlink', PATH, g.setPath('../sub'), 3, PATH + 64, 8)).toBe(Errno.SUCCESS);
    expect(g.call('path_remove_directory', 3, PATH, g.setPath('.'))).toBe(Errno.BUSY);
    expect(g.call('path_unlink_file', 3, PATH, g.setPath('../x'))).toBe(Errno.NOTCAPABLE);
    expect(readdirSync(path.join(root, 'dir')).sort()).toEqual(['evil', 'moved.txt']);
  });
});
