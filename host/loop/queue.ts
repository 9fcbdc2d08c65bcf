import type { PromptSource } from '../seams/index.ts';

export interface QueuedPrompt {
  readonly content: string;
  readonly source: PromptSource;
}

/**
 * A FIFO the loop drains at one point only: prompts at the top of a turn,
 * steering at the top of each step. (Not the runner's shared-memory call
 * channel, `host/runner/channel.ts`.)
 */
export class Queue<T> {
  readonly #items: T[] = [];

  push(item: T): void {
    this.#items.push(item);
  }

  get size(): number {
    return this.#items.length;
  }

  drain(): T[] {
    return this.#items.splice(0, this.#items.length);
  }
}
