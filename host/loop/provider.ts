import type { ToolCall } from '../log/index.ts';

/** One message of the model-facing conversation, derived from the durable log. */
export type ConversationMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly ToolCall[] }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly content: string;
      readonly isError: boolean;
    }
  /** Context injected by hooks (or the harness). */
  | { readonly role: 'context'; readonly content: string }
  /** Steering recorded at a step's top-of-loop drain. */
  | { readonly role: 'steering'; readonly content: string };

/** What the model is told about a tool. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's arguments object. */
  readonly parameters: Record<string, unknown>;
}

export interface ModelRequest {
  readonly messages: readonly ConversationMessage[];
  readonly tools: readonly ToolSpec[];
  readonly signal: AbortSignal;
}

/** One assistant step: text and/or tool calls. No tool calls ends the model's output for the turn. */
export interface AssistantStep {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
}

/** The loop's view of a model. Throwing means the turn ends with reason `error` and the message. */
export interface ModelProvider {
  readonly name: string;
  complete(request: ModelRequest): Promise<AssistantStep>;
}
