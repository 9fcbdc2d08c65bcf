import { randomUUID } from 'node:crypto';
import type { AgentAnswer, AgentSeamEvent } from '../agents/index.ts';
import type { PostToolDecision, PreToolDecision, PromptDecision } from '../seams/index.ts';
import { type DeciderOptions, type DecidingBridge, decideAgentEvent } from '../serve/decide.ts';
import { type ServedHooks, loadServedHooks } from '../serve/served-hooks.ts';
import { SessionTable } from '../serve/session-table.ts';

/** What every SDK adapter takes: the operator config and where the session logs go. */
export interface SdkHookboxOptions {
  /** The project's `hookbox.config.json` (the organisation's and the user's layers are read too). */
  readonly config: string;
  /** The agent's working directory (absolute); defaults to `process.cwd()`. */
  readonly cwd?: string;
  /** The hookbox session id (file-name safe); defaults to one the SDK names, else a fresh UUID. */
  readonly sessionId?: string;
  /** Where session logs go; defaults to `<cwd>/.hookbox/sessions`. */
  readonly logDir?: string;
}

/** One tool call as an adapter hands it over. */
export interface SdkToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly arguments: Record<string, unknown>;
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The decision pipeline `hookbox serve` runs (the config's layers, pins,
 * per-session quarantine, session log, telemetry), in this process, for an
 * SDK that calls it directly. Every answer is a seam decision; anything that
 * goes wrong in hookbox becomes the closed one (deny, withhold, block) —
 * these methods never throw, since an SDK may take a throw as "go ahead".
 */
export class SdkDecider {
  readonly #hooks: ServedHooks;
  readonly #sessions: SessionTable;
  readonly #bridge: DecidingBridge;
  readonly #stopTelemetry: () => Promise<void>;

  private constructor(hooks: ServedHooks, sessions: SessionTable, bridge: DecidingBridge, stopTelemetry: () => Promise<void>) {
    this.#hooks = hooks;
    this.#sessions = sessions;
    this.#bridge = bridge;
    this.#stopTelemetry = stopTelemetry;
  }

  /**
   * Loads the operator config's hooks (throws a `ConfigError` naming what is
   * wrong, before any tool can run) and starts OpenTelemetry when the
   * `OTEL_*` variables ask for it.
   */
  static async open(sdk: DirectSdk, options: SdkHookboxOptions): Promise<SdkDecider> {
    return SdkDecider.openBridge(directBridge(sdk), options);
  }

  /**
   * Like {@link SdkDecider.open}, for an SDK whose callbacks speak an agent's
   * own hook protocol: its events are read, and answered, by `bridge`.
   */
  static async openBridge(bridge: DecidingBridge, options: SdkHookboxOptions): Promise<SdkDecider> {
    const stopTelemetry = await startTelemetry();
    try {
      const hooks = await loadServedHooks(options.config);
      const sessions = new SessionTable({
        maxSessions: 64,
        idleMs: 30 * 60_000,
        ...(options.logDir !== undefined && { logDir: options.logDir }),
        onClose: (key) => hooks.forgetSession(key),
      });
      return new SdkDecider(hooks, sessions, bridge, stopTelemetry);
    } catch (error) {
      await stopTelemetry();
      throw error;
    }
  }

  /** Decides a tool call before it runs: `deny` when hookbox itself failed. */
  async preTool(session: SdkSession, call: SdkToolCall): Promise<PreToolDecision> {
    const decision = await this.#decide<PreToolDecision>(session, 'PreToolUse', 'tools/pre-execute', { ...call });
    return decision ?? { action: 'deny', reason: 'hookbox could not decide this tool call, so it was not run' };
  }

  /** Decides a tool's result before the model sees it: `block` (withhold) when hookbox itself failed. */
  async postTool(session: SdkSession, call: SdkToolCall, result: { readonly content: string; readonly isError: boolean }): Promise<PostToolDecision> {
    const decision = await this.#decide<PostToolDecision>(session, 'PostToolUse', 'tools/post-execute', { ...call, result });
    return decision ?? { action: 'block', reason: 'hookbox could not check this tool output, so it is withheld' };
  }

  /** Decides a prompt before the model sees it: `block` when hookbox itself failed. */
  async prompt(session: SdkSession, content: string): Promise<PromptDecision> {
    const decision = await this.#decide<PromptDecision>(session, 'UserPromptSubmit', 'agent/prompt-submit', { content, source: 'api' });
    return decision ?? { action: 'block', reason: 'hookbox could not check this prompt, so it was not sent' };
  }

  /**
   * Decides one event in the bridge's own protocol, answered in it (a fault
   * already as the bridge's closed answer); `undefined` only when hookbox
   * could not even produce that. Never throws.
   */
  async agentEvent(input: unknown): Promise<AgentAnswer | undefined> {
    try {
      return (await decideAgentEvent(this.#bridge, input, this.#options())).answer;
    } catch {
      return undefined;
    }
  }

  /** Closes the sessions (their logs stay), the hooks' runner and telemetry (flushing spans). */
  async close(): Promise<void> {
    this.#sessions.closeAll();
    await this.#hooks.close();
    await this.#stopTelemetry();
  }

  #options(): DeciderOptions {
    const keep = this.#hooks.keepReplacedOriginals;
    return { bus: this.#hooks.bus, sessions: this.#sessions, maxContinuations: 3, ...(keep !== undefined && { keepReplacedOriginals: keep }) };
  }

  async #decide<D>(session: SdkSession, event: string, seam: AgentSeamEvent['seam'], payload: unknown): Promise<D | undefined> {
    try {
      const input: AgentSeamEvent = { event, sessionId: session.id, cwd: session.cwd, seam, payload } as AgentSeamEvent;
      const decided = await decideAgentEvent(this.#bridge, input, this.#options());
      if (decided.answer.exitCode !== 0) return undefined;
      return JSON.parse(decided.answer.stdout) as D;
    } catch {
      return undefined;
    }
  }
}

/** Which hookbox session an SDK call belongs to. */
export interface SdkSession {
  readonly id: string;
  readonly cwd: string;
}

/** The session for an SDK's id (kept when file-name safe, else a fresh UUID) and working directory. */
export function sdkSession(sdkId: string | undefined, cwd: string | undefined): SdkSession {
  return { id: sdkId !== undefined && SESSION_ID.test(sdkId) ? sdkId : randomUUID(), cwd: cwd ?? process.cwd() };
}

/** An SDK whose callbacks are already seam calls: its names, and which rewrites its adapter applies. */
export type DirectSdk = Pick<DecidingBridge, 'name' | 'label' | 'canReplace' | 'canRewriteToolInput' | 'notesRewrittenCall'>;

/** A bridge whose events are already seam calls: the decision comes back as JSON, a fault as exit 2. */
function directBridge(sdk: DirectSdk): DecidingBridge {
  return {
    ...sdk,
    toSeam: (input) => ({ kind: 'seam', event: input as AgentSeamEvent }),
    answer: (_event, decision): AgentAnswer => ({ exitCode: 0, stdout: JSON.stringify(decision), stderr: '' }),
    failClosed: (_event, reason): AgentAnswer => ({ exitCode: 2, stdout: '', stderr: reason }),
  };
}

async function startTelemetry(): Promise<() => Promise<void>> {
  const { telemetrySettings } = await import('../telemetry/index.ts');
  const settings = telemetrySettings(process.env);
  if (settings === undefined) return async () => {};
  const { startTelemetrySdk } = await import('../telemetry/sdk.ts');
  const sdk = startTelemetrySdk(settings);
  return () => sdk.shutdown();
}
