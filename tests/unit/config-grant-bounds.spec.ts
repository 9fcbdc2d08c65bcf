/**
 * `grantExcess`: the first way a lower layer's grant is wider than a higher
 * layer's bound, per field, with what is too wide; a field the bound leaves
 * out allows nothing. Real folders in a temp dir (paths compare by realpath).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grantExcess } from '../../host/config/grant-bounds.ts';

let root: string;
let shared: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-grant-bounds-')));
  shared = path.join(root, 'shared');
  mkdirSync(path.join(shared, 'inner'), { recursive: true });
  mkdirSync(path.join(root, 'elsewhere'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('grantExcess', () => {
  it('a grant within its bound, field by field, is no excess', () => {
    const bound = {
      allowedHosts: ['*.example.com', 'api.other.org'],
      allowedPaths: { [shared]: '/s', [path.join(shared, 'inner')]: { path: '/i', write: true } },
      env: ['LANG', 'TZ'],
      clock: true,
    };
    const grant = { allowedHosts: ['a.example.com', 'api.other.org'], allowedPaths: { [path.join(shared, 'inner')]: { path: '/w', write: true } }, env: ['TZ'], clock: true };
    expect(grantExcess(grant, bound)).toBeUndefined();
    expect(grantExcess({ clock: false }, {})).toBeUndefined();
    expect(grantExcess({}, {})).toBeUndefined();
  });

  it('a field the bound does not name allows nothing', () => {
    expect(grantExcess({ allowedHosts: ['a.com'] }, {})).toStrictEqual({ field: 'allowedHosts', detail: '"a.com" is not covered by nothing' });
    expect(grantExcess({ allowedPaths: { [shared]: '/s' } }, {})).toStrictEqual({ field: 'allowedPaths', detail: `"${shared}" is outside nothing` });
    expect(grantExcess({ env: ['A', 'B'] }, {})).toStrictEqual({ field: 'env', detail: '"A", "B" not in nothing' });
    expect(grantExcess({ clock: true }, {})).toStrictEqual({ field: 'clock', detail: 'true, but the clock is not allowed' });
  });

  it('names what is too wide and the bound, each item quoted', () => {
    expect(grantExcess({ allowedHosts: ['a.example.com', 'evil.com'] }, { allowedHosts: ['*.example.com', 'b.org'] })).toStrictEqual({
      field: 'allowedHosts',
      detail: '"evil.com" is not covered by "*.example.com", "b.org"',
    });
    expect(grantExcess({ env: ['LANG', 'A', 'B'] }, { env: ['LANG', 'TZ'] })).toStrictEqual({ field: 'env', detail: '"A", "B" not in "LANG", "TZ"' });
    const bound = { allowedPaths: { [shared]: '/s', [path.join(root, 'elsewhere')]: '/e' } };
    expect(grantExcess({ allowedPaths: { [path.join(shared, 'inner')]: { path: '/i', write: true } } }, bound)).toStrictEqual({
      field: 'allowedPaths',
      detail: `"${path.join(shared, 'inner')}" is writable, but "${shared}" is read-only`,
    });
  });

  it('a path that does not exist yet is compared where it would be: under a symlinked parent, outside the bound', () => {
    symlinkSync(path.join(root, 'elsewhere'), path.join(shared, 'escape'));
    const planned = path.join(shared, 'escape', 'new', 'deeper');
    expect(grantExcess({ allowedPaths: { [planned]: '/x' } }, { allowedPaths: { [shared]: '/s' } })).toStrictEqual({
      field: 'allowedPaths',
      detail: `"${planned}" (${path.join(root, 'elsewhere', 'new', 'deeper')}) is outside "${shared}"`,
    });
    expect(grantExcess({ allowedPaths: { [path.join(shared, 'not-yet')]: '/x' } }, { allowedPaths: { [shared]: '/s' } })).toBeUndefined();
  });
});
