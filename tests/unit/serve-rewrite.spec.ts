/**
 * `serve` and a pre-tool rewrite (docs/rfc-tool-input-rewrite.md): the
 * rewrite is logged (`tool/rewrite`) before the agent runs anything; an agent
 * bridge that cannot take it is answered a deny saying the rewrite could not
 * be applied — never the original call; one that can gets `allow {arguments}`.
 * A scripted bridge writes the decision back whole; a real SeamBus, native
 * hooks, session table and log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedAgentEvent } from '../../host/agents/index.ts';
import { NO_OPINION, SeamBus, nativeHook } from '../../host/events/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { unappliedRewriteText } from '../../host/loop/reactions.ts';
import { type DecidingBridge, SessionTable, decideAgentEvent } from '../../host/serve/index.ts';

let logDir: string;
let sessions: SessionTable;
beforeEach(() => {
  logDir = mkdtempSync(path.join(tmpdir(), 'hookbox-serve-rewrite-'));
  sessions = new SessionTable({ maxSessions: 4, idleMs: 60_000, logDir });
});
afterEach(() => {
  sessions.closeAll();
  rmSync(logDir, { recursive: true, force: true });
});

function bridge(canRewriteToolInput?: boolean, notesRewrittenCall?: true): DecidingBridge {
  return {
    name: 'scripted',
    label: 'Scripted Agent',
    canReplace: { prompt: true, toolResult: true },
    ...(canRewriteToolInput !== undefined && { canRewriteToolInput }),
    ...(notesRewrittenCall !== undefined && { notesRewrittenCall }),
    toSeam: (input) => input as ParsedAgentEvent,
    answer: (_event, decision) => ({ exitCode: 0, stdout: JSON.stringify(decision), stderr: '' }),
    failClosed: (_event, reason) => ({ exitCode: 2, stdout: '', stderr: reason }),
  };
}

const toB = nativeHook({
  name: 'a-to-b',
  handlers: {
    'tools/pre-execute': (payload) =>
      payload.arguments.command === 'echo A > out.txt' ? { action: 'allow', arguments: { ...payload.arguments, command: 'echo B > out.txt' } } : NO_OPINION,
  },
});
const asker = nativeHook({ name: 'asker', handlers: { 'tools/pre-execute': () => ({ action: 'ask', reason: 'check' }) } });

function busOf(hooks: readonly ReturnType<typeof nativeHook>[]): SeamBus {
  const bus = new SeamBus();
  for (const hook of hooks) bus.use(hook);
  return bus;
}

async function decide(hooks: readonly ReturnType<typeof nativeHook>[], on: DecidingBridge, table = sessions): Promise<unknown> {
  const event: ParsedAgentEvent = {
    kind: 'seam',
    event: { event: 'PreToolUse', sessionId: 's1', cwd: '/work/project', seam: 'tools/pre-execute', payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'echo A > out.txt' } } },
  };
  const decided = await decideAgentEvent(on, event, { bus: busOf(hooks), sessions: table, maxContinuations: 2 });
  return JSON.parse(decided.answer.stdout);
}

/** The call's PostToolUse, as the agent reports it: under `toolCallId`, with `args` (an agent may report the rewritten ones). */
async function decidePost(hooks: readonly ReturnType<typeof nativeHook>[], on: DecidingBridge, toolCallId = 'c1', args = { command: 'echo B > out.txt' }, table = sessions): Promise<unknown> {
  const event: ParsedAgentEvent = {
    kind: 'seam',
    event: { event: 'PostToolUse', sessionId: 's1', cwd: '/work/project', seam: 'tools/post-execute', payload: { toolCallId, toolName: 'bash', arguments: args, result: { content: 'done', isError: false } } },
  };
  const decided = await decideAgentEvent(on, event, { bus: busOf(hooks), sessions: table, maxContinuations: 2 });
  return JSON.parse(decided.answer.stdout);
}

const NOTE = '[hookbox: this call was rewritten by hook "a-to-b" before it ran; it ran with arguments {"command":"echo B > out.txt"}]';
const context = nativeHook({ name: 'context', handlers: { 'tools/post-execute': () => ({ action: 'accept', additionalContext: 'from a hook' }) } });
const withhold = nativeHook({ name: 'withhold', handlers: { 'tools/post-execute': () => ({ action: 'block', reason: 'secret' }) } });

const logged = () => readSessionLog(path.join(logDir, 'scripted-s1.jsonl')).events.filter((event) => event.type === 'tool/rewrite' || event.type === 'tool/result');

describe('serve: a rewritten call', () => {
  it('an agent bridge that cannot take a rewrite is answered a deny naming the rewrite; the log holds both', async () => {
    const reason = unappliedRewriteText('Scripted Agent', { command: 'echo B > out.txt' });
    expect(await decide([toB], bridge())).toStrictEqual({ action: 'deny', reason });
    expect(reason).toContain('could not be applied in Scripted Agent, so it was not run');
    expect(logged()).toMatchObject([
      { type: 'tool/rewrite', original: { command: 'echo A > out.txt' }, arguments: { command: 'echo B > out.txt' }, hooks: ['a-to-b'] },
      { type: 'tool/result', hookEffect: 'denied', content: `Tool call denied by a hook: ${reason}` },
    ]);
  });

  it('one that can is answered allow with the final arguments', async () => {
    expect(await decide([toB], bridge(true))).toStrictEqual({ action: 'allow', arguments: { command: 'echo B > out.txt' } });
    expect(logged()).toMatchObject([{ type: 'tool/rewrite', arguments: { command: 'echo B > out.txt' } }]);
  });

  it('an ask on a rewritten call carries no arguments, so even that bridge is answered a deny', async () => {
    expect(await decide([toB, asker], bridge(true))).toMatchObject({ action: 'deny', reason: expect.stringContaining('could not be applied') });
  });
});

describe('serve: what the model is told about a rewritten call (the one note)', () => {
  it('the call\'s post-tool answer carries the note first in its context, naming the hooks, before any hook\'s own context; the log says so', async () => {
    await decide([toB], bridge(true));
    expect(await decidePost([context], bridge(true))).toStrictEqual({ action: 'accept', additionalContext: `${NOTE}\n\nfrom a hook` });
    const told = readSessionLog(path.join(logDir, 'scripted-s1.jsonl')).events.filter((event) => event.type === 'context/message');
    expect(told).toMatchObject([{ source: 'post-tool', content: `${NOTE}\n\nfrom a hook` }]);
  });

  it('an agent that reports the rewritten call under another id (one derived from its arguments) is matched by them', async () => {
    await decide([toB], bridge(true));
    expect(await decidePost([], bridge(true), 'derived-from-b')).toStrictEqual({ action: 'accept', additionalContext: NOTE });
    // No second tool/call: the post-tool event paired with the rewritten call.
    expect(readSessionLog(path.join(logDir, 'scripted-s1.jsonl')).events.filter((event) => event.type === 'tool/call')).toHaveLength(1);
  });

  it('the session read back from its log (no server: one process per event) still knows the rewrite', async () => {
    await decide([toB], bridge(true));
    sessions.closeAll();
    const reopened = new SessionTable({ maxSessions: 4, idleMs: 60_000, logDir });
    try {
      expect(await decidePost([], bridge(true), 'c1', undefined, reopened)).toStrictEqual({ action: 'accept', additionalContext: NOTE });
    } finally {
      reopened.closeAll();
    }
  });

  it('none where the bridge\'s pre-tool answer told the model already, none on a withheld result, none for a call not rewritten', async () => {
    await decide([toB], bridge(true, true));
    expect(await decidePost([], bridge(true, true))).toStrictEqual({ action: 'accept' });
    await decide([toB], bridge(true));
    expect(await decidePost([withhold], bridge(true))).toStrictEqual({ action: 'block', reason: 'secret' });
    await decide([], bridge(true));
    expect(await decidePost([], bridge(true), 'c1', { command: 'echo A > out.txt' })).toStrictEqual({ action: 'accept' });
  });

  it('a rewrite the agent could not take was denied: its deny is what the model reads, and no note follows', async () => {
    await decide([toB], bridge());
    expect(await decidePost([], bridge())).toStrictEqual({ action: 'accept' });
  });
});
