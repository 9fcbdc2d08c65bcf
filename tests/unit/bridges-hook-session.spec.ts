import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionExports, detachedSession } from '../../host/bridges/index.ts';

describe('SessionExports', () => {
  it('a session with no exports has none; exports add up, a later value wins, sessions stay apart', () => {
    const exports = new SessionExports();
    expect(exports.get('s1')).toStrictEqual({});
    exports.add('s1', { A: '1', B: '2' });
    const before = exports.get('s1');
    exports.add('s1', { B: 'two', C: '3' });
    exports.add('s2', { Z: 'z' });
    expect(exports.get('s1')).toStrictEqual({ A: '1', B: 'two', C: '3' });
    expect(exports.get('s2')).toStrictEqual({ Z: 'z' });
    // What a hook was given earlier does not change under it.
    expect(before).toStrictEqual({ A: '1', B: '2' });
  });
});

describe('detachedSession', () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    // The sink of a detached session is the process's stderr: capture what reaches it.
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('offers no transcript, and keeps each session its exports', () => {
    const session = detachedSession();
    expect(session.transcriptPath('s1')).toBeUndefined();
    expect(session.exported('s1')).toStrictEqual({});
    session.export('s1', { UV_CACHE: '/tmp/uv' });
    session.export('s1', { MODE: 'ci' });
    expect(session.exported('s1')).toStrictEqual({ UV_CACHE: '/tmp/uv', MODE: 'ci' });
    expect(session.exported('s2')).toStrictEqual({});
    expect(detachedSession().exported('s1')).toStrictEqual({});
  });

  it('shows a notice on stderr as one line naming the hook and the level', () => {
    detachedSession().notice('guard', 'warn', 'tests are slow', 's1');
    detachedSession().notice('audit', 'error', 'disk full', 's1');
    expect(written).toStrictEqual(['hook guard [warn] tests are slow\n', 'hook audit [error] disk full\n']);
  });

  it('hostile text stays one printable line: escapes shown, the name capped at 80 and the message at 2000', () => {
    detachedSession().notice('g\u001b[31m', 'info', 'line one\nline two\u0007', 's1');
    detachedSession().notice('n'.repeat(81), 'info', 'm'.repeat(2001), 's1');
    detachedSession().notice('n'.repeat(80), 'info', 'm'.repeat(2000), 's1');
    expect(written).toStrictEqual([
      'hook g\\x1b[31m [info] line one\\nline two\\x07\n',
      `hook ${'n'.repeat(79)}… [info] ${'m'.repeat(1999)}…\n`,
      `hook ${'n'.repeat(80)} [info] ${'m'.repeat(2000)}\n`,
    ]);
  });
});
