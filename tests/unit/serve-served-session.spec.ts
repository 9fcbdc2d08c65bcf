/**
 * `ServedSession`: one agent session as the server keeps it — its log
 * opened or read back (a torn tail trimmed first), the loop state rebuilt
 * from it (turn, step, open turn, continuations), turns opened and ended,
 * session-start context handed to the next turn once, hook invocations
 * placed in the open turn. A real temp folder and session log, compared
 * whole without its clock fields.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookInvocation } from '../../host/events/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { ServedSession } from '../../host/serve/index.ts';

let dir: string;
let opened: ServedSession[];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-served-session-'));
  opened = [];
});
afterEach(() => {
  for (const session of opened) session.close();
  rmSync(dir, { recursive: true, force: true });
});

const file = () => path.join(dir, 'agent-s1.jsonl');
function open(source: 'startup' | 'resume' = 'startup'): ServedSession {
  const session = ServedSession.open('agent', 's1', '/w', dir, source);
  opened.push(session);
  return session;
}
/** The log without its clock fields. */
const logged = () =>
  readSessionLog(file()).events.map((event) => Object.fromEntries(Object.entries(event).filter(([key]) => key !== 'at' && key !== 'durationUs')));
/** The loop state a session carries. */
const state = (session: ServedSession) => ({ turn: session.turn, step: session.step, turnOpen: session.turnOpen, continuations: session.continuations, fresh: session.fresh });
const line = (event: Record<string, unknown>) => `${JSON.stringify({ at: '2026-12-01T00:00:00.000Z', ...event })}\n`;

describe('opening a session', () => {
  it('a new log starts with session/start and the source; the session is fresh', () => {
    const session = open('resume');
    expect({ ...state(session), info: session.info(), id: session.id, cwd: session.cwd }).toStrictEqual({
      turn: 0,
      step: 0,
      turnOpen: false,
      continuations: 0,
      fresh: true,
      info: { id: 's1', turn: 0, step: 0, cwd: '/w' },
      id: 's1',
      cwd: '/w',
    });
    expect(logged()).toStrictEqual([{ type: 'session/start', sessionId: 's1', cwd: '/w', source: 'resume' }]);
  });

  it('an existing but empty log is started like a new one', () => {
    writeFileSync(file(), '');
    expect(open().fresh).toBe(true);
    expect(logged()).toStrictEqual([{ type: 'session/start', sessionId: 's1', cwd: '/w', source: 'startup' }]);
  });

  it('an existing log is read back: the last turn, its highest step, whether it is open, its continuations', () => {
    writeFileSync(
      file(),
      [
        line({ type: 'session/start', sessionId: 's1', cwd: '/w', source: 'startup' }),
        line({ type: 'turn/start', turn: 1 }),
        line({ type: 'tool/call', turn: 1, step: 4, toolCallId: 'a', toolName: 'bash', arguments: {} }),
        line({ type: 'steering/message', turn: 1, content: 'go on' }),
        line({ type: 'turn/end', turn: 1, reason: 'completed', steps: 4 }),
        line({ type: 'turn/start', turn: 2 }),
        line({ type: 'user/message', turn: 2, content: 'next' }),
        line({ type: 'tool/call', turn: 2, step: 3, toolCallId: 'b', toolName: 'bash', arguments: {} }),
        line({ type: 'tool/call', turn: 2, step: 2, toolCallId: 'c', toolName: 'bash', arguments: {} }),
        line({ type: 'steering/message', turn: 2, content: 'again' }),
        line({ type: 'steering/message', turn: 2, content: 'and again' }),
      ].join(''),
    );
    const session = open();
    expect(state(session)).toStrictEqual({ turn: 2, step: 3, turnOpen: true, continuations: 2, fresh: false });
    expect(logged()).toHaveLength(11);
  });

  it('a closed last turn reads back as closed, its continuations kept', () => {
    writeFileSync(
      file(),
      [line({ type: 'session/start', sessionId: 's1', cwd: '/w', source: 'startup' }), line({ type: 'turn/start', turn: 3 }), line({ type: 'steering/message', turn: 3, content: 'x' }), line({ type: 'turn/end', turn: 3, reason: 'completed', steps: 0 })].join(''),
    );
    expect(state(open())).toStrictEqual({ turn: 3, step: 0, turnOpen: false, continuations: 1, fresh: false });
  });

  it('a torn last line is trimmed before the session carries on', () => {
    writeFileSync(file(), line({ type: 'session/start', sessionId: 's1', cwd: '/w', source: 'startup' }) + '{"type":"turn/st');
    const session = open();
    session.openTurn();
    expect(logged()).toStrictEqual([
      { type: 'session/start', sessionId: 's1', cwd: '/w', source: 'startup' },
      { type: 'turn/start', turn: 1 },
    ]);
    expect(readFileSync(file(), 'utf8')).not.toContain('turn/st"');
  });
});

describe('turns', () => {
  it('opening a turn over an open one cancels it; the new one starts at step 0 with no continuations or pending calls', () => {
    const session = open();
    session.openTurn();
    session.step = 3;
    session.continuations = 2;
    session.pending.set('t1', { step: 3, toolName: 'bash' });
    session.openTurn();
    expect({ ...state(session), pending: session.pending.size, info: session.info() }).toStrictEqual({
      turn: 2,
      step: 0,
      turnOpen: true,
      continuations: 0,
      fresh: true,
      pending: 0,
      info: { id: 's1', turn: 2, step: 0, cwd: '/w' },
    });
    expect(logged().slice(1)).toStrictEqual([
      { type: 'turn/start', turn: 1 },
      { type: 'turn/end', turn: 1, reason: 'cancelled', steps: 3, message: 'the agent started another turn without a Stop event' },
      { type: 'turn/start', turn: 2 },
    ]);
  });

  it('ending a turn records why and its steps, once; a message only when given', () => {
    const session = open();
    session.endTurn('completed');
    session.openTurn();
    session.step = 1;
    session.endTurn('completed');
    session.endTurn('rejected', 'twice');
    session.openTurn();
    session.endTurn('rejected', 'blocked');
    expect(session.turnOpen).toBe(false);
    expect(logged().slice(1)).toStrictEqual([
      { type: 'turn/start', turn: 1 },
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 1 },
      { type: 'turn/start', turn: 2 },
      { type: 'turn/end', turn: 2, reason: 'rejected', steps: 0, message: 'blocked' },
    ]);
  });

  it('session-start context goes into the next turn, in order, once', () => {
    const session = open();
    session.addContext('first');
    session.addContext('second');
    session.openTurn();
    session.endTurn('completed');
    session.openTurn();
    expect(logged().slice(1)).toStrictEqual([
      { type: 'turn/start', turn: 1 },
      { type: 'context/message', turn: 1, content: 'first', source: 'session-start' },
      { type: 'context/message', turn: 1, content: 'second', source: 'session-start' },
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 0 },
      { type: 'turn/start', turn: 2 },
    ]);
  });
});

describe('hook invocations', () => {
  it('are placed in the open turn and step; outside a turn they carry neither', () => {
    const session = open();
    const invocation: HookInvocation = { hook: 'h', seam: 'tools/pre-execute', durationUs: 5, outcome: 'no-opinion', applied: null };
    session.recordInvocations([invocation]);
    session.openTurn();
    session.step = 2;
    session.recordInvocations([invocation, { ...invocation, hook: 'g' }]);
    session.endTurn('completed');
    session.recordInvocations([]);
    const record = { type: 'hook/invoke', hook: 'h', seam: 'tools/pre-execute', outcome: 'no-opinion', applied: null };
    expect(logged().filter((event) => event.type === 'hook/invoke')).toStrictEqual([record, { ...record, turn: 1, step: 2 }, { ...record, hook: 'g', turn: 1, step: 2 }]);
  });
});

describe('closing', () => {
  it('closes the log: nothing more is appended', () => {
    const session = open();
    session.close();
    expect(() => session.openTurn()).toThrow(/is closed/);
    appendFileSync(file(), '');
    expect(logged()).toHaveLength(1);
  });
});
