import { truncateSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_OPINION, nativeHook } from '../../host/events/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { type PermissionPrompter, type PermissionRequest, Session, type Tool } from '../../host/loop/index.ts';
import { ScriptedProvider } from '../../host/providers/scripted.ts';
import { SeamBus } from '../../host/events/index.ts';
import { builtinTools } from '../../host/tools/index.ts';
import { type TestWorkspace, events, makeWorkspace, sequence, startSession } from '../helpers/session.ts';
import { boomTool, echoTool } from '../helpers/tools.ts';

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace();
});
afterEach(() => workspace.dispose());

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args });

describe('prompt-submit (RFC decision 1: the turn opens first)', () => {
  const blockSecrets = nativeHook({
    name: 'block-secrets',
    handlers: {
      'agent/prompt-submit': (payload) =>
        payload.content.includes('SECRET') ? { action: 'block', reason: 'prompt contains a secret' } : NO_OPINION,
    },
  });

  it('a fully blocked batch is a zero-step turn ending rejected, with the reason in-turn', async () => {
    const session = await startSession(workspace, { hooks: [blockSecrets], script: { steps: [] } });
    try {
      session.submit('here is SECRET one');
      session.submit('and SECRET two');
      const outcome = await session.runTurn();
      expect(outcome).toEqual({
        turn: 1,
        reason: 'rejected',
        steps: 0,
        message: 'prompt contains a secret; prompt contains a secret',
      });
    } finally {
      await session.close();
    }
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'prompt/blocked 1: prompt contains a secret',
      'prompt/blocked 1: prompt contains a secret',
      'turn/end 1 rejected steps=0',
    ]);
    // The blocked prompts are recorded for audit and replay, but never reach the model.
    const blocked = events(workspace).filter((e) => e.type === 'prompt/blocked');
    expect(blocked.map((e) => e.type === 'prompt/blocked' && e.content)).toEqual(['here is SECRET one', 'and SECRET two']);
    expect(session.conversation.messages).toEqual([]);
  });

  it('a batch with one blocked and one allowed prompt runs the allowed one', async () => {
    const session = await startSession(workspace, { hooks: [blockSecrets], script: { steps: [{ text: 'done' }] } });
    try {
      session.submit('SECRET stuff');
      session.submit('list the files');
      expect((await session.runTurn()).reason).toBe('completed');
    } finally {
      await session.close();
    }
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'prompt/blocked 1: prompt contains a secret',
      'user/message 1: list the files',
      'assistant/message 1.1: done',
      'turn/end 1 completed steps=1',
    ]);
  });

  it('allow threads a rewritten prompt to later hooks and injects additionalContext into the open turn', async () => {
    const seen: string[] = [];
    const rewrite = nativeHook({
      name: 'rewrite',
      handlers: {
        'agent/prompt-submit': (payload) => ({
          action: 'allow',
          content: payload.content.toUpperCase(),
          additionalContext: 'conventions: use pnpm',
        }),
      },
    });
    const observe = nativeHook({
      name: 'observe',
      handlers: {
        'agent/prompt-submit': (payload, { next }) => {
          seen.push(payload.content, JSON.stringify(next));
          return { action: 'allow', additionalContext: 'tests live in tests/' };
        },
      },
    });
    const session = await startSession(workspace, { hooks: [rewrite, observe], script: { steps: [{ text: 'ok' }] } });
    try {
      await session.prompt('fix the bug');
      const toModel = session.conversation.messages.slice(0, 2);
      expect(toModel).toEqual([
        { role: 'user', content: 'FIX THE BUG' },
        { role: 'context', content: 'conventions: use pnpm\n\ntests live in tests/' },
      ]);
    } finally {
      await session.close();
    }
    expect(seen).toEqual([
      'FIX THE BUG',
      JSON.stringify({ action: 'allow', content: 'FIX THE BUG', additionalContext: 'conventions: use pnpm' }),
    ]);
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'user/message 1: FIX THE BUG',
      'context/message 1 (prompt-submit): conventions: use pnpm\n\ntests live in tests/',
      'assistant/message 1.1: ok',
      'turn/end 1 completed steps=1',
    ]);
  });
});

describe('post-tool (RFC decision 2: contexts after all results)', () => {
  it('buffers each call\'s additionalContext until every tool/result of the step is appended', async () => {
    const annotate = nativeHook({
      name: 'annotate',
      handlers: {
        'tools/post-execute': (payload) => ({ action: 'accept', additionalContext: `note for ${payload.toolCallId}` }),
      },
    });
    const session = await startSession(workspace, {
      hooks: [annotate],
      tools: [echoTool() as unknown as Tool<never>],
      script: {
        steps: [{ toolCalls: [call('c1', 'echo', { text: 'one' }), call('c2', 'echo', { text: 'two' })] }, { text: 'done' }],
      },
    });
    try {
      await session.prompt('go');
    } finally {
      await session.close();
    }
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'user/message 1: go',
      'assistant/message 1.1:  [c1,c2]',
      'tool/call 1.1 c1 echo',
      'tool/result 1.1 c1: one',
      'tool/call 1.1 c2 echo',
      'tool/result 1.1 c2: two',
      'context/message 1 (post-tool): note for c1',
      'context/message 1 (post-tool): note for c2',
      'assistant/message 1.2: done',
      'turn/end 1 completed steps=2',
    ]);
  });

  it('replaces result content, and a block withholds the result with the reason', async () => {
    const redact = nativeHook({
      name: 'redact',
      handlers: {
        'tools/post-execute': (payload) =>
          payload.result.content.includes('hunter2')
            ? { action: 'accept', content: payload.result.content.replace('hunter2', '[REDACTED]') }
            : NO_OPINION,
      },
    });
    const blocker = nativeHook({
      name: 'blocker',
      handlers: {
        'tools/post-execute': (payload) =>
          payload.result.content.includes('classified') ? { action: 'block', reason: 'classified output' } : NO_OPINION,
      },
    });
    const session = await startSession(workspace, {
      hooks: [redact, blocker],
      tools: [echoTool() as unknown as Tool<never>],
      script: {
        steps: [
          { toolCalls: [call('c1', 'echo', { text: 'password=hunter2' }), call('c2', 'echo', { text: 'classified plans' })] },
          { text: 'done' },
        ],
      },
    });
    try {
      await session.prompt('go');
    } finally {
      await session.close();
    }
    const all = events(workspace);
    expect(sequence(all)).toEqual([
      'turn/start 1',
      'user/message 1: go',
      'assistant/message 1.1:  [c1,c2]',
      'tool/call 1.1 c1 echo',
      'tool/result 1.1 c1: password=[REDACTED]',
      'tool/call 1.1 c2 echo',
      'tool/result 1.1 c2 error: Tool result withheld by a hook: classified output',
      'assistant/message 1.2: done',
      'turn/end 1 completed steps=2',
    ]);
    // The unredacted output never reaches the log (the model's own arguments do contain it).
    const results = all.filter((e) => e.type === 'tool/result');
    expect(JSON.stringify(results)).not.toContain('hunter2');
    expect(all.filter((e) => e.type === 'tool/result').map((e) => e.type === 'tool/result' && e.hookEffect)).toEqual([
      'replaced',
      'blocked',
    ]);
  });

  it('a thrown tool becomes an isError result that post-execute still inspects', async () => {
    const inspected: unknown[] = [];
    const inspector = nativeHook({
      name: 'inspector',
      handlers: {
        'tools/post-execute': (payload) => {
          inspected.push(payload.result);
          return NO_OPINION;
        },
      },
    });
    const session = await startSession(workspace, {
      hooks: [inspector],
      tools: [boomTool as unknown as Tool<never>],
      script: { steps: [{ toolCalls: [call('c1', 'boom', {})] }, { text: 'it broke' }] },
    });
    try {
      await session.prompt('go');
    } finally {
      await session.close();
    }
    expect(inspected).toEqual([{ content: 'boom failed: kaboom', isError: true }]);
    expect(sequence(events(workspace))).toContain('tool/result 1.1 c1 error: boom failed: kaboom');
  });
});

describe('pre-tool gate', () => {
  const gate = nativeHook({
    name: 'gate',
    tools: ['bash'],
    handlers: {
      'tools/pre-execute': (payload) => {
        const command = String(payload.arguments.command);
        if (command.startsWith('rm ')) return { action: 'deny', reason: 'destructive command' };
        if (command.startsWith('git push')) return { action: 'ask', reason: 'pushing needs a human' };
        return NO_OPINION;
      },
    },
  });
  const script = {
    steps: [
      {
        toolCalls: [
          call('c1', 'bash', { command: 'rm -rf important' }),
          call('c2', 'bash', { command: 'git push > pushed.txt' }),
        ],
      },
      { text: 'ok' },
    ],
  };

  it('deny, and ask without a prompter, give the model an error result with the reason; nothing runs', async () => {
    const session = await startSession(workspace, { hooks: [gate], script });
    try {
      await session.prompt('clean up');
    } finally {
      await session.close();
    }
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'user/message 1: clean up',
      'assistant/message 1.1:  [c1,c2]',
      'tool/call 1.1 c1 bash',
      'tool/result 1.1 c1 error: Tool call denied by a hook: destructive command',
      'tool/call 1.1 c2 bash',
      'tool/result 1.1 c2 error: Tool call denied by a hook: pushing needs a human (ask degraded to deny: no permission prompter attached)',
      'assistant/message 1.2: ok',
      'turn/end 1 completed steps=2',
    ]);
    expect(existsSync(join(workspace.dir, 'pushed.txt'))).toBe(false);
  });

  it('ask goes to the prompter when one is attached', async () => {
    const asked: string[] = [];
    const prompter: PermissionPrompter = {
      async ask(request) {
        asked.push(`${request.toolCall.id}: ${request.reason}`);
        return 'allow';
      },
    };
    const session = await startSession(workspace, { hooks: [gate], script, prompter });
    try {
      await session.prompt('clean up');
    } finally {
      await session.close();
    }
    expect(asked).toEqual(['c2: pushing needs a human']);
    // The allowed command really ran (git fails outside a repository, but the redirect creates the file).
    expect(existsSync(join(workspace.dir, 'pushed.txt'))).toBe(true);
  });

  it('when several hooks ask, the prompter gets every ask attributed, and the log records them with the answer', async () => {
    const first = nativeHook({ name: 'first', tools: ['bash'], handlers: { 'tools/pre-execute': () => ({ action: 'ask', reason: 'just confirm' }) } });
    const requests: PermissionRequest[] = [];
    const prompter: PermissionPrompter = {
      async ask(request) {
        requests.push(request);
        return 'deny';
      },
    };
    const session = await startSession(workspace, { hooks: [first, gate], script, prompter });
    try {
      await session.prompt('clean up');
    } finally {
      await session.close();
    }
    // c1: `gate` denies, so no ask stands; c2: both asked, the first listed does not hide the gate.
    expect(requests.map((request) => [request.toolCall.id, request.asks])).toEqual([
      ['c2', [{ hook: 'first', reason: 'just confirm' }, { hook: 'gate', reason: 'pushing needs a human' }]],
    ]);
    const logged = events(workspace).filter((event) => event.type === 'tool/ask');
    expect(logged).toEqual([
      {
        type: 'tool/ask',
        turn: 1,
        step: 1,
        toolCallId: 'c2',
        asks: [{ hook: 'first', reason: 'just confirm' }, { hook: 'gate', reason: 'pushing needs a human' }],
        answer: 'deny',
        reason: 'hook "first": just confirm; hook "gate": pushing needs a human (denied by the user)',
      },
    ]);
    expect(sequence(events(workspace))).toContain(
      'tool/result 1.1 c2 error: Tool call denied by a hook: hook "first": just confirm; hook "gate": pushing needs a human (denied by the user)',
    );
  });

  it('a tool matcher limits a hook to the tools it names', async () => {
    const session = await startSession(workspace, {
      hooks: [gate],
      script: { steps: [{ toolCalls: [call('c1', 'write_file', { path: 'rm notes.txt', content: 'x' })] }, { text: 'ok' }] },
    });
    try {
      await session.prompt('write');
    } finally {
      await session.close();
    }
    expect(sequence(events(workspace))).toContain('tool/result 1.1 c1: wrote 1 bytes to rm notes.txt');
    expect(events(workspace).filter((e) => e.type === 'hook/invoke')).toEqual([]);
  });
});

describe('turn-continuation (RFC decision 3: forced continue is same-turn steering)', () => {
  it('records a forced continue reason as steering at the next step, in the same turn', async () => {
    let calls = 0;
    const gate = nativeHook({
      name: 'test-gate',
      handlers: {
        'agent/turn-continuation': (payload) => {
          calls += 1;
          return payload.continuations === 0 ? { action: 'continue', reason: 'tests still fail: fix them' } : NO_OPINION;
        },
      },
    });
    const session = await startSession(workspace, {
      hooks: [gate],
      script: { steps: [{ text: 'I am done' }, { text: 'fixed the tests' }] },
    });
    try {
      const outcome = await session.prompt('make tests pass');
      expect(outcome).toEqual({ turn: 1, reason: 'completed', steps: 2 });
    } finally {
      await session.close();
    }
    expect(calls).toBe(2);
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'user/message 1: make tests pass',
      'assistant/message 1.1: I am done',
      'steering/message 1: tests still fail: fix them',
      'assistant/message 1.2: fixed the tests',
      'turn/end 1 completed steps=2',
    ]);
  });

  it('the loop guard caps forced continuation and the payload counts it', async () => {
    const counts: number[] = [];
    const forever = nativeHook({
      name: 'forever',
      handlers: {
        'agent/turn-continuation': (payload) => {
          counts.push(payload.continuations);
          return { action: 'continue', reason: 'again' };
        },
      },
    });
    const session = await startSession(workspace, {
      hooks: [forever],
      maxContinuations: 2,
      script: { steps: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
    });
    try {
      const outcome = await session.prompt('go');
      expect(outcome).toEqual({ turn: 1, reason: 'completed', steps: 3, message: 'continuation cap reached (2)' });
    } finally {
      await session.close();
    }
    expect(counts).toEqual([0, 1, 2]);
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'user/message 1: go',
      'assistant/message 1.1: a',
      'steering/message 1: again',
      'assistant/message 1.2: b',
      'steering/message 1: again',
      'assistant/message 1.3: c',
      'turn/end 1 completed steps=3',
    ]);
  });

  it('ends with max-steps when the model keeps calling tools', async () => {
    const step = { toolCalls: [call('c', 'echo', { text: 'x' })] };
    const session = await startSession(workspace, {
      tools: [echoTool() as unknown as Tool<never>],
      maxSteps: 2,
      script: { steps: [step, step, step] },
    });
    try {
      expect((await session.prompt('loop')).reason).toBe('max-steps');
    } finally {
      await session.close();
    }
    expect(sequence(events(workspace)).at(-1)).toBe('turn/end 1 max-steps steps=2');
  });

  it('a provider failure ends the turn with reason error and the message', async () => {
    const session = await startSession(workspace, { script: { steps: [] } });
    try {
      const outcome = await session.prompt('hello');
      expect(outcome.reason).toBe('error');
      expect(outcome.message).toMatch(/script exhausted/);
    } finally {
      await session.close();
    }
  });
});

describe('session-start and resume', () => {
  const sources: string[] = [];
  const teamRules = nativeHook({
    name: 'team-rules',
    handlers: {
      'agent/session-start': (payload) => {
        sources.push(payload.source);
        return { additionalContext: payload.source === 'resume' ? 'welcome back' : 'team rules: be kind' };
      },
    },
  });

  it('session-start context is injected into the first turn', async () => {
    sources.length = 0;
    const session = await startSession(workspace, { hooks: [teamRules], script: { steps: [{ text: 'hi' }] } });
    try {
      await session.prompt('hello');
    } finally {
      await session.close();
    }
    expect(sources).toEqual(['startup']);
    expect(sequence(events(workspace))).toEqual([
      'turn/start 1',
      'context/message 1 (session-start): team rules: be kind',
      'user/message 1: hello',
      'assistant/message 1.1: hi',
      'turn/end 1 completed steps=1',
    ]);
  });

  async function resumeWith(steps: { text: string }[]): Promise<Session> {
    const bus = new SeamBus();
    bus.use(teamRules);
    return Session.resume({
      cwd: workspace.dir,
      logPath: workspace.logPath,
      tools: builtinTools(),
      provider: new ScriptedProvider({ steps }),
      bus,
    });
  }

  it('resume restores the conversation, fires session-start with resume, and numbers turns on', async () => {
    sources.length = 0;
    const first = await startSession(workspace, { hooks: [teamRules], script: { steps: [{ text: 'hi' }] } });
    await first.prompt('hello');
    await first.close();

    const resumed = await resumeWith([{ text: 'again' }]);
    try {
      expect(resumed.conversation.messages.map((m) => m.role)).toEqual(['context', 'user', 'assistant']);
      const outcome = await resumed.prompt('second');
      expect(outcome.turn).toBe(2);
    } finally {
      await resumed.close();
    }
    expect(sources).toEqual(['startup', 'resume']);
    const all = events(workspace);
    expect(all.filter((e) => e.type === 'session/start').map((e) => e.type === 'session/start' && e.source)).toEqual([
      'startup',
      'resume',
    ]);
    expect(sequence(all).slice(5)).toEqual([
      'turn/start 2',
      'context/message 2 (session-start): welcome back',
      'user/message 2: second',
      'assistant/message 2.1: again',
      'turn/end 2 completed steps=1',
    ]);
  });

  it('resume from a log cut mid-line trims the torn line and closes the interrupted turn', async () => {
    const first = await startSession(workspace, {
      tools: [echoTool() as unknown as Tool<never>],
      script: { steps: [{ toolCalls: [call('c1', 'echo', { text: 'partial' })] }, { text: 'never' }] },
    });
    await first.prompt('hello');
    await first.close();
    // Cut the log in the middle of the tool/result line (as a crash mid-write would).
    const text = readFileSync(workspace.logPath, 'utf8');
    const cut = text.indexOf('"type":"tool/result"') + 10;
    truncateSync(workspace.logPath, Buffer.byteLength(text.slice(0, cut)));
    expect(readSessionLog(workspace.logPath).tornBytes).toBeGreaterThan(0);

    const resumed = await resumeWith([{ text: 'recovered' }]);
    try {
      // The unanswered call gets an error result in the model's history.
      expect(resumed.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      expect((await resumed.prompt('continue')).reason).toBe('completed');
    } finally {
      await resumed.close();
    }
    const read = readSessionLog(workspace.logPath);
    expect(read.tornBytes).toBe(0);
    expect(sequence(read.events)).toEqual([
      'turn/start 1',
      'user/message 1: hello',
      'assistant/message 1.1:  [c1]',
      'tool/call 1.1 c1 echo',
      'turn/end 1 cancelled steps=1',
      'turn/start 2',
      'context/message 2 (session-start): welcome back',
      'user/message 2: continue',
      'assistant/message 2.1: recovered',
      'turn/end 2 completed steps=1',
    ]);
  });
});

describe('hook audit', () => {
  it('every invocation is a hook/invoke event with seam, duration, decision and what was applied', async () => {
    const thrower = nativeHook({
      name: 'thrower',
      handlers: {
        'tools/pre-execute': () => {
          throw new Error('native hook bug');
        },
      },
    });
    const session = await startSession(workspace, {
      hooks: [thrower],
      tools: [echoTool() as unknown as Tool<never>],
      script: { steps: [{ toolCalls: [call('c1', 'echo', { text: 'x' })] }, { text: 'ok' }] },
    });
    try {
      await session.prompt('go');
    } finally {
      await session.close();
    }
    const invokes = events(workspace).filter((e) => e.type === 'hook/invoke');
    expect(invokes).toHaveLength(1);
    expect(invokes[0]).toMatchObject({
      type: 'hook/invoke',
      turn: 1,
      step: 1,
      hook: 'thrower',
      seam: 'tools/pre-execute',
      outcome: 'fault',
      fault: { kind: 'plugin-error', message: 'native hook bug' },
      applied: { action: 'deny', reason: 'hook "thrower" failed (plugin-error): native hook bug' },
    });
    expect(sequence(events(workspace))).toContain(
      'tool/result 1.1 c1 error: Tool call denied by a hook: hook "thrower" failed (plugin-error): native hook bug',
    );
  });
});
