/**
 * The tool registry (host/loop/tool-registry.ts) on its own: what the model is
 * shown of each tool, and what one call produces through pre-execute, the ask,
 * the tool body and post-execute — every result compared whole. Hooks are
 * native (in-process) listeners on a real SeamBus; tools are real objects.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NO_OPINION, type NativeHandlers, SeamBus, nativeHook } from '../../host/events/index.ts';
import type { PermissionPrompter, PermissionRequest } from '../../host/loop/permission.ts';
import type { Tool, ToolContext } from '../../host/loop/tool.ts';
import { ToolRegistry } from '../../host/loop/tool-registry.ts';
import type { SessionInfo } from '../../host/seams/index.ts';

const session: SessionInfo = { id: 's', turn: 1, step: 1, cwd: '/w' };
const context = (signal = new AbortController().signal): ToolContext => ({ cwd: '/w', signal });
const call = (name = 'echo', args: Record<string, unknown> = { text: 'hi' }) => ({ id: 'c1', name, arguments: args });

/** A tool that echoes its text and records every call it gets. */
function echoTool(runs: { text: string; cwd: string }[] = []): Tool<{ text: string }> {
  return {
    name: 'echo',
    description: 'echoes its text',
    arguments: z.strictObject({ text: z.string().describe('what to echo') }),
    async run(args, ctx) {
      runs.push({ text: args.text, cwd: ctx.cwd });
      return { content: `echo: ${args.text}`, isError: false };
    },
  };
}

function registry(hooks: NativeHandlers[] = [], options: { prompter?: PermissionPrompter; askTimeoutMs?: number; tools?: Tool[] } = {}) {
  const bus = new SeamBus();
  hooks.forEach((handlers, at) => bus.use(nativeHook({ name: `h${at + 1}`, handlers })));
  const tools = new ToolRegistry({
    bus,
    ...(options.prompter !== undefined && { prompter: options.prompter }),
    ...(options.askTimeoutMs !== undefined && { askTimeoutMs: options.askTimeoutMs }),
  });
  for (const tool of options.tools ?? [echoTool() as unknown as Tool]) tools.register(tool);
  return tools;
}

const answering = (answer: 'allow' | 'deny', seen: PermissionRequest[] = []): PermissionPrompter => ({
  async ask(request) {
    seen.push(request);
    return answer;
  },
});

describe('ToolRegistry.specs', () => {
  it('shows each registered tool once, in registration order, with its arguments as input JSON Schema', () => {
    const other: Tool = {
      name: 'count',
      description: 'counts',
      arguments: z.strictObject({ n: z.number().int().default(1) }),
      run: async () => ({ content: '', isError: false }),
    };
    const tools = registry([], { tools: [echoTool() as unknown as Tool, other] });
    tools.register(echoTool() as unknown as Tool); // re-registering replaces, it does not add
    expect(tools.specs()).toStrictEqual([
      {
        name: 'echo',
        description: 'echoes its text',
        parameters: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { text: { type: 'string', description: 'what to echo' } },
          required: ['text'],
          additionalProperties: false,
        },
      },
      {
        name: 'count',
        description: 'counts',
        // io: 'input' — a defaulted field is optional to the model.
        parameters: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { n: { type: 'integer', default: 1, minimum: -9007199254740991, maximum: 9007199254740991 } },
          additionalProperties: false,
        },
      },
    ]);
  });
});

describe('ToolRegistry.execute', () => {
  it('with no hooks runs the tool and returns its result as it is, with no effect', async () => {
    const runs: { text: string; cwd: string }[] = [];
    const tools = registry([], { tools: [echoTool(runs) as unknown as Tool] });
    expect(await tools.execute(call(), session, context())).toStrictEqual({ result: { content: 'echo: hi', isError: false } });
    expect(runs).toStrictEqual([{ text: 'hi', cwd: '/w' }]);
  });

  it('gives pre-execute the call id, name and arguments, and post-execute the result too', async () => {
    const seen: unknown[] = [];
    const tools = registry([
      {
        'tools/pre-execute': (payload, { session: at }) => {
          seen.push(['pre', payload, at]);
          return NO_OPINION;
        },
        'tools/post-execute': (payload, { session: at }) => {
          seen.push(['post', payload, at]);
          return NO_OPINION;
        },
      },
    ]);
    await tools.execute(call(), session, context());
    expect(seen).toStrictEqual([
      ['pre', { toolCallId: 'c1', toolName: 'echo', arguments: { text: 'hi' } }, session],
      ['post', { toolCallId: 'c1', toolName: 'echo', arguments: { text: 'hi' }, result: { content: 'echo: hi', isError: false } }, session],
    ]);
  });

  it('a deny answers with the denied-call text and never runs the tool or post-execute', async () => {
    const runs: { text: string; cwd: string }[] = [];
    let post = 0;
    const tools = registry(
      [{ 'tools/pre-execute': () => ({ action: 'deny', reason: 'no echo' }), 'tools/post-execute': () => (post++, NO_OPINION) }],
      { tools: [echoTool(runs) as unknown as Tool] },
    );
    expect(await tools.execute(call(), session, context())).toStrictEqual({
      result: { content: 'Tool call denied by a hook: no echo', isError: true },
      hookEffect: 'denied',
    });
    expect(runs).toStrictEqual([]);
    expect(post).toBe(0);
  });

  it('an explicit allow runs the tool like no opinion does', async () => {
    const tools = registry([{ 'tools/pre-execute': () => ({ action: 'allow', reason: 'fine' }) }]);
    expect(await tools.execute(call(), session, context())).toStrictEqual({ result: { content: 'echo: hi', isError: false } });
  });

  it('an ask without a prompter degrades to deny, attributed, and records the ask', async () => {
    const runs: { text: string; cwd: string }[] = [];
    const tools = registry([{ 'tools/pre-execute': () => ({ action: 'ask', reason: 'sure?' }) }], { tools: [echoTool(runs) as unknown as Tool] });
    const reason = 'sure? (ask degraded to deny: no permission prompter attached)';
    expect(await tools.execute(call(), session, context())).toStrictEqual({
      result: { content: `Tool call denied by a hook: ${reason}`, isError: true },
      hookEffect: 'denied',
      asked: { asks: [{ hook: 'h1', reason: 'sure?' }], resolution: { action: 'deny', reason } },
    });
    expect(runs).toStrictEqual([]);
  });

  it('an ask the person allows runs the tool, and the result carries the ask and its resolution', async () => {
    const seen: PermissionRequest[] = [];
    const tools = registry([{ 'tools/pre-execute': () => ({ action: 'ask', reason: 'sure?' }) }], { prompter: answering('allow', seen) });
    expect(await tools.execute(call(), session, context())).toStrictEqual({
      result: { content: 'echo: hi', isError: false },
      asked: { asks: [{ hook: 'h1', reason: 'sure?' }], resolution: { action: 'allow', reason: 'sure? (allowed by the user)' } },
    });
    expect(seen).toStrictEqual([{ toolCall: call(), asks: [{ hook: 'h1', reason: 'sure?' }], reason: 'sure?' }]);
  });

  it('every hook that asked is in the request, each prefixed with its hook, and a reasonless ask sends no reason', async () => {
    const seen: PermissionRequest[] = [];
    const two = registry(
      [{ 'tools/pre-execute': () => ({ action: 'ask', reason: 'one' }) }, { 'tools/pre-execute': () => ({ action: 'ask', reason: 'two' }) }],
      { prompter: answering('deny', seen) },
    );
    const result = await two.execute(call(), session, context());
    expect(seen[0]).toStrictEqual({
      toolCall: call(),
      asks: [
        { hook: 'h1', reason: 'one' },
        { hook: 'h2', reason: 'two' },
      ],
      reason: 'hook "h1": one; hook "h2": two',
    });
    expect(result.result).toStrictEqual({ content: 'Tool call denied by a hook: hook "h1": one; hook "h2": two (denied by the user)', isError: true });

    const bare: PermissionRequest[] = [];
    const silent = registry([{ 'tools/pre-execute': () => ({ action: 'ask' }) }], { prompter: answering('deny', bare) });
    await silent.execute(call(), session, context());
    expect(bare).toStrictEqual([{ toolCall: call(), asks: [{ hook: 'h1' }] }]);
  });

  it('an ask the prompter leaves unanswered degrades to deny at the registry’s own timeout', async () => {
    const never: PermissionPrompter = { ask: () => new Promise(() => {}) };
    const tools = registry([{ 'tools/pre-execute': () => ({ action: 'ask', reason: 'sure?' }) }], { prompter: never, askTimeoutMs: 5 });
    const result = await tools.execute(call(), session, context());
    expect(result.result).toStrictEqual({ content: 'Tool call denied by a hook: sure? (ask degraded to deny: no answer within 5 ms)', isError: true });
  });

  it('a post-execute block withholds the result, keeping the ask it went through', async () => {
    const tools = registry(
      [{ 'tools/pre-execute': () => ({ action: 'ask', reason: 'sure?' }), 'tools/post-execute': () => ({ action: 'block', reason: 'secret' }) }],
      { prompter: answering('allow') },
    );
    expect(await tools.execute(call(), session, context())).toStrictEqual({
      result: { content: 'Tool result withheld by a hook: secret', isError: true },
      hookEffect: 'blocked',
      asked: { asks: [{ hook: 'h1', reason: 'sure?' }], resolution: { action: 'allow', reason: 'sure? (allowed by the user)' } },
    });
  });

  it('a block with no ask before it carries no ask', async () => {
    const tools = registry([{ 'tools/post-execute': () => ({ action: 'block', reason: 'secret' }) }]);
    expect(await tools.execute(call(), session, context())).toStrictEqual({
      result: { content: 'Tool result withheld by a hook: secret', isError: true },
      hookEffect: 'blocked',
    });
  });

  it("a post-execute content replaces the result text, keeping its isError, and says replaced (the original's length and digest kept, as serve keeps them)", async () => {
    const failing: Tool = {
      name: 'echo',
      description: 'fails',
      arguments: z.strictObject({ text: z.string() }),
      run: async () => ({ content: 'raw', isError: true }),
    };
    const tools = registry([{ 'tools/post-execute': () => ({ action: 'accept', content: 'redacted' }) }], { tools: [failing] });
    expect(await tools.execute(call(), session, context())).toStrictEqual({
      result: { content: 'redacted', isError: true },
      hookEffect: 'replaced',
      original: { length: 3, sha256: createHash('sha256').update('raw').digest('hex') },
    });
  });

  it('a post-execute additionalContext is returned beside the untouched result, with no effect', async () => {
    const tools = registry([{ 'tools/post-execute': () => ({ action: 'accept', additionalContext: 'note this' }) }], { prompter: answering('allow') });
    expect(await tools.execute(call(), session, context())).toStrictEqual({ result: { content: 'echo: hi', isError: false }, additionalContext: 'note this' });
  });

  it('an unknown tool is an error result naming the tools there are, which post-execute still sees', async () => {
    const post: unknown[] = [];
    const tools = registry([{ 'tools/post-execute': (payload) => (post.push(payload.result), NO_OPINION) }], {
      tools: [echoTool() as unknown as Tool, { ...(echoTool() as unknown as Tool), name: 'other' }],
    });
    const expected = { content: 'unknown tool "nope"; available: echo, other', isError: true };
    expect(await tools.execute(call('nope'), session, context())).toStrictEqual({ result: expected });
    expect(post).toStrictEqual([expected]);
  });

  it('arguments the tool’s schema refuses are an error result naming each issue, and the tool does not run', async () => {
    const runs: { text: string; cwd: string }[] = [];
    const tools = registry([], { tools: [echoTool(runs) as unknown as Tool] });
    const result = await tools.execute(call('echo', { text: 3, extra: true }), session, context());
    expect(result.result.isError).toBe(true);
    expect(result.result.content).toMatch(/^invalid arguments for echo: arguments\.text: .+; arguments: .*extra/);
    expect(runs).toStrictEqual([]);
  });

  it('a turn already cancelled does not start the tool', async () => {
    const runs: { text: string; cwd: string }[] = [];
    const controller = new AbortController();
    controller.abort();
    const tools = registry([], { tools: [echoTool(runs) as unknown as Tool] });
    expect(await tools.execute(call(), session, context(controller.signal))).toStrictEqual({
      result: { content: 'echo was not run: the turn was cancelled', isError: true },
    });
    expect(runs).toStrictEqual([]);
  });

  it('a tool that throws is an error result naming the tool and the message, which post-execute can replace', async () => {
    const throwing: Tool = {
      name: 'echo',
      description: 'throws',
      arguments: z.strictObject({ text: z.string() }),
      run: async () => {
        throw new Error('disk on fire');
      },
    };
    const seen: unknown[] = [];
    const tools = registry([{ 'tools/post-execute': (payload) => (seen.push(payload.result), NO_OPINION) }], { tools: [throwing] });
    expect(await tools.execute(call(), session, context())).toStrictEqual({ result: { content: 'echo failed: disk on fire', isError: true } });
    expect(seen).toStrictEqual([{ content: 'echo failed: disk on fire', isError: true }]);
  });

  it('a host bug (here a tool whose argument schema throws) still answers the call, as a host error with no effect', async () => {
    const buggy: Tool = {
      name: 'echo',
      description: 'its schema throws',
      arguments: z.strictObject({ text: z.string() }).transform((): Record<string, unknown> => {
        throw new Error('schema bug');
      }),
      run: async () => ({ content: 'ran', isError: false }),
    };
    const tools = registry([], { tools: [buggy] });
    expect(await tools.execute(call(), session, context())).toStrictEqual({ result: { content: 'hookbox host error: schema bug', isError: true } });
  });
});
