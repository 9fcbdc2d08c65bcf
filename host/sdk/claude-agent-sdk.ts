import type { HookCallback, HookCallbackMatcher, HookEvent, HookInput, HookJSONOutput, Options } from '@anthropic-ai/claude-agent-sdk';
import type { AgentAnswer } from '../agents/agent-bridge.ts';
import { claudeCodeBridge } from '../agents/claude-code/bridge.ts';
import { CLAUDE_CODE_EVENTS } from '../agents/claude-code/protocol.ts';
import { safeText } from '../agents/event-input.ts';
import type { DecidingBridge } from '../serve/decide.ts';
import { SdkDecider, type SdkHookboxOptions } from './sdk-decider.ts';

export type { HookCallback, HookCallbackMatcher, HookEvent, HookInput, HookJSONOutput, Options } from '@anthropic-ai/claude-agent-sdk';
export type { SdkHookboxOptions } from './sdk-decider.ts';

/** What `hookboxHooks` hands back: the SDK's `hooks` option, and `close`. */
export interface ClaudeAgentSdkHookbox {
  /**
   * For `query({ options: { hooks } })`: one callback per Claude Code hook
   * event hookbox answers, every tool matched, each failure of its own set
   * to block the action (`onFailure: 'block'`).
   */
  readonly hooks: NonNullable<Options['hooks']>;
  /** Closes the sessions (their logs stay), the hooks' runner and telemetry (flushing spans). */
  close(): Promise<void>;
}

/**
 * The Claude Agent SDK runs the Claude Code binary and hands its hook
 * events, in Claude Code's own shapes, to in-process callbacks; so the
 * claude-code bridge reads and answers them here too, under this name (its
 * sessions apart from a `hookbox serve`'s).
 */
const SDK_BRIDGE: DecidingBridge = { ...claudeCodeBridge, name: 'claude-agent-sdk', label: 'the Claude Agent SDK' };

/** The events hookbox answers: those of the claude-code bridge's table. */
const EVENTS: readonly HookEvent[] = [...new Set(CLAUDE_CODE_EVENTS.map((row) => row.event as HookEvent))];

/**
 * Gates a Claude Agent SDK session with the operator config's hooks, in
 * process: the SDK's `PreToolUse`, `PostToolUse`, `PostToolUseFailure`,
 * `UserPromptSubmit`, `SessionStart` and `Stop` callbacks go through the
 * pipeline `hookbox serve` runs, and answer exactly as hookbox answers
 * Claude Code (a deny is `permissionDecision: "deny"`, a replaced Bash or
 * Read output is `updatedToolOutput`, a withheld output ends the turn).
 * Each SDK session (its `session_id`) is one hookbox session, with its
 * working directory from the event; turn and step are counted from the
 * events it sees.
 *
 * The SDK runs the tool when a callback throws, so these never throw:
 * hookbox's own errors, an unreadable event and an aborted callback all
 * answer closed (deny the call, block the prompt, withhold the output).
 *
 * @example
 * ```ts
 * const hookbox = await hookboxHooks({ config: 'hookbox.config.json' });
 * for await (const message of query({ prompt, options: { hooks: hookbox.hooks } })) console.log(message);
 * await hookbox.close();
 * ```
 */
export async function hookboxHooks(options: SdkHookboxOptions): Promise<ClaudeAgentSdkHookbox> {
  const decider = await SdkDecider.openBridge(SDK_BRIDGE, options);
  const callback: HookCallback = (input, _toolUseId, { signal }) => decide(decider, input, options, signal);
  const hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {};
  for (const event of EVENTS) hooks[event] = [{ hooks: [callback], onFailure: 'block' }];
  return { hooks, close: () => decider.close() };
}

async function decide(decider: SdkDecider, input: HookInput, options: SdkHookboxOptions, signal: AbortSignal | undefined): Promise<HookJSONOutput> {
  const event = eventName(input);
  try {
    const seen = { ...input, ...(options.sessionId !== undefined && { session_id: options.sessionId }), ...(typeof input.cwd !== 'string' && { cwd: options.cwd ?? process.cwd() }) };
    const answer = await untilAborted(decider.agentEvent(seen), signal);
    return answer === undefined ? closed(event, 'hookbox could not decide this event') : fromAnswer(event, answer);
  } catch (error) {
    return closed(event, `host error: ${(error as Error).message}`);
  }
}

/** The bridge's answer as the SDK takes it: its JSON, nothing for "no opinion", exit 2 (an unreadable event) as closed. */
function fromAnswer(event: string | undefined, answer: AgentAnswer): HookJSONOutput {
  if (answer.exitCode !== 0) return closed(event, answer.stderr.trim() || 'hookbox could not read this event');
  if (answer.stdout.trim() === '') return {};
  return JSON.parse(answer.stdout) as HookJSONOutput;
}

/**
 * The closed answer for an event hookbox could not decide: the claude-code
 * bridge's own (deny, block, withhold); a Stop or SessionStart goes on.
 */
function closed(event: string | undefined, reason: string): HookJSONOutput {
  const answer = claudeCodeBridge.failClosed(event, reason);
  if (answer.exitCode === 0) return answer.stdout.trim() === '' ? {} : (JSON.parse(answer.stdout) as HookJSONOutput);
  // An event of a name hookbox does not know (none is registered for it): stop the run rather than guess.
  const text = `hookbox: ${safeText(reason)}`;
  return { continue: false, stopReason: text, decision: 'block', reason: text };
}

function eventName(input: unknown): string | undefined {
  const name = typeof input === 'object' && input !== null ? (input as { hook_event_name?: unknown }).hook_event_name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** The decision, or `undefined` once the SDK aborts the callback (it has stopped waiting: answer closed). */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return pending;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve(undefined);
      },
    );
  });
}
