/**
 * One turn (host/loop/turn.ts) on a host built by hand — a real SeamBus with
 * native hooks, a real ToolRegistry, Queue and Conversation, a model that
 * replays steps and records what it was asked — so every event the turn
 * appends and the outcome it returns are compared whole. The session-level
 * view of the same rules is tests/integration/interception.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NO_OPINION, type NativeHandlers, SeamBus, nativeHook } from '../../host/events/index.ts';
import type { SessionEvent } from '../../host/log/index.ts';
import { Conversation } from '../../host/loop/conversation.ts';
import type { AssistantStep, ModelProvider, ModelRequest } from '../../host/loop/provider.ts';
import { type QueuedPrompt, Queue } from '../../host/loop/queue.ts';
import type { Tool } from '../../host/loop/tool.ts';
import { ToolRegistry } from '../../host/loop/tool-registry.ts';
import { type TurnHost, type TurnPosition, runTurn } from '../../host/loop/turn.ts';

const AT = expect.any(String);

/** A model that replays `steps` (a function step may throw) and records each request's messages. */
function model(steps: (AssistantStep | ((request: ModelRequest) => AssistantStep))[]) {
  const requests: { messages: unknown[]; tools: string[] }[] = [];
  const provider: ModelProvider = {
    name: 'test',
    async complete(request) {
      requests.push({ messages: structuredClone([...request.messages]), tools: request.tools.map((tool) => tool.name) });
      const step = steps.shift();
      if (step === undefined) throw new Error('no more steps');
      return typeof step === 'function' ? step(request) : step;
    },
  };
  return { provider, requests };
}

const echo: Tool = {
  name: 'echo',
  description: 'echoes',
  arguments: z.strictObject({ text: z.string() }),
  run: async (args) => ({ content: `echo: ${String(args.text)}`, isError: false }),
};

interface Options {
  readonly hooks?: NativeHandlers[];
  readonly prompts?: string[];
  readonly steering?: string[];
  readonly maxSteps?: number;
  readonly maxContinuations?: number;
  readonly pending?: { content: string; source: 'session-start' | 'inject' }[];
  readonly position?: TurnPosition;
  readonly signal?: AbortSignal;
}

function host(provider: ModelProvider, options: Options = {}) {
  const bus = new SeamBus();
  (options.hooks ?? []).forEach((handlers, at) => bus.use(nativeHook({ name: `h${at + 1}`, handlers })));
  const tools = new ToolRegistry({ bus });
  tools.register(echo);
  const conversation = new Conversation();
  const prompts = new Queue<QueuedPrompt>();
  for (const content of options.prompts ?? ['hi']) prompts.push({ content, source: 'cli' });
  const steering = new Queue<string>();
  for (const content of options.steering ?? []) steering.push(content);
  const events: SessionEvent[] = [];
  const pending = [...(options.pending ?? [])];
  const position = options.position ?? { turn: 0, step: 0, open: false };
  const turnHost: TurnHost = {
    cwd: '/w',
    bus,
    tools,
    provider,
    conversation,
    prompts,
    steering,
    maxSteps: options.maxSteps ?? 10,
    maxContinuations: options.maxContinuations ?? 3,
    signal: options.signal ?? new AbortController().signal,
    position,
    append: (event) => {
      events.push(event);
      conversation.apply(event);
    },
    takePendingContext: () => pending.splice(0, pending.length),
    info: () => ({ id: 's', turn: position.turn, step: position.step, cwd: '/w' }),
  };
  return { turnHost, events, position, steering, prompts };
}

const done = (text = 'done'): AssistantStep => ({ text, toolCalls: [] });
const calls = (...ids: string[]): AssistantStep => ({ text: '', toolCalls: ids.map((id) => ({ id, name: 'echo', arguments: { text: id } })) });

describe('runTurn', () => {
  it('opens the next turn, writes the waiting context, the prompt, the reply, and ends completed', async () => {
    const { provider, requests } = model([done()]);
    const { turnHost, events, position } = host(provider, {
      position: { turn: 4, step: 7, open: false },
      pending: [
        { content: 'from start', source: 'session-start' },
        { content: 'injected', source: 'inject' },
      ],
    });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 5, reason: 'completed', steps: 1 });
    expect(events).toStrictEqual([
      { type: 'turn/start', turn: 5, at: AT },
      { type: 'context/message', turn: 5, content: 'from start', source: 'session-start' },
      { type: 'context/message', turn: 5, content: 'injected', source: 'inject' },
      { type: 'user/message', turn: 5, content: 'hi' },
      { type: 'assistant/message', turn: 5, step: 1, content: 'done', toolCalls: [] },
      { type: 'turn/end', turn: 5, reason: 'completed', steps: 1 },
    ]);
    expect(position).toStrictEqual({ turn: 5, step: 1, open: false });
    expect(requests).toStrictEqual([
      {
        messages: [
          { role: 'context', content: 'from start' },
          { role: 'context', content: 'injected' },
          { role: 'user', content: 'hi' },
        ],
        tools: ['echo'],
      },
    ]);
  });

  it('the turn is open, at step 0, while prompt-submit runs; the hook sees each prompt with its source', async () => {
    const seen: unknown[] = [];
    const { provider } = model([done()]);
    const { turnHost, position } = host(provider, {
      prompts: ['one', 'two'],
      hooks: [{ 'agent/prompt-submit': (payload, { session }) => (seen.push([payload, session, { ...position }]), NO_OPINION) }],
    });
    await runTurn(turnHost);
    expect(seen).toStrictEqual([
      [{ content: 'one', source: 'cli' }, { id: 's', turn: 1, step: 0, cwd: '/w' }, { turn: 1, step: 0, open: true }],
      [{ content: 'two', source: 'cli' }, { id: 's', turn: 1, step: 0, cwd: '/w' }, { turn: 1, step: 0, open: true }],
    ]);
  });

  it('a rewritten prompt keeps its original; a rewrite to the same text is no rewrite; context follows its prompt', async () => {
    const { provider } = model([done()]);
    const { turnHost, events } = host(provider, {
      prompts: ['secret 1', 'same'],
      hooks: [
        {
          'agent/prompt-submit': (payload) =>
            payload.content === 'same'
              ? { action: 'allow', content: 'same' }
              : { action: 'allow', content: 'secret [redacted]', additionalContext: 'was redacted' },
        },
      ],
    });
    await runTurn(turnHost);
    expect(events.slice(1, 4)).toStrictEqual([
      { type: 'user/message', turn: 1, content: 'secret [redacted]', originalContent: 'secret 1' },
      { type: 'context/message', turn: 1, content: 'was redacted', source: 'prompt-submit' },
      { type: 'user/message', turn: 1, content: 'same' },
    ]);
  });

  it('a batch blocked in full is a zero-step turn ending rejected with every reason, and no model call', async () => {
    const { provider, requests } = model([done()]);
    const { turnHost, events, position } = host(provider, {
      prompts: ['a', 'b'],
      hooks: [{ 'agent/prompt-submit': (payload) => ({ action: 'block', reason: `no ${payload.content}` }) }],
    });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'rejected', steps: 0, message: 'no a; no b' });
    expect(events).toStrictEqual([
      { type: 'turn/start', turn: 1, at: AT },
      { type: 'prompt/blocked', turn: 1, reason: 'no a', content: 'a' },
      { type: 'prompt/blocked', turn: 1, reason: 'no b', content: 'b' },
      { type: 'turn/end', turn: 1, reason: 'rejected', steps: 0, message: 'no a; no b' },
    ]);
    expect(requests).toStrictEqual([]);
    expect(position.open).toBe(false);
  });

  it('a batch blocked in part goes on with the prompts that passed', async () => {
    const { provider } = model([done()]);
    const { turnHost, events } = host(provider, {
      prompts: ['bad', 'good'],
      hooks: [{ 'agent/prompt-submit': (payload) => (payload.content === 'bad' ? { action: 'block', reason: 'bad' } : NO_OPINION) }],
    });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'completed', steps: 1 });
    expect(events.map((event) => event.type)).toStrictEqual(['turn/start', 'prompt/blocked', 'user/message', 'assistant/message', 'turn/end']);
  });

  it('a turn with no prompt (steering only) is not rejected and records the steering at the first step', async () => {
    const { provider, requests } = model([done()]);
    const { turnHost, events } = host(provider, { prompts: [], steering: ['look at x'] });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'completed', steps: 1 });
    expect(events.slice(1, 2)).toStrictEqual([{ type: 'steering/message', turn: 1, content: 'look at x' }]);
    expect(requests[0]?.messages).toStrictEqual([{ role: 'steering', content: 'look at x' }]);
  });

  it('every result of a step comes before any post-tool context, asks are logged before their result', async () => {
    const { provider, requests } = model([calls('c1', 'c2'), done()]);
    const { turnHost, events } = host(provider, {
      hooks: [
        {
          'tools/pre-execute': (payload) => (payload.toolCallId === 'c2' ? { action: 'ask', reason: 'sure?' } : NO_OPINION),
          'tools/post-execute': (payload) => ({ action: 'accept', additionalContext: `after ${payload.toolCallId}` }),
        },
      ],
    });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'completed', steps: 2 });
    const denied = 'sure? (ask degraded to deny: no permission prompter attached)';
    expect(events.slice(2, 10)).toStrictEqual([
      { type: 'assistant/message', turn: 1, step: 1, content: '', toolCalls: calls('c1', 'c2').toolCalls },
      { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'echo', arguments: { text: 'c1' } },
      { type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'echo', content: 'echo: c1', isError: false },
      { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c2', toolName: 'echo', arguments: { text: 'c2' } },
      { type: 'tool/ask', turn: 1, step: 1, toolCallId: 'c2', asks: [{ hook: 'h1', reason: 'sure?' }], answer: 'deny', reason: denied },
      {
        type: 'tool/result',
        turn: 1,
        step: 1,
        toolCallId: 'c2',
        toolName: 'echo',
        content: `Tool call denied by a hook: ${denied}`,
        isError: true,
        hookEffect: 'denied',
      },
      { type: 'context/message', turn: 1, content: 'after c1', source: 'post-tool' },
      { type: 'assistant/message', turn: 1, step: 2, content: 'done', toolCalls: [] },
    ]);
    // The second model call sees the results, then the context.
    expect(requests[1]?.messages.slice(2)).toStrictEqual([
      { role: 'tool', toolCallId: 'c1', toolName: 'echo', content: 'echo: c1', isError: false },
      { role: 'tool', toolCallId: 'c2', toolName: 'echo', content: `Tool call denied by a hook: ${denied}`, isError: true },
      { role: 'context', content: 'after c1' },
    ]);
  });

  it('tool hooks see the step they run in', async () => {
    const steps: number[] = [];
    const { provider } = model([calls('c1'), done()]);
    const { turnHost } = host(provider, { hooks: [{ 'tools/pre-execute': (_, { session }) => (steps.push(session.step), NO_OPINION) }] });
    await runTurn(turnHost);
    expect(steps).toStrictEqual([1]);
  });

  it('ends max-steps after its cap of model calls', async () => {
    const { provider, requests } = model([calls('c1'), calls('c2'), calls('c3')]);
    const { turnHost, events } = host(provider, { maxSteps: 2 });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'max-steps', steps: 2, message: 'stopped after 2 steps' });
    expect(requests).toHaveLength(2);
    expect(events.at(-1)).toStrictEqual({ type: 'turn/end', turn: 1, reason: 'max-steps', steps: 2, message: 'stopped after 2 steps' });
  });

  it('a cancelled signal ends the turn cancelled before any model call', async () => {
    const controller = new AbortController();
    controller.abort();
    const { provider, requests } = model([done()]);
    const { turnHost } = host(provider, { signal: controller.signal });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'cancelled', steps: 0 });
    expect(requests).toStrictEqual([]);
  });

  it('a model that throws ends the turn with error and its message; one that throws after a cancel, cancelled', async () => {
    const failing = model([
      () => {
        throw new Error('rate limited');
      },
    ]);
    expect(await runTurn(host(failing.provider).turnHost)).toStrictEqual({ turn: 1, reason: 'error', steps: 1, message: 'rate limited' });

    const controller = new AbortController();
    const cancelled = model([
      () => {
        controller.abort();
        throw new Error('aborted');
      },
    ]);
    expect(await runTurn(host(cancelled.provider, { signal: controller.signal }).turnHost)).toStrictEqual({ turn: 1, reason: 'cancelled', steps: 1 });
  });

  it('turn-continuation gets the count and the last text (none when empty); stop ends completed', async () => {
    const seen: unknown[] = [];
    const { provider } = model([done(''), done('second')]);
    const { turnHost } = host(provider, {
      hooks: [
        {
          'agent/turn-continuation': (payload, { next }) => {
            seen.push([payload, next]);
            return seen.length === 1 ? { action: 'continue', reason: 'keep going' } : NO_OPINION;
          },
        },
      ],
    });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'completed', steps: 2 });
    expect(seen).toStrictEqual([
      [{ continuations: 0 }, { action: 'stop' }],
      [{ continuations: 1, lastAssistantText: 'second' }, { action: 'stop' }],
    ]);
  });

  it('a forced continue’s reason is steering at the next step’s top, in the same turn', async () => {
    const { provider, requests } = model([done('first'), done('second')]);
    let forced = false;
    const { turnHost, events } = host(provider, {
      hooks: [{ 'agent/turn-continuation': () => (forced ? NO_OPINION : ((forced = true), { action: 'continue', reason: 'run the tests' })) }],
    });
    await runTurn(turnHost);
    expect(events.slice(3, 6)).toStrictEqual([
      { type: 'steering/message', turn: 1, content: 'run the tests' },
      { type: 'assistant/message', turn: 1, step: 2, content: 'second', toolCalls: [] },
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 2 },
    ]);
    expect(requests[1]?.messages.at(-1)).toStrictEqual({ role: 'steering', content: 'run the tests' });
  });

  it('a continue without a reason adds no steering', async () => {
    const { provider } = model([done('first'), done('second')]);
    let forced = false;
    const { turnHost, events } = host(provider, {
      hooks: [{ 'agent/turn-continuation': () => (forced ? NO_OPINION : ((forced = true), { action: 'continue' })) }],
    });
    await runTurn(turnHost);
    expect(events.filter((event) => event.type === 'steering/message')).toStrictEqual([]);
  });

  it('hooks forcing the turn on stop at the continuation cap, which the turn/end names', async () => {
    const { provider, requests } = model([done('1'), done('2'), done('3'), done('4')]);
    const { turnHost, events } = host(provider, { maxContinuations: 2, hooks: [{ 'agent/turn-continuation': () => ({ action: 'continue', reason: 'more' }) }] });
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'completed', steps: 3, message: 'continuation cap reached (2)' });
    expect(requests).toHaveLength(3);
    expect(events.at(-1)).toStrictEqual({ type: 'turn/end', turn: 1, reason: 'completed', steps: 3, message: 'continuation cap reached (2)' });
  });

  it('steering that arrived during the step continues the turn by itself and does not count against the cap', async () => {
    const seen: unknown[] = [];
    const { provider } = model([done('1'), done('2'), done('3')]);
    const { turnHost, steering } = host(provider, {
      maxContinuations: 0,
      hooks: [{ 'agent/turn-continuation': (payload, { next }) => (seen.push([payload.continuations, next]), NO_OPINION) }],
    });
    // Steering lands while the first two steps run (as a user typing would).
    const complete = turnHost.provider.complete.bind(turnHost.provider);
    let call = 0;
    turnHost.provider.complete = async (request) => {
      call += 1;
      if (call <= 2) steering.push(`steer ${call}`);
      return complete(request);
    };
    expect(await runTurn(turnHost)).toStrictEqual({ turn: 1, reason: 'completed', steps: 3 });
    expect(seen).toStrictEqual([
      [0, { action: 'continue' }],
      [0, { action: 'continue' }],
      [0, { action: 'stop' }],
    ]);
  });
});
