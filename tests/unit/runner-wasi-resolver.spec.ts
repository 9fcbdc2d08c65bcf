/**
 * The path resolver of hookbox's WASI (host/runner/wasi/path-resolver.ts):
 * every guest path is walked component by component inside the root's
 * realpath, on a real directory tree with real symlinks.
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errno } from '../../host/runner/wasi/errno.ts';
import { MAX_SYMLINKS, resolveInRoot } from '../../host/runner/wasi/path-resolver.ts';
import { errnoOf } from '../helpers/wasi-guest.ts';

let base: string;
let root: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-resolver-')));
  root = path.join(base, 'root');
  mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(root, 'a', 'f'), 'file');
  writeFileSync(path.join(base, 'outside'), 'outside');
  symlinkSync('..', path.join(root, 'up'));
  symlinkSync('/', path.join(root, 'slash'));
  symlinkSync(path.join(root, 'a'), path.join(root, 'abs-in'));
  symlinkSync('/etc', path.join(root, 'abs-out'));
  symlinkSync('chain2', path.join(root, 'chain1'));
  symlinkSync('chain3', path.join(root, 'chain2'));
  symlinkSync('a', path.join(root, 'chain3'));
  symlinkSync('loop2', path.join(root, 'loop1'));
  symlinkSync('loop1', path.join(root, 'loop2'));
  symlinkSync('missing', path.join(root, 'dangling'));
  symlinkSync('../outside', path.join(root, 'dangling-out'));
  symlinkSync('..', path.join(root, 'a', 'back'));
  symlinkSync('.', path.join(root, 'self'));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const rel = (guestPath: string, follow = true, at: string[] = []) => resolveInRoot(root, at, guestPath, follow).rel;

describe('resolveInRoot', () => {
  it('walks plain paths, `.` and `..` inside the root', () => {
    expect(rel('a/b')).toEqual(['a', 'b']);
    expect(rel('./a//b/')).toEqual(['a', 'b']);
    expect(rel('a/../a/b/..')).toEqual(['a']);
    expect(rel('.')).toEqual([]);
    expect(resolveInRoot(root, [], 'a/b', true).host).toBe(path.join(root, 'a', 'b'));
    expect(rel('..', true, ['a'])).toEqual([]);
  });

  it('never climbs out with `..`, and refuses absolute paths', () => {
    expect(errnoOf(() => rel('..'))).toBe(Errno.NOTCAPABLE);
    expect(errnoOf(() => rel('a/../..'))).toBe(Errno.NOTCAPABLE);
    expect(errnoOf(() => rel('../..', true, ['a']))).toBe(Errno.NOTCAPABLE);
    expect(errnoOf(() => rel('/etc/passwd'))).toBe(Errno.NOTCAPABLE);
    expect(errnoOf(() => rel(root))).toBe(Errno.NOTCAPABLE);
  });

  it('follows a symlink only while it stays inside the root', () => {
    expect(errnoOf(() => rel('up/outside'))).toBe(Errno.NOTCAPABLE);
    expect(errnoOf(() => rel('slash/etc/passwd'))).toBe(Errno.NOTCAPABLE);
    expect(errnoOf(() => rel('abs-out/passwd'))).toBe(Errno.NOTCAPABLE);
    expect(errnoOf(() => rel('dangling-out'))).toBe(Errno.NOTCAPABLE);
    expect(rel('abs-in/b')).toEqual(['a', 'b']); // absolute, but inside the root's realpath
    expect(rel('a/back/a/b')).toEqual(['a', 'b']);
    expect(rel('self/self/a')).toEqual(['a']);
  });

  it('follows chains, stops loops with ELOOP, and leaves a final link alone without follow', () => {
    expect(rel('chain1/b')).toEqual(['a', 'b']);
    expect(rel('chain1')).toEqual(['a']);
    expect(errnoOf(() => rel('loop1/x'))).toBe(Errno.LOOP);
    expect(errnoOf(() => rel('loop1'))).toBe(Errno.LOOP);
    expect(MAX_SYMLINKS).toBeLessThanOrEqual(40);
    // Without follow the final component is the link itself (to unlink or readlink it).
    expect(resolveInRoot(root, [], 'up', false)).toEqual({ host: path.join(root, 'up'), rel: ['up'], exists: true });
    expect(resolveInRoot(root, [], 'loop1', false).rel).toEqual(['loop1']);
    // A trailing slash means "the directory": it follows.
    expect(errnoOf(() => resolveInRoot(root, [], 'up/', false))).toBe(Errno.NOTCAPABLE);
  });

  it('a dangling link resolves to its (missing) target inside the root; missing intermediates are ENOENT', () => {
    expect(resolveInRoot(root, [], 'dangling', true)).toEqual({ host: path.join(root, 'missing'), rel: ['missing'], exists: false });
    expect(resolveInRoot(root, [], 'new-file', true).exists).toBe(false);
    expect(errnoOf(() => rel('missing/x'))).toBe(Errno.NOENT);
    expect(errnoOf(() => rel('a/f/x'))).toBe(Errno.NOTDIR);
    expect(errnoOf(() => rel(''))).toBe(Errno.NOENT);
  });

  it('judges a symlink swapped between two calls afresh', () => {
    const link = path.join(root, 'swap');
    symlinkSync('a', link);
    try {
      expect(rel('swap/b')).toEqual(['a', 'b']);
      unlinkSync(link);
      symlinkSync('..', link);
      expect(errnoOf(() => rel('swap/b'))).toBe(Errno.NOTCAPABLE);
      unlinkSync(link);
      mkdirSync(link);
      expect(rel('swap')).toEqual(['swap']);
    } finally {
      rmSync(link, { recursive: true, force: true });
    }
  });

  it('refuses everything once the root itself was replaced by a symlink', () => {
    const moved = path.join(base, 'moved');
    renameSync(root, moved);
    symlinkSync(moved, root);
    try {
      expect(errnoOf(() => rel('a'))).toBe(Errno.NOTCAPABLE);
    } finally {
      unlinkSync(root);
      renameSync(moved, root);
    }
    expect(rel('a')).toEqual(['a']);
  });
});
