/**
 * host/agents/toml-tables.ts: the text edits `hookbox setup` makes to a TOML
 * file's `[a.b."c"]` tables (Codex's config.toml) — only the tables named are
 * dropped, renamed or appended, every other line (comments, array tables,
 * indentation) stays — and the dotted-key reader behind them.
 */
import { describe, expect, it } from 'vitest';
import { editTomlTables, parseDottedKey } from '../../host/agents/toml-tables.ts';

describe('parseDottedKey', () => {
  it.each([
    ['a.b."c d".\'e\'', ['a', 'b', 'c d', 'e']],
    [' a . b ', ['a', 'b']],
    ['"a\\"b".c', ['a"b', 'c']],
    ["'lit'", ['lit']],
    ["'a\\b'.c", ['a\\b', 'c']],
    ['hooks.state."/x/hooks.json:stop:0:0"', ['hooks', 'state', '/x/hooks.json:stop:0:0']],
    ['', []],
  ])('%j → %j', (text, parts) => {
    expect(parseDottedKey(text)).toStrictEqual(parts);
  });

  it.each(['"unterminated', '"bad \\q escape"', "'open", 'a b', '=a', '+.+a', '..a', 'a...a', "a.'b", 'a."b'])('%j is not a plain dotted key', (text) => {
    expect(parseDottedKey(text)).toBeUndefined();
  });
});

describe('editTomlTables', () => {
  const text = [
    '# my config',
    'model = "o3"',
    '',
    '[hooks]',
    'enabled = true',
    '',
    '  [hooks.state."/x/hooks.json:stop:0:0"]  # trusted by hookbox setup',
    'trusted_hash = "abc"',
    'ports = [1, 2]',
    'nested = [',
    '  [1, 2],',
    ']',
    '',
    '  [[profiles]]',
    'name = "fast"',
    '',
    '[projects."/work/app"]',
    'trust_level = "trusted"',
    '',
  ].join('\n');

  it('removes exactly the named table, its body with it, up to the next header of any kind', () => {
    expect(editTomlTables(text, { remove: [['nothing'], ['hooks', 'state', '/x/hooks.json:stop:0:0']] })).toBe(
      ['# my config', 'model = "o3"', '', '[hooks]', 'enabled = true', '', '  [[profiles]]', 'name = "fast"', '', '[projects."/work/app"]', 'trust_level = "trusted"', ''].join('\n'),
    );
  });

  it('a shorter or longer path is another table', () => {
    expect(editTomlTables(text, { remove: [['hooks']] })).toBe(
      [
        '# my config',
        'model = "o3"',
        '',
        '  [hooks.state."/x/hooks.json:stop:0:0"]  # trusted by hookbox setup',
        'trusted_hash = "abc"',
        'ports = [1, 2]',
        'nested = [',
        '  [1, 2],',
        ']',
        '',
        '  [[profiles]]',
        'name = "fast"',
        '',
        '[projects."/work/app"]',
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    expect(editTomlTables(text, { remove: [['hooks', 'state', '/x/hooks.json:stop:0:0', 'more'], ['projects'], ['projects', '/work/other'], ['hooks', 'state', '/y/hooks.json:stop:0:0']] })).toBe(text);
  });

  it('renames a header and keeps its body; replaces a table named in set, appending it last', () => {
    const renamed = editTomlTables(text, {
      rename: [{ from: ['hooks', 'state', '/x/hooks.json:stop:0:0'], to: ['hooks', 'state', '/y/hooks.json:stop:0:0'] }],
      set: [{ path: ['projects', '/work/app'], values: { trust_level: 'untrusted', 'odd key': true } }],
    });
    expect(renamed).toBe(
      [
        '# my config',
        'model = "o3"',
        '',
        '[hooks]',
        'enabled = true',
        '',
        '[hooks.state."/y/hooks.json:stop:0:0"]',
        'trusted_hash = "abc"',
        'ports = [1, 2]',
        'nested = [',
        '  [1, 2],',
        ']',
        '',
        '  [[profiles]]',
        'name = "fast"',
        '',
        '[projects."/work/app"]',
        'trust_level = "untrusted"',
        '"odd key" = true',
        '',
      ].join('\n'),
    );
  });

  it('an empty file gets only the new table; removing everything leaves an empty file', () => {
    expect(editTomlTables('', { set: [{ path: ['hooks', 'state', 'a b'], values: { trusted_hash: 'x', enabled: false } }] })).toBe(
      '[hooks.state."a b"]\ntrusted_hash = "x"\nenabled = false\n',
    );
    expect(editTomlTables('[a]\nx = 1\n\n\n', { remove: [['a']] })).toBe('');
    expect(editTomlTables('x = 1\n\n\n', {})).toBe('x = 1\n');
  });

  it('throws rather than return a file that is not TOML', () => {
    expect(() => editTomlTables('[a]\nx = 1\n', { set: [{ path: ['a'], values: { x: 'y' } }], rename: [{ from: ['b'], to: ['c'] }] })).not.toThrow();
    expect(() => editTomlTables('a = { x = 1 }\n', { set: [{ path: ['a'], values: { y: 'z' } }] })).toThrow();
  });
});
