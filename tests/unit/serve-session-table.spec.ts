import { mkdtempSync } from 'node:fs';
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
});
