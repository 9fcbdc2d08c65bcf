import { createHash } from 'node:crypto';
import type { FlexibleSchema, ModelMessage, ToolExecutionOptions, ToolSet } from 'ai';
import { rewrittenCallNote } from '../loop/reactions.ts';
import { readUserMessage } from './ai-sdk-prompt.ts';
import { ToolFailure, readThrown } from './ai-sdk-tool-error.ts';
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
   * Prompt-submit for a prompt string, or for every user message of
   * `generateText`/`streamText` messages not checked before (an earlier
   * message of the same request as much as the last; text parts and text
   * file parts read, a text file part hookbox cannot read refused): call it
   * before the model call and send nothing when it says `blocked`. A
   * rewritten prompt is handed back as `prompt` (the last user message's
   * text), and with messages as `messages`, each rewritten message's content
   * replaced by its rewritten text.
   */
  checkPrompt(prompt: string | readonly ModelMessage[]): Promise<CheckedPrompt>;
  /** Closes the session log, the hooks and telemetry. */
  close(): Promise<void>;
}

/** What `checkPrompt` decided. */
export type CheckedPrompt =
  | { readonly blocked: false; readonly prompt: string; readonly messages?: ModelMessage[] }
  | { readonly blocked: true; readonly reason: string };

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
  // The wrapped execute is hookbox's, so it runs a rewritten call with the new arguments,
  // and puts the model's note before its result itself (gatedExecute).
  const decider = await SdkDecider.open({ name: 'ai-sdk', label: 'the AI SDK', canReplace: { prompt: true, toolResult: true }, canRewriteToolInput: true, notesRewrittenCall: true }, options);
  const session = sdkSession(options.sessionId, options.cwd);
  // Digests of user messages' texts the hooks let through: a conversation resends them with every request.
  const checked = new Set<string>();
  const gated: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    gated[name] = execute === undefined ? tool : { ...tool, execute: gatedExecute(decider, session, name, execute as ToolBody, tool.inputSchema as FlexibleSchema<unknown>) };
  }
  return {
    tools: gated as T,
    sessionId: session.id,
    checkPrompt: async (prompt) => {
      if (typeof prompt !== 'string') return checkMessages(decider, session, checked, prompt);
      const decision = await decider.prompt(session, prompt);
      if (decision.action === 'block') return { blocked: true, reason: decision.reason };
      return { blocked: false, prompt: decision.content ?? prompt };
    },
    close: () => decider.close(),
  };
}

type ToolBody = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

function gatedExecute(decider: SdkDecider, session: SdkSession, toolName: string, execute: ToolBody, inputSchema: FlexibleSchema<unknown>): ToolBody {
  return async (input, options) => {
    const call: { toolCallId: string; toolName: string; arguments: Record<string, unknown> } = { toolCallId: options.toolCallId, toolName, arguments: asArguments(input) };
    const pre = await decider.preTool(session, call);
    if (pre.action !== 'allow') {
      return `Tool call denied by a hook: ${pre.reason ?? 'a hook asked for approval and the AI SDK adapter has no one to ask'}`;
    }
    // A rewrite: the tool runs with the hooks' arguments, and the model is told (rewrittenCallNote).
    const rewritten = pre.arguments;
    if (rewritten !== undefined) {
      // The tool's own input schema checks a rewrite, as the SDK checked the model's input.
      const problem = await schemaProblem(inputSchema, rewritten);
      if (problem !== undefined) return `Tool call denied by a hook: the rewritten arguments do not fit ${toolName}'s input schema: ${problem}`;
      call.arguments = rewritten;
    }
    let output: unknown;
    try {
      output = await lastValue(execute(rewritten ?? input, options));
    } catch (error) {
      // The original is never rethrown: the model reads exactly the text the hooks checked (ai-sdk-tool-error.ts).
      const content = readThrown(error);
      const post = await decider.postTool(session, call, { content, isError: true });
      if (post.action === 'block') throw new ToolFailure(`Tool result withheld by a hook: ${post.reason}`);
      throw new ToolFailure(post.content ?? content);
    }
    const content = asText(output);
    const post = await decider.postTool(session, call, { content, isError: false });
    if (post.action === 'block') return `Tool result withheld by a hook: ${post.reason}`;
    const replaced = post.content !== undefined && post.content !== content ? post.content : undefined;
    if (rewritten !== undefined) return `${rewrittenCallNote([], rewritten)}\n${replaced ?? content}`;
    return replaced ?? output;
  };
}

/** Why `value` does not fit the tool's input schema, or `undefined` when it does (or the schema has no validator). */
async function schemaProblem(inputSchema: FlexibleSchema<unknown>, value: unknown): Promise<string | undefined> {
  // Loaded here, not at the top: `ai` is an optional peer, and importing hookbox/ai-sdk must not need it (package-sdk-adapters.spec.ts).
  const { asSchema } = await import('ai');
  const validate = asSchema(inputSchema).validate;
  if (validate === undefined) return undefined;
  const result = await validate(value);
  return result.success ? undefined : result.error.message;
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

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Prompt-submit for each user message not checked before, in order; the
 * first block (or a message it cannot read) refuses the whole request.
 */
async function checkMessages(decider: SdkDecider, session: SdkSession, checked: Set<string>, messages: readonly ModelMessage[]): Promise<CheckedPrompt> {
  const out = [...messages];
  let last = '';
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'user') continue;
    const read = readUserMessage(message);
    if (!read.ok) return { blocked: true, reason: `user message ${index}: ${read.reason}, so it was not sent` };
    last = read.text;
    if (checked.has(digest(read.text))) continue;
    const decision = await decider.prompt(session, read.text);
    if (decision.action === 'block') return { blocked: true, reason: decision.reason };
    checked.add(digest(read.text));
    if (decision.content !== undefined && decision.content !== read.text) {
      out[index] = { ...message, content: decision.content };
      last = decision.content;
      checked.add(digest(decision.content));
    }
  }
  return { blocked: false, prompt: last, messages: out };
}
