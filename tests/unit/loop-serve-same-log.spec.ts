/**
 * `hookbox run` and `hookbox serve` record a seam's outcome the same way
 * (host/loop/seam-outcome.ts): the same hooks decide the same seam sequence
 * — a prompt with context, a tool result replaced with context, a denied
 * call, a stop, then a blocked prompt — once through the loop (a real
 * Session, a real tool, a model that asks for the calls) and once through
 * serve (`decideAgentEvent` with Claude Code's events, a real session table
 * and log), and the two session logs hold the same events.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { claudeCodeBridge } from '../../host/agents/index.ts';
import { NO_OPINION, SeamBus, nativeHook } from '../../host/events/index.ts';
import { type SessionEvent, readSessionLog } from '../../host/log/index.ts';
import { Session } from '../../host/loop/index.ts';
import type { ModelProvider } from '../../host/loop/provider.ts';
import type { Tool } from '../../host/loop/tool.ts';
import { SessionTable, decideAgentEvent } from '../../host/serve/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

const CALLS = [
  { id: 'call-1', command: 'echo one' },
  { id: 'call-2', command: 'rm -rf build' },
] as const;

/** The operator's hooks, the same bus for both: context on prompts, a redacted result, `rm` denied, one prompt refused. */
function hooks(): SeamBus {
  const bus = new SeamBus();
  bus.use(
    nativeHook({
      name: 'policy',
      handlers: {
        'agent/prompt-submit': (payload) =>
          payload.content.includes('forbidden') ? { action: 'block', reason: 'no forbidden prompts' } : { action: 'allow', additionalContext: 'prompt context' },
        'tools/pre-execute': (payload) => (String(payload.arguments.command).startsWith('rm') ? { action: 'deny', reason: 'no rm' } : NO_OPINION),
        'tools/post-execute': (payload) => ({ action: 'accept', content: payload.result.content.replace('one', '[redacted]'), additionalContext: 'post context' }),
      },
    }),
  );
  return bus;
}

/** The events both must agree on, without times and the loop's own model records (serve never sees the model). */
function comparable(events: readonly SessionEvent[]): unknown[] {
  return events
    .filter((event) => !['session/start', 'assistant/message', 'hook/invoke'].includes(event.type))
    .map((event) => {
      const { at: _at, ...rest } = event as SessionEvent & { at?: string };
      // A loop turn counts its model calls as steps (one more than its tool calls); serve counts the calls it sees.
      if (rest.type === 'turn/end') return { type: rest.type, turn: rest.turn, reason: rest.reason, message: rest.message };
      return rest;
    });
}

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-run-serve-');
});
afterEach(() => workspace.dispose());

async function throughRun(): Promise<SessionEvent[]> {
  const replies = [...CALLS.map((call) => [{ id: call.id, name: 'bash', arguments: { command: call.command } }]), []];
  const provider: ModelProvider = {
    name: 'test',
    complete: async () => {
      const calls = replies.shift() ?? [];
      return { text: calls.length === 0 ? 'done' : '', toolCalls: calls };
    },
  };
  const bash: Tool = {
    name: 'bash',
    description: 'prints its command',
    arguments: z.looseObject({ command: z.string() }),
    run: async (args) => ({ content: (args as { command: string }).command.replace('echo ', ''), isError: false }),
  };
  const logPath = path.join(workspace.dir, 'run.jsonl');
  const session = await Session.start({ provider, bus: hooks(), tools: [bash as Tool<never>], cwd: workspace.dir, logPath });
  await session.prompt('hello');
  await session.prompt('something forbidden');
  session.close();
  return readSessionLog(logPath).events;
}

async function throughServe(): Promise<SessionEvent[]> {
  const logDir = path.join(workspace.dir, 'serve');
  const sessions = new SessionTable({ maxSessions: 2, idleMs: 60_000, logDir });
  const options = { bus: hooks(), sessions, maxContinuations: 3 };
  const common = { session_id: 'same-log', cwd: workspace.dir };
  const tool = (call: (typeof CALLS)[number]) => ({ tool_name: 'Bash', tool_input: { command: call.command }, tool_use_id: call.id });
  const events = [
    { hook_event_name: 'SessionStart', source: 'startup' },
    { hook_event_name: 'UserPromptSubmit', prompt: 'hello' },
    { hook_event_name: 'PreToolUse', ...tool(CALLS[0]) },
    { hook_event_name: 'PostToolUse', ...tool(CALLS[0]), tool_response: { stdout: 'one', stderr: '', interrupted: false } },
    { hook_event_name: 'PreToolUse', ...tool(CALLS[1]) },
    { hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' },
    { hook_event_name: 'UserPromptSubmit', prompt: 'something forbidden' },
  ];
  for (const event of events) {
    const decided = await decideAgentEvent(claudeCodeBridge, { ...common, ...event }, options);
    expect(decided.decision, event.hook_event_name).not.toMatch(/^(invalid|error|pass)$/);
  }
  sessions.closeAll();
  return readSessionLog(path.join(logDir, 'claude-code-same-log.jsonl')).events;
}

describe('run and serve record the same seam outcomes', () => {
  it('the same hooks over the same seams leave the same session log events', async () => {
    const run = comparable(await throughRun());
    const served = comparable(await throughServe());
    expect(served).toEqual(run);
    // What both hold, so an empty or trivial pair cannot pass.
    expect(run).toContainEqual({ type: 'user/message', turn: 1, content: 'hello' });
    expect(run).toContainEqual(expect.objectContaining({ type: 'tool/result', toolCallId: 'call-1', content: '[redacted]', hookEffect: 'replaced' }));
    expect(run).toContainEqual(expect.objectContaining({ type: 'tool/result', toolCallId: 'call-2', hookEffect: 'denied' }));
    expect(run).toContainEqual({ type: 'prompt/blocked', turn: 2, reason: 'no forbidden prompts', content: 'something forbidden' });
  });
});
