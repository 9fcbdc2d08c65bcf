/**
 * `pathUnder`: the one answer to "does this path lie under that folder" for the WASI
 * walk, the grants, hook packages and the agents' file names. Expected values written out.
 */
import { describe, expect, it } from 'vitest';
import { pathUnder } from '../../host/path-under.ts';
import { isInside } from '../../host/config/capabilities.ts';
import { relativeInside } from '../../host/agents/tool-names.ts';

describe('pathUnder', () => {
  it.each([
    ['/p', '/p', ''],
    ['/p', '/p/a', 'a'],
    ['/p', '/p/a/b.txt', 'a/b.txt'],
    ['/p', '/p/..hook.json', '..hook.json'],
    ['/p', '/p/..data/x', '..data/x'],
    ['/p', '/p/a/../b', 'b'],
    ['/p/', '/p/a', 'a'],
  ])('%s holds %s as %j', (root, file, relative) => {
    expect(pathUnder(root, file)).toBe(relative);
  });

  it.each([
    ['/p', '/'],
    ['/p', '/q'],
    ['/p', '/p-evil/a'],
    ['/p', '/pa'],
    ['/p/a', '/p'],
    ['/p', '/p/../q'],
    ['/p/a', '/p/..a'],
  ])('%s does not hold %s', (root, file) => {
    expect(pathUnder(root, file)).toBeUndefined();
  });
});

describe('its callers', () => {
  it('a grant covers a folder named "..data" inside it, not a sibling', () => {
    expect(isInside('/g/..data', '/g')).toBe(true);
    expect(isInside('/g', '/g')).toBe(true);
    expect(isInside('/g-2/x', '/g')).toBe(false);
    expect(isInside('/x', '/g')).toBe(false);
  });

  it('a file of the session folder is shown relative to it, ".." names included; the folder itself and anything outside stay absolute', () => {
    expect(relativeInside('/w', '..notes.md')).toBe('..notes.md');
    expect(relativeInside('/w', 'src/a.ts')).toBe('src/a.ts');
    expect(relativeInside('/w', '/w')).toBe('/w');
    expect(relativeInside('/w', '../x')).toBe('/x');
    expect(relativeInside('/w', '/etc/passwd')).toBe('/etc/passwd');
  });
});
