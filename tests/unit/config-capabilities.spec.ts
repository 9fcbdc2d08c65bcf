import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { intersectCapabilities } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';

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

  it('a hook without a manifest requests exactly what the operator grants', () => {
    const grant = { env: ['A'], clock: true };
    expect(intersectCapabilities(undefined, grant)).toEqual(grant);
  });
});
