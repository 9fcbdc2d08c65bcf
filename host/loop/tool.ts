import type { z } from 'zod';
import type { ToolResult } from '../seams/index.ts';

/** What a tool gets besides its arguments. */
export interface ToolContext {
  /** The session's working directory; relative paths resolve against it. */
  readonly cwd: string;
  readonly signal: AbortSignal;
}

/**
 * A built-in or embedder-provided tool. `run` may throw: the registry turns a
 * throw into an `isError` result that post-execute hooks still inspect.
 */
export interface Tool<A = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  /** Validates the model's arguments; its JSON Schema is what the model is shown. */
  readonly arguments: z.ZodType<A>;
  run(args: A, context: ToolContext): Promise<ToolResult>;
}
