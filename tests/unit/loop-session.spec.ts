/**
 * The session (host/loop/session.ts) over a real log file in a temp folder:
 * what start and resume write, where hook calls and hook logs land, inject,
 * steer, cancel, and the options it passes on — each log compared whole.
 * The loop's rules inside a turn are tests/unit/loop-turn.spec.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NO_OPINION, type NativeHandlers, SeamBus, nativeHook } from '../../host/events/index.ts';
import { type SessionEvent, readSessionLog } from '../../host/log/index.ts';
import { LOOP_DEFAULTS, Session, type SessionOptions } from '../../host/loop/index.ts';
import type { ModelProvider, ModelRequest } from '../../host/loop/provider.ts';
import type { Tool } from '../../host/loop/tool.ts';
import { ATTR, SPAN, TelemetryRecorder, setTelemetry } from '../../host/telemetry/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

const AT = expect.any(String);
let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-loop-session-');
});
afterEach(() => workspace.dispose());

/** A model that answers each call with the next text (or the calls of `tools`), recording what it was asked. */
function model(replies: ({ text: string } | { calls: string[] })[]) {
  const requests: ModelRequest[] = [];
  const provider: ModelProvider = {
    name: 'test',
    async complete(request) {
      requests.push({ ...request, messages: structuredClone([...request.messages]) });
      const reply = replies.shift();
      if (reply === undefined) throw new Error('no more replies');
      return 'text' in reply ? { text: reply.text, toolCalls: [] } : { text: '', toolCalls: reply.calls.map((id) => ({ id, name: 'echo', arguments: {} })) };
    },
  };
  return { provider, requests };
}

/** `SessionOptions.tools` holds tools of any argument type (`Tool<never>`). */
const tool = (run: Tool['run'] = async () => ({ content: 'echoed', isError: false })): Tool<never> =>
  ({ name: 'echo', description: 'echoes', arguments: z.strictObject({}), run }) as unknown as Tool<never>;

function busWith(...hooks: NativeHandlers[]): SeamBus {
  const bus = new SeamBus();
  hooks.forEach((handlers, at) => bus.use(nativeHook({ name: `h${at + 1}`, handlers })));
  return bus;
}

const options = (provider: ModelProvider, extra: Partial<SessionOptions> = {}): SessionOptions => ({
  provider,
  cwd: workspace.dir,
  logPath: workspace.logPath,
  sessionId: 'sess-1',
  tools: [tool()],
  ...extra,
});
const logged = (): SessionEvent[] => readSessionLog(workspace.logPath).events;

describe('Session.start', () => {
  it('writes session/start, fires session-start with startup, and its context opens the first turn', async () => {
    const seen: unknown[] = [];
    const { provider, requests } = model([{ text: 'ok' }]);
    const bus = busWith({
      'agent/session-start': (payload, { session }) => (seen.push([payload, session]), { additionalContext: 'rules' }),
    });
    const session = await Session.start(options(provider, { bus }));
    try {
      expect(seen).toStrictEqual([[{ source: 'startup' }, { id: 'sess-1', turn: 0, step: 0, cwd: workspace.dir }]]);
      expect(await session.prompt('hi')).toStrictEqual({ turn: 1, reason: 'completed', steps: 1 });
    } finally {
      await session.close();
    }
    expect(logged()).toStrictEqual([
      { type: 'session/start', sessionId: 'sess-1', cwd: workspace.dir, source: 'startup', at: AT },
      // session-start fires before any turn: its call is logged with no turn or step.
      { type: 'hook/invoke', hook: 'h1', seam: 'agent/session-start', durationUs: expect.any(Number), outcome: 'decision', decision: { additionalContext: 'rules' }, applied: { additionalContext: 'rules' } },
      { type: 'turn/start', turn: 1, at: AT },
      { type: 'context/message', turn: 1, content: 'rules', source: 'session-start' },
      { type: 'user/message', turn: 1, content: 'hi' },
      { type: 'assistant/message', turn: 1, step: 1, content: 'ok', toolCalls: [] },
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 1 },
    ]);
    expect(requests[0]?.tools.map((tool) => tool.name)).toStrictEqual(['echo']);
  });

  it('without a sessionId makes a UUID; without a bus runs with none; onOpen sees the session before its first event', async () => {
    let eventsAtOpen = -1;
    const { provider } = model([]);
    const session = await Session.start({
      provider,
      cwd: workspace.dir,
      logPath: workspace.logPath,
      onOpen: (opened) => {
        eventsAtOpen = readFileSync(workspace.logPath, 'utf8').length;
        opened.onEvent(() => {});
      },
    });
    await session.close();
    expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventsAtOpen).toBe(0);
    expect(logged()).toStrictEqual([{ type: 'session/start', sessionId: session.id, cwd: workspace.dir, source: 'startup', at: AT }]);
  });

  it('hook calls inside a turn carry its turn and step; hook logs carry the turn when one is open', async () => {
    const { provider } = model([{ calls: ['c1'] }, { text: 'done' }]);
    const opened: { session?: Session } = {};
    const bus = busWith({
      'tools/pre-execute': () => {
        opened.session?.recordHookLog('h1', 'warn', 'looking');
        return NO_OPINION;
      },
    });
    const session = await Session.start(options(provider, { bus, onOpen: (at) => (opened.session = at) }));
    try {
      session.recordHookLog('h1', 'info', 'before any turn');
      await session.prompt('go');
      session.recordHookLog('h1', 'debug', 'after the turn');
    } finally {
      await session.close();
    }
    const hookEvents = logged().filter((event) => event.type === 'hook/invoke' || event.type === 'hook/log');
    expect(hookEvents).toStrictEqual([
      { type: 'hook/log', hook: 'h1', level: 'info', message: 'before any turn' },
      { type: 'hook/log', turn: 1, hook: 'h1', level: 'warn', message: 'looking' },
      { type: 'hook/invoke', turn: 1, step: 1, hook: 'h1', seam: 'tools/pre-execute', durationUs: expect.any(Number), outcome: 'no-opinion', applied: null },
      { type: 'hook/log', hook: 'h1', level: 'debug', message: 'after the turn' },
    ]);
  });

  it('inject between turns waits for the next turn; inject inside a turn lands in it at once', async () => {
    const opened: { session?: Session } = {};
    const { provider } = model([{ calls: ['c1'] }, { text: 'done' }]);
    const injecting = tool(async () => (opened.session?.inject('during'), { content: 'echoed', isError: false }));
    const session = await Session.start(options(provider, { tools: [injecting], onOpen: (at) => (opened.session = at) }));
    try {
      session.inject('before');
      await session.prompt('go');
    } finally {
      await session.close();
    }
    expect(logged().filter((event) => event.type === 'context/message')).toStrictEqual([
      { type: 'context/message', turn: 1, content: 'before', source: 'inject' },
      { type: 'context/message', turn: 1, content: 'during', source: 'inject' },
    ]);
  });

  it('submit queues prompts for one turn (source api unless told); steer waits for the next step', async () => {
    const seen: unknown[] = [];
    const { provider } = model([{ text: 'ok' }]);
    const bus = busWith({ 'agent/prompt-submit': (payload) => (seen.push(payload), NO_OPINION) });
    const session = await Session.start(options(provider, { bus }));
    try {
      session.submit('one');
      session.submit('two', 'cli');
      session.steer('focus');
      expect(await session.runTurn()).toStrictEqual({ turn: 1, reason: 'completed', steps: 1 });
      await session.prompt('three'); // the model has no reply left: the turn ends in an error, after prompt-submit
      await session.prompt('four', 'acp');
    } finally {
      await session.close();
    }
    expect(seen).toStrictEqual([
      { content: 'one', source: 'api' },
      { content: 'two', source: 'cli' },
      { content: 'three', source: 'api' },
      { content: 'four', source: 'acp' },
    ]);
    expect(logged().filter((event) => event.type === 'steering/message')).toStrictEqual([{ type: 'steering/message', turn: 1, content: 'focus' }]);
  });

  it('onEvent sees each appended event until unsubscribed; info follows the turn', async () => {
    const { provider } = model([{ text: 'a' }, { text: 'b' }]);
    const session = await Session.start(options(provider));
    const seen: string[] = [];
    try {
      const stop = session.onEvent((event) => seen.push(event.type));
      await session.prompt('one');
      expect(session.info()).toStrictEqual({ id: 'sess-1', turn: 1, step: 1, cwd: workspace.dir });
      stop();
      await session.prompt('two');
      expect(session.info()).toStrictEqual({ id: 'sess-1', turn: 2, step: 1, cwd: workspace.dir });
    } finally {
      await session.close();
    }
    expect(seen).toStrictEqual(['turn/start', 'user/message', 'assistant/message', 'turn/end']);
  });

  it('a cancel ends the running turn cancelled and the next turn runs with a fresh signal', async () => {
    const opened: { session?: Session } = {};
    const { provider } = model([{ calls: ['c1'] }, { text: 'after' }]);
    const cancelling = tool(async () => (opened.session?.cancel(), { content: 'echoed', isError: false }));
    const session = await Session.start(options(provider, { tools: [cancelling], onOpen: (at) => (opened.session = at) }));
    try {
      expect(await session.prompt('one')).toStrictEqual({ turn: 1, reason: 'cancelled', steps: 1 });
      expect(session.signal.aborted).toBe(true);
      expect(await session.prompt('two')).toStrictEqual({ turn: 2, reason: 'completed', steps: 1 });
      expect(session.signal.aborted).toBe(false);
    } finally {
      await session.close();
    }
  });

  it('passes maxSteps, maxContinuations, the prompter and askTimeoutMs on; defaults are LOOP_DEFAULTS', async () => {
    const { provider } = model([{ calls: ['c1'] }, { calls: ['c2'] }, { text: 'never' }]);
    const asked: string[] = [];
    const bus = busWith({ 'tools/pre-execute': () => ({ action: 'ask', reason: 'may I?' }) });
    const session = await Session.start(
      options(provider, { bus, maxSteps: 2, askTimeoutMs: 5, prompter: { ask: (request) => (asked.push(request.toolCall.id), new Promise(() => {})) } }),
    );
    try {
      expect(await session.prompt('go')).toStrictEqual({ turn: 1, reason: 'max-steps', steps: 2, message: 'stopped after 2 steps' });
    } finally {
      await session.close();
    }
    expect(asked).toStrictEqual(['c1', 'c2']);
    expect(logged().find((event) => event.type === 'tool/ask')).toMatchObject({ answer: 'deny', reason: 'may I? (ask degraded to deny: no answer within 5 ms)' });

    const capped = model(Array.from({ length: 10 }, () => ({ text: 'again' })));
    const forcing = busWith({ 'agent/turn-continuation': () => ({ action: 'continue' }) });
    const defaults = await Session.start(options(capped.provider, { bus: forcing, logPath: `${workspace.dir}/second.jsonl` }));
    try {
      expect(await defaults.prompt('go')).toStrictEqual({
        turn: 1,
        reason: 'completed',
        steps: LOOP_DEFAULTS.maxContinuations + 1,
        message: `continuation cap reached (${LOOP_DEFAULTS.maxContinuations})`,
      });
    } finally {
      await defaults.close();
    }
  });
});

describe('Session telemetry and close', () => {
  it('with telemetry on, each turn runs inside a turn span naming the session and that turn', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const previous = setTelemetry(new TelemetryRecorder(tracerProvider.getTracer('hookbox'), new MeterProvider().getMeter('hookbox')));
    const { provider } = model([{ text: 'a' }, { text: 'b' }]);
    const session = await Session.start(options(provider));
    try {
      expect(await session.prompt('one')).toStrictEqual({ turn: 1, reason: 'completed', steps: 1 });
      expect(await session.prompt('two')).toStrictEqual({ turn: 2, reason: 'completed', steps: 1 });
    } finally {
      await session.close();
      setTelemetry(previous);
    }
    const turns = exporter.getFinishedSpans().filter((span) => span.name === SPAN.turn);
    expect(turns.map((span) => [span.attributes[ATTR.sessionId], span.attributes[ATTR.turn], span.attributes[ATTR.turnEndReason]])).toStrictEqual([
      ['sess-1', 1, 'completed'],
      ['sess-1', 2, 'completed'],
    ]);
  });

  it('close closes the log: nothing more can be written to it', async () => {
    const { provider } = model([]);
    const session = await Session.start(options(provider));
    await session.close();
    expect(() => session.recordHookLog('h', 'info', 'late')).toThrow(`session log ${workspace.logPath} is closed`);
    expect(logged().map((event) => event.type)).toStrictEqual(['session/start']);
  });
});

describe('Session.resume', () => {
  async function firstSession(replies: ({ text: string } | { calls: string[] })[], prompts: string[]) {
    const { provider } = model(replies);
    const session = await Session.start(options(provider));
    try {
      for (const prompt of prompts) await session.prompt(prompt);
    } finally {
      await session.close();
    }
  }

  it('keeps the session id, restores the conversation, fires session-start with resume and numbers turns on', async () => {
    await firstSession([{ text: 'a' }, { text: 'b' }], ['one', 'two']);
    const before = logged().length;
    const seen: unknown[] = [];
    const { provider, requests } = model([{ text: 'c' }]);
    const bus = busWith({ 'agent/session-start': (payload, { session }) => (seen.push([payload, session]), NO_OPINION) });
    const resumed = await Session.resume(options(provider, { bus, sessionId: 'ignored' }));
    try {
      expect(resumed.id).toBe('sess-1');
      expect(seen).toStrictEqual([[{ source: 'resume' }, { id: 'sess-1', turn: 2, step: 1, cwd: workspace.dir }]]);
      expect(await resumed.prompt('three')).toStrictEqual({ turn: 3, reason: 'completed', steps: 1 });
    } finally {
      await resumed.close();
    }
    expect(requests[0]?.messages).toStrictEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'a', toolCalls: [] },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'b', toolCalls: [] },
      { role: 'user', content: 'three' },
    ]);
    expect(logged().slice(before, before + 1)).toStrictEqual([{ type: 'session/start', sessionId: 'sess-1', cwd: workspace.dir, source: 'resume', at: AT }]);
  });

  it('a log that ended inside a turn gets that turn closed as cancelled at its last step, before session/start', async () => {
    await firstSession([{ text: 'a' }], ['one']);
    const lines = readFileSync(workspace.logPath, 'utf8').trimEnd().split('\n');
    // Drop the turn/end and add a half-written line, as a crash mid-step would leave.
    writeFileSync(workspace.logPath, `${lines.slice(0, -1).join('\n')}\n{"type":"tool/res`);
    const { provider } = model([{ text: 'b' }]);
    const resumed = await Session.resume(options(provider));
    try {
      expect(await resumed.prompt('two')).toStrictEqual({ turn: 2, reason: 'completed', steps: 1 });
    } finally {
      await resumed.close();
    }
    const after = logged().slice(lines.length - 1);
    expect(after.slice(0, 2)).toStrictEqual([
      { type: 'turn/end', turn: 1, reason: 'cancelled', steps: 1, message: 'interrupted: the log ended inside this turn' },
      { type: 'session/start', sessionId: 'sess-1', cwd: workspace.dir, source: 'resume', at: AT },
    ]);
    expect(readSessionLog(workspace.logPath).tornBytes).toBe(0);
  });

  it('after closing the interrupted turn no turn is open: the resume’s session-start call is logged outside any turn', async () => {
    await firstSession([{ text: 'a' }], ['one']);
    const lines = readFileSync(workspace.logPath, 'utf8').trimEnd().split('\n');
    writeFileSync(workspace.logPath, `${lines.slice(0, -1).join('\n')}\n`);
    const { provider } = model([]);
    const resumed = await Session.resume(options(provider, { bus: busWith({ 'agent/session-start': () => NO_OPINION }) }));
    await resumed.close();
    expect(logged().slice(lines.length - 1)).toStrictEqual([
      { type: 'turn/end', turn: 1, reason: 'cancelled', steps: 1, message: 'interrupted: the log ended inside this turn' },
      { type: 'session/start', sessionId: 'sess-1', cwd: workspace.dir, source: 'resume', at: AT },
      { type: 'hook/invoke', hook: 'h1', seam: 'agent/session-start', durationUs: expect.any(Number), outcome: 'no-opinion', applied: null },
    ]);
  });

  it('a log whose session/start is not its first line resumes under that session’s id', async () => {
    const hookLog = { type: 'hook/log', hook: 'h', level: 'info', message: 'early' };
    const startLine = { type: 'session/start', sessionId: 'from-log', cwd: workspace.dir, source: 'startup', at: 'x' };
    writeFileSync(workspace.logPath, `${JSON.stringify(hookLog)}\n${JSON.stringify(startLine)}\n`);
    const { provider } = model([]);
    const resumed = await Session.resume(options(provider));
    await resumed.close();
    expect(resumed.id).toBe('from-log');
  });

  it('a log that ended between turns is not closed again', async () => {
    await firstSession([{ text: 'a' }], ['one']);
    const before = logged().length;
    const { provider } = model([]);
    const resumed = await Session.resume(options(provider));
    await resumed.close();
    expect(logged().slice(before).map((event) => event.type)).toStrictEqual(['session/start']);
  });

  it('a log without session/start resumes under a new UUID', async () => {
    writeFileSync(workspace.logPath, `${JSON.stringify({ type: 'turn/start', turn: 1, at: 'x' })}\n${JSON.stringify({ type: 'turn/end', turn: 1, reason: 'completed', steps: 0 })}\n`);
    const { provider } = model([]);
    const resumed = await Session.resume(options(provider));
    await resumed.close();
    expect(resumed.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(resumed.id).not.toBe('sess-1');
  });

  it('a resumed log whose last step left a call unanswered gives the model an interrupted result for it', async () => {
    await firstSession([{ calls: ['c1'] }, { text: 'done' }], ['one']);
    const lines = readFileSync(workspace.logPath, 'utf8').trimEnd().split('\n');
    const cut = lines.findIndex((line) => line.includes('"tool/result"'));
    writeFileSync(workspace.logPath, `${lines.slice(0, cut).join('\n')}\n`);
    const { provider, requests } = model([{ text: 'b' }]);
    const resumed = await Session.resume(options(provider));
    try {
      await resumed.prompt('two');
    } finally {
      await resumed.close();
    }
    expect(requests[0]?.messages.slice(1, 3)).toStrictEqual([
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'echo', arguments: {} }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'echo', content: 'tool call interrupted: the session ended before it produced a result', isError: true },
    ]);
  });
});
