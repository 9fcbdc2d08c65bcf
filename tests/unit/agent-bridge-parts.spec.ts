/**
 * The pieces every agent bridge shares (host/agents/bridge-parts.ts):
 * the edges the per-agent tests do not reach on their own.
 */
import { describe, expect, it } from 'vitest';
import {
  NO_OPINION,
  answerBySeam,
  commandLineFrame,
  continuationPayload,
  failClosedBy,
  jsonAnswer,
  promptEvent,
  readAgentEvent,
  sessionSource,
  sessionStartEvent,
  stopEvent,
  toSeamBy,
} from '../../host/agents/bridge-parts.ts';
import { z } from 'zod';
import type { AgentAnswer } from '../../host/agents/agent-bridge.ts';
import { SEAM_IDS, type SeamId } from '../../host/seams/index.ts';

/** A protocol table of the events the readers below read. */
const TABLE = {
  'agent/session-start': [{ event: 'Begin', answers: 'context' }],
  'agent/prompt-submit': [{ event: 'Ask', answers: 'block' }],
  'agent/turn-continuation': [{ event: 'End', answers: 'continue' }],
} as const;

describe('bridge parts', () => {
  it('a stop event carries the last message only when it is a non-empty string', () => {
    expect(continuationPayload('done.')).toEqual({ continuations: 0, lastAssistantText: 'done.' });
    expect(continuationPayload('')).toEqual({ continuations: 0 });
    expect(continuationPayload(null)).toEqual({ continuations: 0 });
  });

  it('a session source hookbox has no name for starts a session like startup', () => {
    expect(sessionSource('resume')).toBe('resume');
    expect(sessionSource('something-new')).toBe('startup');
    expect(sessionSource(undefined)).toBe('startup');
  });

  it('reads an event against the agent table: unknown names pass, inherited names are not events, malformed ones are invalid', () => {
    const schemas = { Stop: z.looseObject({ reason: z.string() }) };
    const common = { session_id: 's-1', cwd: '/work' };
    expect(readAgentEvent({ ...common, hook_event_name: 'Stop', reason: 'r' }, schemas)).toMatchObject({ kind: 'read', event: 'Stop', data: { reason: 'r' } });
    expect(readAgentEvent({ ...common, hook_event_name: 'Other' }, schemas)).toMatchObject({ kind: 'pass', answer: NO_OPINION });
    expect(readAgentEvent({ ...common, hook_event_name: 'toString' }, schemas)).toMatchObject({ kind: 'pass' });
    expect(readAgentEvent({ ...common, hook_event_name: 'Stop' }, schemas)).toMatchObject({ kind: 'invalid', event: 'Stop' });
    expect(readAgentEvent({ hook_event_name: 'Stop', session_id: 's-1', cwd: 'relative' }, schemas)).toMatchObject({ kind: 'invalid', event: 'Stop' });
  });

  it("maps an event through the agent's reader for it; unknown and malformed events never reach a reader", () => {
    const toSeam = toSeamBy(
      TABLE,
      { Begin: z.looseObject({ source: z.string().optional() }), Ask: z.looseObject({ prompt: z.string() }), End: z.looseObject({ last: z.string().optional() }) },
      { Begin: sessionStartEvent, Ask: promptEvent, End: stopEvent('last') },
    );
    const common = { session_id: 's1', cwd: '/work' };
    expect(toSeam({ ...common, hook_event_name: 'Begin', source: 'resume' })).toEqual({
      kind: 'seam',
      event: { event: 'Begin', sessionId: 's1', cwd: '/work', seam: 'agent/session-start', payload: { source: 'resume' } },
    });
    expect(toSeam({ ...common, hook_event_name: 'Ask', prompt: 'hi' })).toMatchObject({ event: { seam: 'agent/prompt-submit', payload: { content: 'hi', source: 'api' } } });
    expect(toSeam({ ...common, hook_event_name: 'End', last: 'done.', stop_hook_active: true })).toMatchObject({
      event: { seam: 'agent/turn-continuation', payload: { continuations: 0, lastAssistantText: 'done.' }, alreadyContinued: true },
    });
    expect(toSeam({ ...common, hook_event_name: 'End' })).toMatchObject({ event: { payload: { continuations: 0 }, alreadyContinued: false } });
    expect(toSeam({ ...common, hook_event_name: 'Other' })).toEqual({ kind: 'pass', event: 'Other', sessionId: 's1', answer: NO_OPINION });
    expect(toSeam({ ...common, hook_event_name: 'Ask' })).toMatchObject({ kind: 'invalid' });
  });

  it("reads only the events of the agent's table: one the format reads but the agent does not list passes (an agent of a shared format)", () => {
    const schemas = { Begin: z.looseObject({}), End: z.looseObject({}) };
    const toSeam = toSeamBy<'Begin' | 'End'>({ 'agent/session-start': [{ event: 'Begin', answers: 'a' }] }, schemas, { Begin: sessionStartEvent, End: stopEvent('last') });
    const common = { session_id: 's1', cwd: '/work' };
    expect(toSeam({ ...common, hook_event_name: 'Begin' })).toMatchObject({ kind: 'seam', event: { seam: 'agent/session-start' } });
    expect(toSeam({ ...common, hook_event_name: 'End' })).toEqual({ kind: 'pass', event: 'End', sessionId: 's1', answer: NO_OPINION });
  });

  it('reads the name from the command line where the events carry none (commandLineFrame), refusing an unnamed event', () => {
    const frame = commandLineFrame('name it', z.looseObject({ id: z.string() }), (data) => ({ sessionId: data.id, cwd: '/w' }));
    const toSeam = toSeamBy({ 'agent/session-start': [{ event: 'begin', answers: 'a' }] }, { begin: z.looseObject({}) }, { begin: sessionStartEvent }, frame);
    expect(toSeam({ id: 's2' }, 'begin')).toMatchObject({ kind: 'seam', event: { event: 'begin', sessionId: 's2', cwd: '/w', seam: 'agent/session-start' } });
    expect(toSeam({ id: 's2' })).toEqual({ kind: 'invalid', message: 'name it' });
    expect(toSeam({ id: 2 }, 'begin')).toMatchObject({ kind: 'invalid', event: 'begin', message: expect.stringMatching(/^input\.id: /) as unknown });
    expect(toSeam({ id: 's2' }, 'other')).toEqual({ kind: 'pass', event: 'other', sessionId: 's2', answer: NO_OPINION });
  });

  it('fails closed from the table: its answer, a let-through, or exit 2 for an event it does not name (inherited names included)', () => {
    const failClosed = failClosedBy(
      { 'tools/pre-execute': [{ event: 'Pre', answers: 'a' }], 'agent/turn-continuation': [{ event: 'Stop', answers: 'b' }] },
      { Pre: (text) => jsonAnswer({ reason: text }), Stop: 'let-through' },
    );
    // The reason reaches the table's answer already made printable (the escape shown, not sent).
    expect(JSON.parse(failClosed('Pre', 'boom\u001b[31m').stdout)).toEqual({ reason: 'hookbox: boom\\x1b[31m' });
    expect(failClosed('Stop', 'boom')).toEqual(NO_OPINION);
    for (const event of [undefined, 'Other', 'constructor']) expect(failClosed(event, 'boom')).toEqual({ exitCode: 2, stdout: '', stderr: 'hookbox: boom\n' });
  });

  it('answers each seam from the table; a seam outside it throws, naming it (never a silent no opinion)', () => {
    const answer = answerBySeam(Object.fromEntries(SEAM_IDS.map((seam) => [seam, () => jsonAnswer({ seen: seam })])) as Record<SeamId, () => AgentAnswer>);
    for (const seam of SEAM_IDS) {
      const event = { event: 'Any', sessionId: 's', cwd: '/w', seam, payload: {} as never };
      expect(JSON.parse(answer(event, {} as never).stdout)).toEqual({ seen: seam });
    }
    const event = { event: 'SessionStart', sessionId: 's', cwd: '/w', seam: 'agent/session-start', payload: { source: 'startup' } } as const;
    expect(() => answer({ ...event, seam: 'session/end' as never, payload: {} as never }, {} as never)).toThrow(/no answer for seam session\/end/);
  });
});
