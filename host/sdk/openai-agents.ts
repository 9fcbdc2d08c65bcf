import type { InputGuardrail, ToolGuardrailFunctionOutput, ToolInputGuardrailDefinition, ToolOutputGuardrailDefinition } from '@openai/agents';
import { SdkDecider, type SdkHookboxOptions, type SdkToolCall, sdkSession } from './sdk-decider.ts';

export type { InputGuardrail, ToolInputGuardrailDefinition, ToolOutputGuardrailDefinition } from '@openai/agents';

/** The Agents adapter's options: the operator config, and whether a fault of hookbox's fails the run. */
export interface OpenAIAgentsHookboxOptions extends SdkHookboxOptions {
  /**
   * When hookbox itself fails (a hook trapped or timed out, the runner is
   * gone), throw the SDK's tripwire and fail the whole run instead of only
   * rejecting this call or output. Off by default.
   */
  readonly failRunOnFault?: boolean;
}

/** The guardrails to hand the SDK, and `close`. */
export interface OpenAIAgentsHookbox {
  /** For each tool's `inputGuardrails`: pre-tool; a deny (or an ask: no approver here) rejects the call with the reason. */
  readonly toolInputGuardrails: ToolInputGuardrailDefinition[];
  /** For each tool's `outputGuardrails`: post-tool; a replacement becomes what the model reads, a block withholds. */
  readonly toolOutputGuardrails: ToolOutputGuardrailDefinition[];
  /** For the agent's `inputGuardrails`: prompt-submit, blocking (not run in parallel), so a blocked prompt never reaches the model. */
  readonly inputGuardrail: InputGuardrail;
  /** The hookbox session every call is logged under. */
  readonly sessionId: string;
  close(): Promise<void>;
}

const FAULT = /^hook "[^"]*" failed|^hookbox could not/;

/**
 * Gates an OpenAI Agents SDK agent with the operator config's hooks, in
 * process, through the SDK's guardrails: tool input → pre-tool, tool output
 * → post-tool (replacement by `rejectContent` with the new text), run input
 * → prompt-submit. A guardrail here never throws (a throw fails the run):
 * hookbox's own faults reject the call or output, unless `failRunOnFault`.
 */
export async function hookboxGuardrails(options: OpenAIAgentsHookboxOptions): Promise<OpenAIAgentsHookbox> {
  const decider = await SdkDecider.open({ name: 'openai-agents', label: 'the OpenAI Agents SDK', canReplace: { prompt: false, toolResult: true } }, options);
  const session = sdkSession(options.sessionId, options.cwd);
  const reject = (message: string): ToolGuardrailFunctionOutput =>
    options.failRunOnFault === true && FAULT.test(message) ? { behavior: { type: 'throwException' }, outputInfo: { hookbox: message } } : { behavior: { type: 'rejectContent', message }, outputInfo: { hookbox: message } };
  return {
    sessionId: session.id,
    toolInputGuardrails: [
      {
        type: 'tool_input',
        name: 'hookbox',
        run: async ({ toolCall }) => {
          const decision = await decider.preTool(session, toCall(toolCall));
          if (decision.action === 'allow') return { behavior: { type: 'allow' } };
          return reject(decision.reason ?? 'a hook asked for approval and the OpenAI Agents adapter has no one to ask');
        },
      },
    ],
    toolOutputGuardrails: [
      {
        type: 'tool_output',
        name: 'hookbox',
        run: async ({ toolCall, output }) => {
          const content = typeof output === 'string' ? output : (JSON.stringify(output) ?? String(output));
          const decision = await decider.postTool(session, toCall(toolCall), { content, isError: false });
          if (decision.action === 'block') return reject(`Tool result withheld by a hook: ${decision.reason}`);
          if (decision.content !== undefined && decision.content !== content) return { behavior: { type: 'rejectContent', message: decision.content } };
          return { behavior: { type: 'allow' } };
        },
      },
    ],
    inputGuardrail: {
      name: 'hookbox',
      runInParallel: false,
      execute: async ({ input }) => {
        const decision = await decider.prompt(session, promptText(input));
        return { tripwireTriggered: decision.action === 'block', outputInfo: decision };
      },
    },
    close: () => decider.close(),
  };
}

function toCall(toolCall: { readonly callId: string; readonly name: string; readonly arguments: string }): SdkToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(toolCall.arguments);
  } catch {
    parsed = { input: toolCall.arguments };
  }
  const args = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { input: parsed };
  return { toolCallId: toolCall.callId, toolName: toolCall.name, arguments: args };
}

/** The run's input as prompt text: a string, or the user items' text parts joined. */
function promptText(input: string | readonly unknown[]): string {
  if (typeof input === 'string') return input;
  const texts: string[] = [];
  for (const item of input) {
    const { role, content } = item as { role?: string; content?: unknown };
    if (role !== 'user') continue;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) for (const part of content as { text?: unknown }[]) if (typeof part.text === 'string') texts.push(part.text);
  }
  return texts.join('\n');
}
