import * as z from 'zod';
import { issueLines, readJsonFile } from '../json/index.ts';
import { ProviderError } from '../errors.ts';
import { ToolCallSchema } from '../log/index.ts';
import type { AssistantStep, ModelProvider, ModelRequest } from '../loop/provider.ts';

export const ScriptStepSchema = z.strictObject({
  text: z.string().optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
});
export const ScriptSchema = z.strictObject({
  steps: z.array(ScriptStepSchema),
});
export type Script = z.infer<typeof ScriptSchema>;

/** Reads a script file; a malformed script is a `ConfigError` naming the file and the JSON path. */
export function loadScript(path: string): Script {
  return readJsonFile(path, ScriptSchema);
}

/**
 * The embedded default model: replays a script of assistant steps, one per
 * model call, so sessions run offline and deterministically.
 */
export class ScriptedProvider implements ModelProvider {
  readonly name = 'scripted';
  readonly #steps: Script['steps'];
  #next = 0;

  constructor(script: Script) {
    const parsed = ScriptSchema.safeParse(script);
    if (!parsed.success) {
      throw new ProviderError(`invalid script: ${issueLines(parsed.error).join('; ')}`);
    }
    this.#steps = parsed.data.steps;
  }

  /** Steps not yet replayed. */
  get remaining(): number {
    return this.#steps.length - this.#next;
  }

  async complete(request: ModelRequest): Promise<AssistantStep> {
    if (request.signal.aborted) throw new ProviderError('cancelled');
    const step = this.#steps[this.#next];
    if (step === undefined) {
      throw new ProviderError(
        `script exhausted: model call #${this.#next + 1}, but the script has only ${this.#steps.length} step(s)`,
      );
    }
    this.#next += 1;
    return { text: step.text ?? '', toolCalls: step.toolCalls ?? [] };
  }
}
