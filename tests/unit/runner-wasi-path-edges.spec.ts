/**
 * The path calls of hookbox's WASI (host/runner/wasi/path-calls.ts,
 * path-resolver.ts) at their edges, on a real tree with real symlinks:
 * whether each call follows a final symlink (WASI `LOOKUP_SYMLINK_FOLLOW`,
 * or never for the calls that change a name), the `path_open` flag rules,
 * `fd_readdir`'s dirent bytes, cookies and truncation, `fd_prestat_*` on
 * descriptors that are not preopens, and `path_symlink`'s target rule.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errno, FdFlags, Filetype, FstFlags, LOOKUP_SYMLINK_FOLLOW, OFlags, Rights } from '../../host/runner/wasi/errno.ts';
import { BUF, PATH, SCRATCH, hostFdsOn, wasiGuest } from '../helpers/wasi-guest.ts';

const FOLLOW = LOOKUP_SYMLINK_FOLLOW;
const RO = Rights.FD_READ | Rights.FD_SEEK;

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-wasi-path-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/**
 * A fresh root: `file.txt` ("content"), `dir/` (holding `inner`), `link` →
 * file.txt, `dirlink` → dir, `dangling` → missing. fd 3 is the root.
 */
function rooted(name: string, write = true) {
  const root = path.join(base, name);
  mkdirSync(path.join(root, 'dir'), { recursive: true });
  writeFileSync(path.join(root, 'file.txt'), 'content');
  writeFileSync(path.join(root, 'dir', 'inner'), 'inner');
  symlinkSync('file.txt', path.join(root, 'link'));
  symlinkSync('dir', path.join(root, 'dirlink'));
  symlinkSync('missing', path.join(root, 'dangling'));
  const g = wasiGuest({ preopens: [{ guest: '/r', host: root, write }], env: {}, clock: false });
  const at = (...parts: string[]) => path.join(root, ...parts);
  return { g, root, at };
}

/** `from` (at PATH), then fd 3 and `to` (at PATH + 128): the tail of the two-path calls. */
function twoPaths(g: ReturnType<typeof wasiGuest>, from: string, to: string): [number, number, number, number, number] {
  return [PATH, g.setPath(from), 3, PATH + 128, g.setPath(to, PATH + 128)];
}

describe('path_open', () => {
  it('a final symlink is followed only with LOOKUP_SYMLINK_FOLLOW; without, the open is ELOOP (O_NOFOLLOW)', () => {
    const { g } = rooted('open-follow');
    const fd = g.open(3, 'link', 0, RO, 0, FOLLOW);
    g.setIovecs([[BUF, 16]]);
    expect(g.call('fd_read', fd, 512, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.text(BUF, g.u32())).toBe('content');
    expect(g.call('path_open', 3, 0, PATH, g.setPath('link'), 0, RO, 0n, 0, SCRATCH)).toBe(Errno.LOOP);
    g.host.close();
  });

  it('a directory opens as a directory with or without O_DIRECTORY; O_DIRECTORY on a file is ENOTDIR, on nothing ENOENT', () => {
    const { g } = rooted('open-dir');
    for (const oflags of [0, OFlags.DIRECTORY]) {
      const fd = g.open(3, 'dir', oflags, Rights.FD_READDIR);
      expect(g.call('fd_fdstat_get', fd, BUF)).toBe(Errno.SUCCESS);
      expect(g.bytes[BUF]).toBe(Filetype.DIRECTORY);
      expect(g.call('fd_prestat_get', fd, SCRATCH)).toBe(Errno.BADF);
      expect(g.call('fd_prestat_dir_name', fd, BUF, 64)).toBe(Errno.BADF);
    }
    expect(g.call('path_open', 3, 0, PATH, g.setPath('file.txt'), OFlags.DIRECTORY, RO, 0n, 0, SCRATCH)).toBe(Errno.NOTDIR);
    expect(g.call('path_open', 3, 0, PATH, g.setPath('nothing'), OFlags.DIRECTORY, RO, 0n, 0, SCRATCH)).toBe(Errno.NOENT);
    expect(existsSync(path.join(base, 'open-dir', 'nothing'))).toBe(false);
    g.host.close();
  });

  it('a directory with CREAT|EXCL is EEXIST; asked for writing or truncation it is EISDIR', () => {
    const { g } = rooted('open-dir-write');
    const open = (oflags: number, rights: bigint) => g.call('path_open', 3, 0, PATH, g.setPath('dir'), oflags, rights, 0n, 0, SCRATCH);
    expect(open(OFlags.CREAT | OFlags.EXCL | OFlags.DIRECTORY, Rights.FD_READDIR)).toBe(Errno.EXIST);
    expect(open(OFlags.CREAT | OFlags.EXCL, Rights.FD_READ)).toBe(Errno.EXIST);
    expect(open(0, Rights.FD_WRITE)).toBe(Errno.ISDIR);
    expect(open(OFlags.TRUNC, Rights.FD_READ)).toBe(Errno.ISDIR);
    g.host.close();
  });

  it('CREAT makes a missing file and opens an existing one; with EXCL an existing one is EEXIST; no CREAT, ENOENT', () => {
    const { g, at } = rooted('open-creat');
    const rw = Rights.FD_READ | Rights.FD_WRITE;
    expect(g.call('path_open', 3, 0, PATH, g.setPath('new.txt'), 0, RO, 0n, 0, SCRATCH)).toBe(Errno.NOENT);
    expect(existsSync(at('new.txt'))).toBe(false);
    g.open(3, 'new.txt', OFlags.CREAT | OFlags.EXCL, rw);
    expect(existsSync(at('new.txt'))).toBe(true);
    g.open(3, 'file.txt', OFlags.CREAT, rw);
    expect(readFileSync(at('file.txt'), 'utf8')).toBe('content');
    expect(g.call('path_open', 3, 0, PATH, g.setPath('file.txt'), OFlags.CREAT | OFlags.EXCL, rw, 0n, 0, SCRATCH)).toBe(Errno.EXIST);
    g.open(3, 'file.txt', OFlags.TRUNC, rw);
    expect(readFileSync(at('file.txt'), 'utf8')).toBe('');
    g.host.close();
  });

  it('a read-only root refuses APPEND as write intent; rights beyond the root are dropped from the fd', () => {
    const { g } = rooted('open-ro', false);
    expect(g.call('path_open', 3, 0, PATH, g.setPath('file.txt'), 0, Rights.FD_READ, 0n, FdFlags.APPEND, SCRATCH)).toBe(Errno.NOTCAPABLE);
    const asked = Rights.FD_READ | Rights.FD_DATASYNC | Rights.PATH_CREATE_FILE;
    expect(g.call('path_open', 3, 0, PATH, g.setPath('file.txt'), 0, asked, asked, 0, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.call('fd_fdstat_get', g.u32(), BUF)).toBe(Errno.SUCCESS);
    expect([g.u64(BUF + 8), g.u64(BUF + 16)]).toEqual([Rights.FD_READ, Rights.FD_READ]);
    g.host.close();
  });

  it('path_open relative to a file or stdio is ENOTDIR', () => {
    const { g } = rooted('open-not-dir');
    const fd = g.open(3, 'file.txt', 0, RO);
    expect(g.call('path_open', fd, 0, PATH, g.setPath('x'), 0, RO, 0n, 0, SCRATCH)).toBe(Errno.NOTDIR);
    expect(g.call('path_open', 1, 0, PATH, g.setPath('x'), 0, RO, 0n, 0, SCRATCH)).toBe(Errno.NOTDIR);
    expect(g.call('path_filestat_get', fd, 0, PATH, g.setPath('x'), SCRATCH)).toBe(Errno.NOTDIR);
    g.host.close();
  });

  it('a root that is no longer at its realpath is refused and no host fd stays open', () => {
    // A preopen whose host path goes through a symlinked parent: the root the
    // walk opens is, by /proc/self/fd, not the directory the grant names, as
    // when a directory above the root is swapped for a link after load.
    const real = path.join(base, 'landing-real');
    mkdirSync(path.join(real, 'root'), { recursive: true });
    writeFileSync(path.join(real, 'root', 'f'), 'x');
    symlinkSync(real, path.join(base, 'landing-link'));
    const g = wasiGuest({ preopens: [{ guest: '/r', host: path.join(base, 'landing-link', 'root'), write: false }], env: {}, clock: false });
    expect(g.call('path_open', 3, 0, PATH, g.setPath('f'), 0, RO, 0n, 0, SCRATCH)).toBe(Errno.NOTCAPABLE);
    expect(hostFdsOn(path.join(real, 'root', 'f'))).toEqual([]);
    g.host.close();
  });
});

describe('calls that name a path follow a final symlink only when asked', () => {
  it('path_filestat_get: the link itself (type 7) or, with FOLLOW, its target; the 64 bytes at their offsets', () => {
    const { g, at } = rooted('filestat');
    for (const [flags, host] of [[0, at('link')], [FOLLOW, at('file.txt')]] as const) {
      g.bytes.fill(0xee, BUF, BUF + 64);
      expect(g.call('path_filestat_get', 3, flags, PATH, g.setPath('link'), BUF)).toBe(Errno.SUCCESS);
      const stat = lstatSync(host, { bigint: true });
      expect([g.u64(BUF), g.u64(BUF + 8), g.u64(BUF + 16)]).toEqual([stat.dev, stat.ino, BigInt(flags === 0 ? Filetype.SYMBOLIC_LINK : Filetype.REGULAR_FILE)]);
      expect([g.u64(BUF + 24), g.u64(BUF + 32)]).toEqual([stat.nlink, stat.size]);
      expect([g.u64(BUF + 40), g.u64(BUF + 48), g.u64(BUF + 56)]).toEqual([stat.atimeNs, stat.mtimeNs, stat.ctimeNs]);
    }
    expect(g.call('path_filestat_get', 3, 0, PATH, g.setPath('dir'), BUF)).toBe(Errno.SUCCESS);
    expect(g.bytes[BUF + 16]).toBe(Filetype.DIRECTORY);
    expect(g.call('path_filestat_get', 3, 0, PATH, g.setPath('nothing'), BUF)).toBe(Errno.NOENT);
    expect(g.call('path_filestat_get', 3, FOLLOW, PATH, g.setPath('dangling'), BUF)).toBe(Errno.NOENT);
  });

  it('path_filestat_get tells character devices and other kinds (a FIFO) apart', () => {
    const { root } = rooted('kinds');
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    const g = wasiGuest({ preopens: [{ guest: '/dev', host: '/dev', write: false }, { guest: '/r', host: root, write: false }], env: {}, clock: false });
    expect(g.call('path_filestat_get', 3, 0, PATH, g.setPath('null'), BUF)).toBe(Errno.SUCCESS);
    expect(g.bytes[BUF + 16]).toBe(Filetype.CHARACTER_DEVICE);
    expect(g.call('path_filestat_get', 4, 0, PATH, g.setPath('fifo'), BUF)).toBe(Errno.SUCCESS);
    expect(g.bytes[BUF + 16]).toBe(Filetype.UNKNOWN);
  });

  it('path_filestat_set_times: a link\'s own times without FOLLOW, the target\'s with it; ATIM with ATIM_NOW is EINVAL', () => {
    const { g, at } = rooted('set-times');
    const old = 1_000_000_000; // seconds
    utimesSync(at('file.txt'), old, old);
    const mtim = 1_500_000_000_000_000_000n;
    expect(g.call('path_filestat_set_times', 3, 0, PATH, g.setPath('link'), 0n, mtim, FstFlags.MTIM)).toBe(Errno.SUCCESS);
    expect(lstatSync(at('link'), { bigint: true }).mtimeNs).toBe(mtim);
    expect(statSync(at('file.txt'), { bigint: true }).mtimeNs).toBe(BigInt(old) * 1_000_000_000n);
    expect(g.call('path_filestat_set_times', 3, FOLLOW, PATH, g.setPath('link'), mtim, mtim, FstFlags.MTIM)).toBe(Errno.SUCCESS);
    const target = statSync(at('file.txt'), { bigint: true });
    expect([target.atimeNs, target.mtimeNs]).toEqual([BigInt(old) * 1_000_000_000n, mtim]);
    expect(g.call('path_filestat_set_times', 3, 0, PATH, g.setPath('file.txt'), 0n, 0n, FstFlags.ATIM | FstFlags.ATIM_NOW)).toBe(Errno.INVAL);
    expect(g.call('path_filestat_set_times', 3, 0, PATH, g.setPath('nothing'), 0n, 0n, FstFlags.MTIM_NOW)).toBe(Errno.NOENT);
    expect(existsSync(at('nothing'))).toBe(false);
  });

  it('path_link: the link itself without FOLLOW, its target with it; a missing source ENOENT, an existing name EEXIST', () => {
    const { g, at } = rooted('link');
    expect(g.call('path_link', 3, 0, ...twoPaths(g, 'link', 'hard-link'))).toBe(Errno.SUCCESS);
    expect(lstatSync(at('hard-link')).isSymbolicLink()).toBe(true);
    expect(g.call('path_link', 3, FOLLOW, ...twoPaths(g, 'link', 'hard-file'))).toBe(Errno.SUCCESS);
    expect(lstatSync(at('hard-file')).ino).toBe(lstatSync(at('file.txt')).ino);
    expect(g.call('path_link', 3, 0, ...twoPaths(g, 'nothing', 'x'))).toBe(Errno.NOENT);
    expect(g.call('path_link', 3, 0, ...twoPaths(g, 'file.txt', 'dangling'))).toBe(Errno.EXIST);
    expect(existsSync(at('missing'))).toBe(false);
    expect(g.call('path_link', 3, 0, ...twoPaths(g, 'file.txt', 'dir/..'))).toBe(Errno.BUSY);
  });

  it('path_readlink: the target\'s bytes and their count, cut to the buffer; not a link EINVAL, missing ENOENT', () => {
    const { g } = rooted('readlink');
    g.bytes.fill(0xee, BUF, BUF + 64);
    expect(g.call('path_readlink', 3, PATH, g.setPath('link'), BUF, 64, SCRATCH)).toBe(Errno.SUCCESS);
    expect([g.u32(), g.text(BUF, 8), g.bytes[BUF + 8]]).toEqual([8, 'file.txt', 0xee]);
    expect(g.call('path_readlink', 3, PATH, g.setPath('link'), BUF + 32, 3, SCRATCH)).toBe(Errno.SUCCESS);
    expect([g.u32(), g.text(BUF + 32, 3), g.bytes[BUF + 35]]).toEqual([3, 'fil', 0xee]);
    expect(g.call('path_readlink', 3, PATH, g.setPath('file.txt'), BUF, 64, SCRATCH)).toBe(Errno.INVAL);
    expect(g.call('path_readlink', 3, PATH, g.setPath('nothing'), BUF, 64, SCRATCH)).toBe(Errno.NOENT);
  });

  it('path_create_directory on a dangling link is EEXIST and creates nothing at its target', () => {
    const { g, at } = rooted('mkdir');
    expect(g.call('path_create_directory', 3, PATH, g.setPath('dangling'))).toBe(Errno.EXIST);
    expect(existsSync(at('missing'))).toBe(false);
    expect(g.call('path_create_directory', 3, PATH, g.setPath('dir/made'))).toBe(Errno.SUCCESS);
    expect(lstatSync(at('dir', 'made')).isDirectory()).toBe(true);
  });

  it('path_remove_directory: a link to a directory is ENOTDIR and the directory stays; a file ENOTDIR; non-empty ENOTEMPTY', () => {
    const { g, at } = rooted('rmdir');
    expect(g.call('path_remove_directory', 3, PATH, g.setPath('dirlink'))).toBe(Errno.NOTDIR);
    expect(g.call('path_remove_directory', 3, PATH, g.setPath('file.txt'))).toBe(Errno.NOTDIR);
    expect(g.call('path_remove_directory', 3, PATH, g.setPath('dir'))).toBe(Errno.NOTEMPTY);
    expect(g.call('path_remove_directory', 3, PATH, g.setPath('nothing'))).toBe(Errno.NOENT);
    expect(existsSync(at('dir', 'inner'))).toBe(true);
    rmSync(at('dir', 'inner'));
    expect(g.call('path_remove_directory', 3, PATH, g.setPath('dir'))).toBe(Errno.SUCCESS);
    expect(existsSync(at('dir'))).toBe(false);
    expect(lstatSync(at('dirlink')).isSymbolicLink()).toBe(true);
  });

  it('path_rename moves a link, not its target, and replaces a dangling link rather than creating its target', () => {
    const { g, at } = rooted('rename');
    expect(g.call('path_rename', 3, ...twoPaths(g, 'link', 'link2'))).toBe(Errno.SUCCESS);
    expect(readlinkSync(at('link2'))).toBe('file.txt');
    expect(readFileSync(at('file.txt'), 'utf8')).toBe('content');
    expect(g.call('path_rename', 3, ...twoPaths(g, 'file.txt', 'dangling'))).toBe(Errno.SUCCESS);
    expect(lstatSync(at('dangling')).isFile()).toBe(true);
    expect(existsSync(at('missing'))).toBe(false);
    expect(g.call('path_rename', 3, ...twoPaths(g, 'nothing', 'x'))).toBe(Errno.NOENT);
    expect(g.call('path_rename', 3, ...twoPaths(g, 'dir/..', 'x'))).toBe(Errno.BUSY);
    expect(g.call('path_rename', 3, ...twoPaths(g, 'dir', '.'))).toBe(Errno.BUSY);
  });

  it('path_unlink_file removes a link, not its target; a directory is EISDIR; missing ENOENT', () => {
    const { g, at } = rooted('unlink');
    expect(g.call('path_unlink_file', 3, PATH, g.setPath('link'))).toBe(Errno.SUCCESS);
    expect(existsSync(at('link'))).toBe(false);
    expect(readFileSync(at('file.txt'), 'utf8')).toBe('content');
    expect(g.call('path_unlink_file', 3, PATH, g.setPath('dirlink'))).toBe(Errno.SUCCESS);
    expect(existsSync(at('dir', 'inner'))).toBe(true);
    expect(g.call('path_unlink_file', 3, PATH, g.setPath('dir'))).toBe(Errno.ISDIR);
    expect(g.call('path_unlink_file', 3, PATH, g.setPath('nothing'))).toBe(Errno.NOENT);
  });
});

describe('path_symlink', () => {
  it('an existing name, even a dangling link, is EEXIST and nothing is made at its target', () => {
    const { g, at } = rooted('symlink-exists');
    expect(g.call('path_symlink', ...twoPaths(g, 'file.txt', 'dangling'))).toBe(Errno.EXIST);
    expect(existsSync(at('missing'))).toBe(false);
  });

  it('counts the target\'s leading `..` from the link (`.` and empty parts do not count) and refuses a `..` after a name', () => {
    const { g, at } = rooted('symlink-depth');
    const symlink = (target: string, link: string) => g.call('path_symlink', PATH, g.setPath(target), 3, PATH + 128, g.setPath(link, PATH + 128));
    expect(symlink('', 'empty')).toBe(Errno.NOTCAPABLE);
    expect(symlink('./../..', 'dir/dot')).toBe(Errno.NOTCAPABLE);
    expect(symlink('a//../..', 'slashes')).toBe(Errno.NOTCAPABLE);
    // Inside today, but `..` after a name climbs from wherever the name leads once it is swapped for a link.
    expect(symlink('x/../..', 'dir/named')).toBe(Errno.NOTCAPABLE);
    expect(symlink('./x/.//..', 'plain')).toBe(Errno.NOTCAPABLE);
    expect(symlink('.//../file.txt', 'dir/up-one')).toBe(Errno.SUCCESS);
    expect(symlink('./dir//inner', 'to-inner')).toBe(Errno.SUCCESS);
    expect(readdirSync(at()).filter((name) => ['empty', 'slashes', 'plain', 'to-inner'].includes(name)).sort()).toEqual(['to-inner']);
    expect(readFileSync(at('dir', 'up-one'), 'utf8')).toBe('content');
    expect(existsSync(at('dir', 'dot'))).toBe(false);
    expect(existsSync(at('dir', 'named'))).toBe(false);
  });
});

describe('fd_readdir and fd_prestat_*', () => {
  /** The dirents in `used` bytes at BUF: [d_next, d_ino, d_type, name]. */
  function dirents(g: ReturnType<typeof wasiGuest>, used: number): [bigint, bigint, number, string][] {
    const out: [bigint, bigint, number, string][] = [];
    for (let p = BUF; p + 24 <= BUF + used; ) {
      const length = g.u32(p + 16);
      out.push([g.u64(p), g.u64(p + 8), g.bytes[p + 20] as number, g.text(p + 24, length)]);
      p += 24 + length;
    }
    return out;
  }

  it('`.` and `..` (no inode: `..` of the root is outside it), then the entries sorted, each with its inode, type and next cookie', () => {
    const { g, at } = rooted('readdir');
    writeFileSync(at('b'), '');
    writeFileSync(at('a'), '');
    expect(g.call('fd_readdir', 3, BUF, 2048, 0n, SCRATCH)).toBe(Errno.SUCCESS);
    const ino = (name: string) => lstatSync(at(name), { bigint: true }).ino;
    const { DIRECTORY: D, REGULAR_FILE: F, SYMBOLIC_LINK: L } = Filetype;
    expect(dirents(g, g.u32())).toEqual([
      [1n, 0n, D, '.'],
      [2n, 0n, D, '..'],
      [3n, ino('a'), F, 'a'],
      [4n, ino('b'), F, 'b'],
      [5n, ino('dangling'), L, 'dangling'],
      [6n, ino('dir'), D, 'dir'],
      [7n, ino('dirlink'), L, 'dirlink'],
      [8n, ino('file.txt'), F, 'file.txt'],
      [9n, ino('link'), L, 'link'],
    ]);
    expect(g.u32()).toBe(9 * 24 + [1, 2, 1, 1, 8, 3, 7, 8, 4].reduce((a, b) => a + b, 0));
  });

  it('resumes at a cookie, and a full buffer ends in a cut record with used = the buffer size', () => {
    const { g } = rooted('readdir-cookie');
    expect(g.call('fd_readdir', 3, BUF, 2048, 5n, SCRATCH)).toBe(Errno.SUCCESS);
    expect(dirents(g, g.u32()).map((d) => d[3])).toEqual(['file.txt', 'link']);
    g.bytes.fill(0xee, BUF, BUF + 128);
    expect(g.call('fd_readdir', 3, BUF, 30, 0n, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u32()).toBe(30);
    // The first 5 bytes of the second record: its d_next, 2.
    expect([g.u64(BUF), g.text(BUF + 24, 1), [...g.bytes.subarray(BUF + 25, BUF + 31)]]).toEqual([1n, '.', [2, 0, 0, 0, 0, 0xee]]);
    expect(g.call('fd_readdir', 3, BUF, 2048, 99n, SCRATCH)).toBe(Errno.SUCCESS);
    expect(g.u32()).toBe(0);
  });

  it('a directory fd whose directory became a file: listing and stat are ENOTDIR; gone: ENOENT', () => {
    const { g, at } = rooted('readdir-swapped');
    const fd = g.open(3, 'dir', OFlags.DIRECTORY, Rights.FD_READDIR);
    rmSync(at('dir'), { recursive: true });
    expect(g.call('fd_readdir', fd, BUF, 256, 0n, SCRATCH)).toBe(Errno.NOENT);
    writeFileSync(at('dir'), 'now a file');
    expect(g.call('fd_readdir', fd, BUF, 256, 0n, SCRATCH)).toBe(Errno.NOTDIR);
    expect(g.call('fd_filestat_get', fd, BUF)).toBe(Errno.NOTDIR);
  });

  it('fd_prestat_get: tag 0 and the byte length of the guest name; stdio and files are EBADF', () => {
    const root = rooted('prestat').root;
    const g = wasiGuest({ preopens: [{ guest: '/dätä', host: root, write: false }], env: {}, clock: false });
    g.bytes.fill(0xee, SCRATCH, SCRATCH + 8);
    expect(g.call('fd_prestat_get', 3, SCRATCH)).toBe(Errno.SUCCESS);
    expect([g.u32(SCRATCH), g.u32(SCRATCH + 4)]).toEqual([0, 7]);
    expect(g.call('fd_prestat_dir_name', 3, BUF, 7)).toBe(Errno.SUCCESS);
    expect(g.text(BUF, 7)).toBe('/dätä');
    const fd = g.open(3, 'file.txt', 0, RO);
    expect([g.call('fd_prestat_get', fd, SCRATCH), g.call('fd_prestat_dir_name', fd, BUF, 64)]).toEqual([Errno.BADF, Errno.BADF]);
    expect(g.call('fd_prestat_dir_name', 0, BUF, 64)).toBe(Errno.BADF);
    g.host.close();
  });
});

describe('path_open asks the host for what the guest may do, and nested directory fds', () => {
  it('a read-only open asks the host for read access only: a file it cannot write (a running executable) still opens', () => {
    // Opening a running executable for writing is ETXTBSY even for root.
    const executable = realpathSync(process.execPath);
    const g = wasiGuest({ preopens: [{ guest: '/bin', host: path.dirname(executable), write: true }], env: {}, clock: false });
    const fd = g.open(3, path.basename(executable), 0, RO);
    g.setIovecs([[BUF, 4]]);
    expect(g.call('fd_read', fd, 512, 1, SCRATCH)).toBe(Errno.SUCCESS);
    expect([...g.bytes.subarray(BUF, BUF + 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]); // ELF
    // The premise: the host refuses it for writing (ETXTBSY).
    expect(g.call('path_open', 3, 0, PATH, g.setPath(path.basename(executable)), 0, Rights.FD_WRITE, 0n, 0, SCRATCH)).toBe(Errno.TXTBSY);
    g.host.close();
  });

  it('a directory two levels down is re-resolved by all its components', () => {
    const { g, at } = rooted('nested');
    mkdirSync(at('dir', 'deeper'));
    writeFileSync(at('dir', 'deeper', 'leaf'), '');
    const fd = g.open(3, 'dir/deeper', OFlags.DIRECTORY, Rights.FD_READDIR);
    expect(g.call('fd_readdir', fd, BUF, 256, 2n, SCRATCH)).toBe(Errno.SUCCESS);
    expect([g.u32(), g.u64(BUF + 8), g.text(BUF + 24, 4)]).toEqual([28, lstatSync(at('dir', 'deeper', 'leaf'), { bigint: true }).ino, 'leaf']);
    expect(g.call('fd_filestat_get', fd, BUF)).toBe(Errno.SUCCESS);
    expect(g.u64(BUF + 8)).toBe(lstatSync(at('dir', 'deeper'), { bigint: true }).ino);
  });
});
