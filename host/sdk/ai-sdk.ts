import type { ModelMessage, ToolExecutionOptions, ToolSet } from 'ai';
import { SdkDecider, type SdkHookboxOptions, type SdkSession, sdkSession } from './sdk-decider.ts';

export type { ModelMessage, Tool, ToolSet } from 'ai';
export type { SdkHookboxOptions } from './sdk-decider.ts';

/** What `withHookbox` hands back: the gated tools, the prompt check, and `close`. */
export interface AiSdkHookbox<T extends ToolSet> {
  /** The same tools, each `execute` gated by pre-tool and its result by post-tool. */
  readonly tools: T;
  /** The hookbox session every call is logged under. */
  readonly sessionId: string;
  /**
   * Prompt-submit for the last user message of `generateText`/`streamText`
   * messages (or a prompt string): call it before the model call and send
   * nothing when it says `blocked`. A rewritten prompt is handed back as `prompt`.
   */
  checkPrompt(prompt: string | readonly ModelMessage[]): Promise<{ readonly blocked: false; readonly prompt: string } | { readonly blocked: true; readonly reason: string }>;
  /** Closes the session log, the hooks and telemetry. */
  close(): Promise<void>;
}

/**
 * Gates AI SDK tools with the operator config's hooks, in process. The AI
 * SDK has no hook API, so each tool's `execute` is wrapped: pre-tool runs
 * before it (a `deny` — or an `ask`, there being no approver here — returns
 * the reason to the model as the tool's result and the body never runs),
 * post-tool after it (a replacement is what the model receives, a `block`
 * withholds the output). Anything failing inside hookbox denies or
 * withholds; the wrapper never lets a tool run on its own error.
 */
export async function withHookbox<T extends ToolSet>(tools: T, options: SdkHookboxOptions): Promise<AiSdkHookbox<T>> {
  const decider = await SdkDecider.open({ name: 'ai-sdk', label: 'the AI SDK', canReplace: { prompt: true, toolResult: true } }, options);
  const session = sdkSession(options.sessionId, options.cwd);
  const gated: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    gated[name] = execute === undefined ? tool : { ...tool, execute: gatedExecute(decider, session, name, execute as ToolBody) };
  }
  return {
    tools: gated as T,
    sessionId: session.id,
    checkPrompt: async (prompt) => {
      const content = typeof prompt === 'string' ? prompt : lastUserText(prompt);
      const decision = await decider.prompt(session, content);
      if (decision.action === 'block') return { blocked: true, reason: decision.reason };
      return { blocked: false, prompt: decision.content ?? content };
    },
    close: () => decider.close(),
  };
}

type ToolBody = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

function gatedExecute(decider: SdkDecider, session: SdkSession, toolName: string, execute: ToolBody): ToolBody {
  return async (input, options) => {
    const call = { toolCallId: options.toolCallId, toolName, arguments: asArguments(input) };
    const pre = await decider.preTool(session, call);
    if (pre.action !== 'allow') {
      return `Tool call denied by a hook: ${pre.reason ?? 'a hook asked for approval and the AI SDK adapter has no one to ask'}`;
    }
    let output: unknown;
    let failure: { error: unknown } | undefined;
    try {
      output = await lastValue(execute(input, options));
    } catch (error) {
      failure = { error };
    }
    const content = failure === undefined ? asText(output) : failure.error instanceof Error ? failure.error.message : String(failure.error);
    const post = await decider.postTool(session, call, { content, isError: failure !== undefined });
    if (post.action === 'block') return `Tool result withheld by a hook: ${post.reason}`;
    if (post.content !== undefined && post.content !== content) return post.content;
    if (failure !== undefined) throw failure.error;
    return output;
  };
}

/** A streaming tool (an async iterable) counts by its final value, as the AI SDK's result does. */
async function lastValue(result: unknown): Promise<unknown> {
  const awaited = await result;
  if (awaited === null || typeof awaited !== 'object' || !(Symbol.asyncIterator in awaited)) return awaited;
  let last: unknown;
  for await (const value of awaited as AsyncIterable<unknown>) last = value;
  return last;
}

function asArguments(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}

function asText(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output) ?? String(output);
}

/** The text of the last user message (text parts joined); empty when there is none. */
function lastUserText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
  return '';
}
