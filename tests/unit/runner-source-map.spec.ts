/**
 * Plugin-error stacks pointed at the author's source (source-map.ts). The
 * map comes from the hook's own bytes, so it is hostile: a missing, oversized
 * or unreadable map leaves the text as it was, and a source name it
 * contributes is made printable and capped.
 */
import { describe, expect, it } from 'vitest';
import { SOURCE_MAP_SECTION, stackMapper } from '../../host/runner/source-map.ts';

/** A source map section: `hook.js` line 1 col 0 → line 1 col 1; line 2 col 4 → line 2 col 5 of `source`. */
function section(source = 'hookbox-cjs:src/hook.ts', extra: Record<string, unknown> = {}): ArrayBuffer {
  const json = JSON.stringify({ version: 3, sources: [source], names: [], mappings: 'AAAA;IACI', ...extra });
  return new TextEncoder().encode(json).buffer as ArrayBuffer;
}

describe('stackMapper', () => {
  it('rewrites hook.js:LINE and hook.js:LINE:COL frames to the source, the hookbox-cjs: prefix dropped', () => {
    expect(SOURCE_MAP_SECTION).toBe('hookbox.sourcemap');
    const map = stackMapper([section()]);
    expect(map('Error: no\n    at check (hook.js:2:5)\n    at <anonymous> (hook.js:1)')).toBe(
      'Error: no\n    at check (src/hook.ts:2:5)\n    at <anonymous> (src/hook.ts:1:1)',
    );
    // A column before the first mapping of the line takes the next mapping (least upper bound).
    expect(map('at (hook.js:2:1)')).toBe('at (src/hook.ts:2:5)');
  });

  it('reads multi-digit lines and columns, and a column picks its own segment on a line with several', () => {
    // Lines 1–12 of hook.js map to lines 1–12 at column 1; line 12 also has a segment at column 10 → line 12 column 20.
    const mappings = ['AAAA', ...Array.from({ length: 11 }, () => 'AACA')].join(';') + ',SAAmB';
    const map = stackMapper([section('hookbox-cjs:src/hook.ts', { mappings })]);
    expect(map('at (hook.js:12:1)')).toBe('at (src/hook.ts:12:1)');
    expect(map('at (hook.js:12:10)')).toBe('at (src/hook.ts:12:20)');
    expect(map('at (hook.js:12)')).toBe('at (src/hook.ts:12:1)');
  });

  it('drops the hookbox-cjs: prefix only at the start of a source name', () => {
    const map = stackMapper([section('src/hookbox-cjs:odd.ts')]);
    expect(map('at (hook.js:2:5)')).toBe('at (src/hookbox-cjs:odd.ts:2:5)');
  });

  it('leaves frames the map does not cover, other files and look-alikes as they are', () => {
    const map = stackMapper([section()]);
    expect(map('at (hook.js:9:1)')).toBe('at (hook.js:9:1)');
    expect(map('at (other.js:2:5) and myhook.js:2')).toBe('at (other.js:2:5) and myhook.js:2');
    expect(map('no frames here')).toBe('no frames here');
  });

  it('is the identity without a map, with a map over 8 MiB, and with a map that does not parse', () => {
    const frame = 'at (hook.js:2:5)';
    expect(stackMapper([])(frame)).toBe(frame);
    const padded = section('src/hook.ts', { padding: 'x'.repeat(8 << 20) });
    expect(padded.byteLength).toBeGreaterThan(8 << 20);
    expect(stackMapper([padded])(frame)).toBe(frame);
    const justUnder = section('src/hook.ts', { padding: '' });
    const room = (8 << 20) - justUnder.byteLength;
    expect(stackMapper([section('src/hook.ts', { padding: 'x'.repeat(room) })])(frame)).toBe('at (src/hook.ts:2:5)');
    const broken = new TextEncoder().encode('{"version": 3, "mappings": ').buffer as ArrayBuffer;
    expect(stackMapper([broken])(`${frame} ${frame}`)).toBe(`${frame} ${frame}`);
    // Mappings that point past the sources list: originalPositionFor has nothing to say.
    const nonsense = new TextEncoder().encode(JSON.stringify({ version: 3, sources: [], names: [], mappings: 'AAAA;IACI' })).buffer as ArrayBuffer;
    expect(stackMapper([nonsense])(frame)).toBe(frame);
  });

  it('makes a hostile source name printable and caps it at 200 characters', () => {
    const map = stackMapper([section('hookbox-cjs:src/\u001b[31mred\u0007.ts')]);
    const out = map('at (hook.js:2:5)');
    expect(out).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(out).toMatch(/^at \(src\/.*red.*\.ts:2:5\)$/);
    const long = stackMapper([section(`hookbox-cjs:${'a'.repeat(500)}.ts`)])('hook.js:2:5');
    const name = long.slice(0, long.lastIndexOf(':2:5'));
    expect(name.length).toBeLessThanOrEqual(200);
    expect(name.startsWith('aaaa')).toBe(true);
    expect(long.endsWith(':2:5')).toBe(true);
  });
});
