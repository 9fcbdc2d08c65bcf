import * as z from 'zod';
import type { SeamBus } from '../events/index.ts';
import { issueLines } from '../json/index.ts';
import type { ToolCall } from '../log/index.ts';
import { type SessionInfo, type ToolResult, describeAsks, standingAsks } from '../seams/index.ts';
import { LOOP_DEFAULTS } from './defaults.ts';
import { type PermissionPrompter, resolvePermission } from './permission.ts';
import { rewrittenCallNote } from './reactions.ts';
import { type ToolOutcome, deniedOutcome, postToolOutcome } from './seam-outcome.ts';
import type { ToolSpec } from './provider.ts';
import type { Tool, ToolContext } from './tool.ts';
import { type ToolRewrite, rewriteOf } from './tool-rewrite.ts';

/** What executing one tool call produced, for the loop to log (the outcome `serve` records too). */
export type ToolExecutionResult = ToolOutcome;

export interface ToolRegistryOptions {
  readonly bus: SeamBus;
  readonly prompter?: PermissionPrompter;
  /** How long an `ask` waits for the prompter before it degrades to deny. */
  readonly askTimeoutMs?: number;
}

/**
 * Runs tool calls through the two waterfalls: tools/pre-execute gates,
 * dispatch runs the tool, tools/post-execute inspects the result.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();
  /** What the model is shown, derived once per tool at registration (not at every step). */
  readonly #specs = new Map<string, ToolSpec>();
  readonly #bus: SeamBus;
  readonly #prompter: PermissionPrompter | undefined;
  readonly #askTimeoutMs: number;

  constructor(options: ToolRegistryOptions) {
    this.#bus = options.bus;
    this.#prompter = options.prompter;
    this.#askTimeoutMs = options.askTimeoutMs ?? LOOP_DEFAULTS.askTimeoutMs;
  }

  register<A>(tool: Tool<A>): void {
    this.#tools.set(tool.name, tool as unknown as Tool);
    this.#specs.set(tool.name, {
      name: tool.name,
      description: tool.description,
      parameters: z.toJSONSchema(tool.arguments, { io: 'input' }) as Record<string, unknown>,
    });
  }

  specs(): ToolSpec[] {
    return [...this.#specs.values()];
  }

  /**
   * `onRewrite` hears of a rewrite after the pre-tool decision and before the
   * tool runs, so the loop logs it (`tool/rewrite`) ahead of execution.
   */
  async execute(
    call: ToolCall,
    session: SessionInfo,
    context: ToolContext,
    onRewrite?: (rewrite: ToolRewrite) => void,
  ): Promise<ToolExecutionResult> {
    try {
      // A rewrite is the full new arguments, checked against the tool's own
      // schema as each hook gives it; every gate decides again on the final
      // arguments (host/events/rewrite-rounds.ts, docs/rfc-tool-input-rewrite.md).
      const tool = this.#tools.get(call.name);
      const pre = await this.#bus.dispatch(
        'tools/pre-execute',
        { toolCallId: call.id, toolName: call.name, arguments: call.arguments },
        session,
        undefined,
        tool === undefined ? {} : { checkRewrite: (rewritten) => rewriteProblem(tool, rewritten.arguments) },
      );
      const rewrite = rewriteOf(call.arguments, pre);
      if (rewrite !== undefined) {
        onRewrite?.(rewrite);
        call = { ...call, arguments: rewrite.arguments };
      }
      let gate = pre.decision;
      let asked: ToolExecutionResult['asked'];
      if (gate.action === 'ask') {
        // Every hook that asked, not only the first: see `standingAsks`.
        const asks = standingAsks(gate, pre.decided);
        const reason = describeAsks(asks);
        const request = { toolCall: call, asks, ...(reason !== undefined && { reason }) };
        const resolution = await resolvePermission(this.#bus, this.#prompter, request, session, this.#askTimeoutMs);
        asked = { asks, resolution };
        gate = resolution;
      }
      const denied = deniedOutcome(gate);
      if (denied !== undefined) return { ...denied, ...(asked !== undefined && { asked }) };

      const result = await this.#dispatch(call, context);

      const post = await this.#bus.dispatch(
        'tools/post-execute',
        { toolCallId: call.id, toolName: call.name, arguments: call.arguments, result },
        session,
      );
      const outcome = postToolOutcome(result, post.decision);
      // A rewritten call's result opens with the one note the model reads about it (docs/rfc-tool-input-rewrite.md).
      const told = rewrite === undefined || outcome.hookEffect === 'blocked' ? outcome : { ...outcome, result: { ...outcome.result, content: `${rewrittenCallNote(rewrite.hooks, rewrite.arguments)}\n${outcome.result.content}` } };
      return { ...told, ...(asked !== undefined && { asked }) };
    } catch (error) {
      // A host bug must still give the model an answer to its call.
      return { result: { content: `hookbox host error: ${(error as Error).message}`, isError: true } };
    }
  }

  /** The tool body, in its own try/catch: a throw is an `isError` result post-execute still sees. */
  async #dispatch(call: ToolCall, context: ToolContext): Promise<ToolResult> {
    const tool = this.#tools.get(call.name);
    if (tool === undefined) {
      return { content: `unknown tool "${call.name}"; available: ${[...this.#tools.keys()].join(', ')}`, isError: true };
    }
    const args = tool.arguments.safeParse(call.arguments);
    if (!args.success) {
      return { content: `invalid arguments for ${call.name}: ${issueLines(args.error, 'arguments').join('; ')}`, isError: true };
    }
    // A cancel that lands while pre-tool hooks run must not start the tool
    // (an abort listener added after the abort never fires).
    if (context.signal.aborted) return { content: `${call.name} was not run: the turn was cancelled`, isError: true };
    try {
      return await tool.run(args.data, context);
    } catch (error) {
      return { content: `${call.name} failed: ${(error as Error).message}`, isError: true };
    }
  }
}

/** Why rewritten arguments cannot be the tool's, or `undefined` when they can. */
function rewriteProblem(tool: Tool, args: Record<string, unknown>): string | undefined {
  const parsed = tool.arguments.safeParse(args);
  if (parsed.success) return undefined;
  return `rewritten arguments for ${tool.name} do not fit its argument schema: ${issueLines(parsed.error, 'decision.arguments').join('; ')}`;
}
