import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { intersectCapabilities } from '../../host/config/index.ts';

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

  it('a requested path is kept inside a granted directory, with the manifest\'s guest path', () => {
    const root = path.resolve('/srv/data');
    expect(
      intersectCapabilities(
        { allowedPaths: { [path.join(root, 'reports')]: '/reports', '/etc': '/etc', [`${root}-evil`]: '/x' } },
        { allowedPaths: { [root]: '/data' } },
      ),
    ).toEqual({ allowedPaths: { [path.join(root, 'reports')]: '/reports' } });
  });

  it('a hook without a manifest requests exactly what the operator grants', () => {
    const grant = { env: ['A'], clock: true };
    expect(intersectCapabilities(undefined, grant)).toEqual(grant);
  });
});
