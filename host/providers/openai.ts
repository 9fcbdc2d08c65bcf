import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { ProviderError } from '../errors.ts';
import type { ToolCall } from '../log/index.ts';
import type { AssistantStep, ConversationMessage, ModelProvider, ModelRequest } from '../loop/provider.ts';

export interface OpenAIProviderOptions {
  /** e.g. https://api.deepseek.com/v1, http://127.0.0.1:11434/v1 (Ollama), a vLLM server. */
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey: string | undefined;
  /** Where the key came from, for the error when it is missing. */
  readonly apiKeySource?: string;
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
  readonly systemPrompt?: string;
}

const DEFAULT_SYSTEM_PROMPT =
  'You are a coding agent working in the user\'s workspace through tools. Context messages marked [context] come from the harness\'s hooks.';

/** Maps the loop's conversation onto chat-completions messages (tool calls/results stay adjacent). */
export function toChatMessages(messages: readonly ConversationMessage[], systemPrompt: string): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt }];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          ...(message.toolCalls.length > 0 && {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          }),
        });
        break;
      case 'tool':
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
        break;
      case 'context':
        out.push({ role: 'user', content: `[context]\n${message.content}` });
        break;
      case 'steering':
        out.push({ role: 'user', content: message.content });
        break;
    }
  }
  return out;
}

function parseArguments(raw: string, name: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through: the tool registry reports invalid arguments to the model
  }
  return { __invalid_arguments__: raw, __tool__: name };
}

/**
 * A real model through any OpenAI-compatible chat-completions endpoint
 * (OpenAI, DeepSeek, vLLM, Ollama), using the official `openai` client.
 */
export class OpenAIProvider implements ModelProvider {
  readonly name: string;
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #systemPrompt: string;
  readonly #baseURL: string;

  constructor(options: OpenAIProviderOptions) {
    if (options.apiKey === undefined || options.apiKey === '') {
      throw new ProviderError(
        `no API key for ${options.baseURL}: set ${options.apiKeySource ?? 'OPENAI_API_KEY'} (any non-empty value for servers that need none)`,
      );
    }
    this.name = `openai-compatible:${options.model}`;
    this.#model = options.model;
    this.#baseURL = options.baseURL;
    this.#systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: options.maxRetries ?? 1,
      timeout: options.timeoutMs ?? 120_000,
    });
  }

  async complete(request: ModelRequest): Promise<AssistantStep> {
    const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.#client.chat.completions.create(
        {
          model: this.#model,
          messages: toChatMessages(request.messages, this.#systemPrompt),
          ...(tools.length > 0 && { tools }),
        },
        { signal: request.signal },
      );
    } catch (error) {
      if (error instanceof OpenAI.APIError && error.status !== undefined) {
        throw new ProviderError(`model request to ${this.#baseURL} failed: HTTP ${error.status}: ${error.message}`, { cause: error });
      }
      throw new ProviderError(`model request to ${this.#baseURL} failed: ${(error as Error).message}`, { cause: error });
    }
    const choice = completion.choices[0];
    if (choice === undefined) throw new ProviderError(`model response from ${this.#baseURL} had no choices`);
    const toolCalls: ToolCall[] = [];
    for (const call of choice.message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      toolCalls.push({ id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments, call.function.name) });
    }
    return { text: choice.message.content ?? '', toolCalls };
  }
}
