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

function bridge(canRewriteToolInput?: boolean): DecidingBridge {
  return {
    name: 'scripted',
    label: 'Scripted Agent',
    canReplace: { prompt: true, toolResult: true },
    ...(canRewriteToolInput !== undefined && { canRewriteToolInput }),
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

async function decide(hooks: readonly ReturnType<typeof nativeHook>[], on: DecidingBridge): Promise<unknown> {
  const bus = new SeamBus();
  for (const hook of hooks) bus.use(hook);
  const event: ParsedAgentEvent = {
    kind: 'seam',
    event: { event: 'PreToolUse', sessionId: 's1', cwd: '/work/project', seam: 'tools/pre-execute', payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'echo A > out.txt' } } },
  };
  const decided = await decideAgentEvent(on, event, { bus, sessions, maxContinuations: 2 });
  return JSON.parse(decided.answer.stdout);
}

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
