import type { SessionEvent } from '../log/index.ts';
import type { ConversationMessage } from './provider.ts';

const INTERRUPTED = 'tool call interrupted: the session ended before it produced a result';

/**
 * The model-facing conversation, derived from durable events only, so a live
 * session and one resumed from its log see the same history.
 */
export class Conversation {
  readonly #messages: ConversationMessage[] = [];
  readonly #pendingCalls = new Map<string, string>();

  get messages(): readonly ConversationMessage[] {
    return this.#messages;
  }

  apply(event: SessionEvent): void {
    switch (event.type) {
      case 'user/message':
        this.#messages.push({ role: 'user', content: event.content });
        break;
      case 'assistant/message':
        this.#closeInterruptedCalls();
        this.#messages.push({ role: 'assistant', content: event.content, toolCalls: event.toolCalls });
        for (const call of event.toolCalls) this.#pendingCalls.set(call.id, call.name);
        break;
      case 'tool/result':
        this.#pendingCalls.delete(event.toolCallId);
        this.#messages.push({
          role: 'tool',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          content: event.content,
          isError: event.isError,
        });
        break;
      case 'context/message':
        this.#closeInterruptedCalls();
        this.#messages.push({ role: 'context', content: event.content });
        break;
      case 'steering/message':
        this.#closeInterruptedCalls();
        this.#messages.push({ role: 'steering', content: event.content });
        break;
      case 'turn/end':
        this.#closeInterruptedCalls();
        break;
      default:
        break;
    }
  }

  /**
   * A crash between a tool call and its result leaves the call unanswered;
   * models require every call to be answered, so the history gets an error
   * result for it (the log itself is not rewritten).
   */
  #closeInterruptedCalls(): void {
    for (const [toolCallId, toolName] of this.#pendingCalls) {
      this.#messages.push({ role: 'tool', toolCallId, toolName, content: INTERRUPTED, isError: true });
    }
    this.#pendingCalls.clear();
  }

  /** Closes any calls left open (called when a resumed log ends mid-step). */
  settle(): void {
    this.#closeInterruptedCalls();
  }
}
