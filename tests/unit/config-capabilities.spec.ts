import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { intersectCapabilities } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('intersectCapabilities: a hook gets only what both the manifest requests and the operator grants', () => {
  it('grants nothing by default', () => {
    expect(intersectCapabilities({}, {})).toEqual({});
    expect(intersectCapabilities({ env: ['HOME'], clock: true, allowedHosts: ['a.com'] }, undefined)).toEqual({});
    expect(intersectCapabilities(undefined, undefined)).toEqual({});
  });

  it('keeps requested items that are granted, and drops grants nobody asked for', () => {
    expect(
      intersectCapabilities(
        { env: ['A', 'B'], clock: true, allowedHosts: ['api.example.com', 'evil.com'] },
        { env: ['B', 'C'], clock: true, allowedHosts: ['*.example.com', 'other.org'] },
      ),
    ).toEqual({ env: ['B'], clock: true, allowedHosts: ['api.example.com'] });
    expect(intersectCapabilities({ clock: true }, { clock: false })).toEqual({});
    expect(intersectCapabilities({ clock: false }, { clock: true })).toEqual({});
  });

  it('host wildcards cover subdomains only, never the bare domain or look-alikes', () => {
    const grant = { allowedHosts: ['*.example.com'] };
    expect(intersectCapabilities({ allowedHosts: ['example.com', 'badexample.com', 'a.b.example.com'] }, grant)).toEqual({
      allowedHosts: ['a.b.example.com'],
    });
  });

  it('a requested path is kept inside a granted directory (compared by realpath), with the manifest\'s guest path', () => {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-caps-')));
    try {
      const root = path.join(base, 'data');
      mkdirSync(path.join(root, 'reports'), { recursive: true });
      mkdirSync(`${root}-evil`);
      symlinkSync(root, path.join(base, 'alias'));
      expect(
        intersectCapabilities(
          { allowedPaths: { [path.join(root, 'reports')]: '/reports', '/etc': '/etc', [`${root}-evil`]: '/x', [path.join(base, 'missing')]: '/m' } },
          { allowedPaths: { [root]: '/data' } },
        ),
      ).toEqual({ allowedPaths: { [path.join(root, 'reports')]: '/reports' } });
      // A symlink to the grant is the grant: kept under its realpath.
      expect(intersectCapabilities({ allowedPaths: { [path.join(base, 'alias', 'reports')]: '/r' } }, { allowedPaths: { [root]: '/data' } })).toEqual({
        allowedPaths: { [path.join(root, 'reports')]: '/r' },
      });
      // Write only where the grant says write; read-only requests of a writable grant stay read-only.
      const writable = { allowedPaths: { [root]: { path: '/data', write: true } } };
      expect(intersectCapabilities({ allowedPaths: { [root]: { path: '/d', write: true } } }, writable)).toEqual({ allowedPaths: { [root]: { path: '/d', write: true } } });
      expect(intersectCapabilities({ allowedPaths: { [root]: '/d' } }, writable)).toEqual({ allowedPaths: { [root]: '/d' } });
      expect(() => intersectCapabilities({ allowedPaths: { [root]: { path: '/d', write: true } } }, { allowedPaths: { [root]: '/data' } }, { request: 'M', grant: 'G' })).toThrow(
        ConfigError,
      );
      // Inside the grant by name, missing on disk: an error, not a silent drop.
      expect(() => intersectCapabilities({ allowedPaths: { [path.join(root, 'nope')]: '/n' } }, { allowedPaths: { [root]: '/data' } }, { request: 'M', grant: 'G' })).toThrow(
        /M: ".*nope" does not exist/,
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('each refusal names its side: a path that leaves its grant through a symlink, a write the grant does not give, a missing granted path', () => {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-caps-')));
    try {
      const granted = path.join(base, 'granted');
      mkdirSync(path.join(granted, 'sub'), { recursive: true });
      mkdirSync(path.join(base, 'elsewhere'));
      symlinkSync(path.join(base, 'elsewhere'), path.join(granted, 'link'));
      const grant = { allowedPaths: { [granted]: '/g' } };
      expect(refusal(() => intersectCapabilities({ allowedPaths: { [path.join(granted, 'link')]: '/l' } }, grant))).toBe(
        `the requested capabilities.allowedPaths: "${path.join(granted, 'link')}" resolves to ${path.join(base, 'elsewhere')}, outside the grant "${granted}" (the granted allowedPaths); a path that leaves its grant through a symlink is refused`,
      );
      expect(refusal(() => intersectCapabilities({ allowedPaths: { [path.join(granted, 'sub')]: { path: '/s', write: true } } }, grant))).toBe(
        `the requested capabilities.allowedPaths: "${path.join(granted, 'sub')}" asks for "write": true, but the granted allowedPaths grants "${granted}" read-only (add "write": true to that grant to allow writes)`,
      );
      // Without a manifest the grant is the request: its own missing path is named as the grant's.
      const missing = path.join(base, 'missing');
      expect(refusal(() => intersectCapabilities(undefined, { allowedPaths: { [missing]: '/m' } }))).toBe(
        `the granted allowedPaths: "${missing}" does not exist (or cannot be resolved); a granted path must be an existing directory`,
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('a write is kept when any grant covering the path is writable; a grant that does not exist covers nothing', () => {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-caps-')));
    try {
      const sub = path.join(base, 'sub');
      mkdirSync(sub);
      const grant = { allowedPaths: { [base]: '/b', [sub]: { path: '/s', write: true }, [path.join(base, 'gone')]: '/x' } };
      expect(intersectCapabilities({ allowedPaths: { [sub]: { path: '/mine', write: true } } }, grant)).toStrictEqual({ allowedPaths: { [sub]: { path: '/mine', write: true } } });
      expect(intersectCapabilities({ allowedPaths: { '/etc': '/etc' } }, { allowedPaths: { [path.join(base, 'gone')]: '/x' } })).toStrictEqual({});
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('a hook without a manifest requests exactly what the operator grants', () => {
    const grant = { env: ['A'], clock: true };
    expect(intersectCapabilities(undefined, grant)).toEqual(grant);
  });
});
