import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionLog } from '../../host/log/index.ts';
import { SessionTable } from '../../host/serve/index.ts';

describe('hookbox serve: the session table', () => {
  it('closes the least recently used idle session past the bound, and reports which', () => {
    const closed: string[] = [];
    const table = new SessionTable({ maxSessions: 2, idleMs: 60_000, logDir: mkdtempSync(join(tmpdir(), 'hookbox-table-')), onClose: (key) => closed.push(key) });
    table.acquire('claude-code', 'a', '/w', 'startup');
    table.acquire('claude-code', 'b', '/w', 'startup');
    table.acquire('claude-code', 'a', '/w', 'startup'); // a is now the most recent
    table.acquire('claude-code', 'c', '/w', 'startup');
    expect(table.size).toBe(2);
    expect(closed).toEqual(['claude-code:b']);
    table.closeAll();
  });

  it('never closes a session with a call in flight', () => {
    const table = new SessionTable({ maxSessions: 1, idleMs: 0, logDir: mkdtempSync(join(tmpdir(), 'hookbox-table-')) });
    const { session } = table.acquire('claude-code', 'busy', '/w', 'startup');
    session.inFlight = 1;
    table.sweep(Date.now() + 10_000);
    table.acquire('claude-code', 'other', '/w', 'startup');
    expect(table.size).toBe(2); // one over the bound rather than fail a call
    session.inFlight = 0;
    table.sweep(Date.now() + 10_000);
    expect(table.size).toBe(0);
  });

  it('an expired session reopens from its log: same turn, continuations and log, no second session/start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookbox-table-'));
    const table = new SessionTable({ maxSessions: 4, idleMs: 1000, logDir: dir });
    const first = table.acquire('claude-code', 's1', '/w', 'startup').session;
    first.openTurn();
    first.openTurn();
    first.log.append({ type: 'steering/message', turn: 2, content: 'again' });
    first.continuations += 1;
    table.sweep(Date.now() + 5000);
    expect(table.size).toBe(0);
    const { session, opened } = table.acquire('claude-code', 's1', '/w', 'startup');
    expect(opened).toBe(true);
    expect(session.fresh).toBe(false);
    expect({ turn: session.turn, turnOpen: session.turnOpen, continuations: session.continuations }).toEqual({ turn: 2, turnOpen: true, continuations: 1 });
    table.closeAll();
    const { events } = readSessionLog(join(dir, 'claude-code-s1.jsonl'));
    expect(events.filter((event) => event.type === 'session/start')).toHaveLength(1);
  });

  it('keys sessions by agent and id; a second acquire is the same session, not opened again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookbox-table-'));
    const table = new SessionTable({ maxSessions: 4, idleMs: 60_000, logDir: dir });
    const first = table.acquire('claude-code', 's1', '/w', 'startup');
    const again = table.acquire('claude-code', 's1', '/w', 'startup');
    const codex = table.acquire('codex', 's1', '/w', 'startup');
    expect([first.key, first.opened, again.key, again.opened, again.session === first.session, codex.key, codex.opened, codex.session === first.session]).toStrictEqual([
      'claude-code:s1',
      true,
      'claude-code:s1',
      false,
      true,
      'codex:s1',
      true,
      false,
    ]);
    expect(table.size).toBe(2);
    table.closeAll();
  });

  it("with no log folder, a session's log goes under its cwd", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hookbox-table-cwd-'));
    const table = new SessionTable({ maxSessions: 1, idleMs: 60_000 });
    table.acquire('claude-code', 's1', cwd, 'startup');
    table.closeAll();
    expect(existsSync(join(cwd, '.hookbox', 'sessions', 'claude-code-s1.jsonl'))).toBe(true);
  });

  it('a session idle longer than idleMs is closed by a sweep, not one idle exactly that long; each use renews it', () => {
    const closed: string[] = [];
    const table = new SessionTable({ maxSessions: 4, idleMs: 1000, logDir: mkdtempSync(join(tmpdir(), 'hookbox-table-')), onClose: (key) => closed.push(key) });
    const a = table.acquire('claude-code', 'a', '/w', 'startup').session;
    const b = table.acquire('claude-code', 'b', '/w', 'startup').session;
    a.lastUsed = 10_000;
    b.lastUsed = 10_000;
    table.sweep(11_000);
    expect(closed).toStrictEqual([]);
    const before = Date.now();
    table.acquire('claude-code', 'b', '/w', 'startup');
    expect(b.lastUsed).toBeGreaterThanOrEqual(before);
    table.sweep(11_001);
    expect({ closed, size: table.size }).toStrictEqual({ closed: ['claude-code:a'], size: 1 });
    expect(() => a.log.append({ type: 'steering/message', turn: 1, content: 'x' })).toThrow(/is closed/);
    table.closeAll();
  });

  it('opening a session sweeps expired ones first; sweep with no time given is now', () => {
    const closed: string[] = [];
    const table = new SessionTable({ maxSessions: 4, idleMs: 1000, logDir: mkdtempSync(join(tmpdir(), 'hookbox-table-')), onClose: (key) => closed.push(key) });
    table.acquire('claude-code', 'old', '/w', 'startup').session.lastUsed = Date.now() - 60_000;
    table.acquire('claude-code', 'recent', '/w', 'startup');
    expect(closed).toStrictEqual(['claude-code:old']);
    table.acquire('claude-code', 'recent', '/w', 'startup').session.lastUsed = Date.now() - 60_000;
    table.sweep();
    expect({ closed, size: table.size }).toStrictEqual({ closed: ['claude-code:old', 'claude-code:recent'], size: 0 });
  });

  it('past the bound, the least recently used session not in flight is the one closed', () => {
    const closed: string[] = [];
    const table = new SessionTable({ maxSessions: 2, idleMs: 60_000, logDir: mkdtempSync(join(tmpdir(), 'hookbox-table-')), onClose: (key) => closed.push(key) });
    table.acquire('claude-code', 'a', '/w', 'startup').session.inFlight = 1;
    table.acquire('claude-code', 'b', '/w', 'startup');
    table.acquire('claude-code', 'c', '/w', 'startup');
    expect({ closed: [...closed], size: table.size }).toStrictEqual({ closed: ['claude-code:b'], size: 2 });
    table.acquire('claude-code', 'a', '/w', 'startup').session.inFlight = 0;
    table.closeAll();
    expect({ closed, size: table.size }).toStrictEqual({ closed: ['claude-code:b', 'claude-code:c', 'claude-code:a'], size: 0 });
  });
});
