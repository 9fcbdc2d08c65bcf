import { randomUUID } from 'node:crypto';
import { SeamBus } from '../events/index.ts';
import { type SessionEvent, SessionLogWriter, readSessionLog, repairTornTail } from '../log/index.ts';
import type { PromptSource, SessionEndReason, SessionInfo, SessionStartSource } from '../seams/index.ts';
// active.ts alone: the switch, without the recorder and the OpenTelemetry API it loads.
import { currentTelemetry } from '../telemetry/active.ts';
import { type QueuedPrompt, Queue } from './queue.ts';
import { Conversation } from './conversation.ts';
import { LOOP_DEFAULTS } from './defaults.ts';
import type { PermissionPrompter } from './permission.ts';
import type { ModelProvider } from './provider.ts';
import type { Tool } from './tool.ts';
import { ToolRegistry } from './tool-registry.ts';
import { type TurnHost, type TurnOutcome, type TurnPosition, runTurn } from './turn.ts';

/** Options of `Session.start` / `Session.resume`. */
export interface SessionOptions {
  readonly provider: ModelProvider;
  /** The seam bus with the session's hooks registered in configured order. */
  readonly bus?: SeamBus;
  readonly tools?: readonly Tool<never>[];
  readonly cwd: string;
  readonly logPath: string;
  readonly prompter?: PermissionPrompter;
  /** Steps (model calls) per turn before it ends with `max-steps`. */
  readonly maxSteps?: number;
  /** The continuation loop guard: how many times one turn may be forced on. */
  readonly maxContinuations?: number;
  readonly askTimeoutMs?: number;
  readonly sessionId?: string;
  /** fsync after every event (slower; survives power loss, not only crashes). */
  readonly fsync?: boolean;
  /** Called with the session before its first event is written (to subscribe to the log). */
  readonly onOpen?: (session: Session) => void;
}

/** How a turn ended. */
export type { TurnOutcome } from './turn.ts';

/**
 * A session: turns of steps over one durable log. Prompts wait in a queue
 * drained when a turn opens; steering waits in a channel drained at the top
 * of each step.
 */
export class Session {
  readonly id: string;
  readonly cwd: string;
  /** The conversation the model sees, rebuilt from the log's events. */
  readonly conversation = new Conversation();
  readonly #log: SessionLogWriter;
  readonly #bus: SeamBus;
  readonly #tools: ToolRegistry;
  readonly #provider: ModelProvider;
  readonly #prompts = new Queue<QueuedPrompt>();
  readonly #steering = new Queue<string>();
  readonly #maxSteps: number;
  readonly #maxContinuations: number;
  /** The open turn's number (or the last one's when none is open) and its step: advanced by `runTurn` only. */
  readonly #position: TurnPosition = { turn: 0, step: 0, open: false };
  #pendingContext: { content: string; source: 'session-start' | 'inject' }[] = [];
  #abort = new AbortController();
  #ended = false;

  private constructor(options: SessionOptions, id: string, log: SessionLogWriter) {
    this.id = id;
    this.cwd = options.cwd;
    this.#log = log;
    this.#provider = options.provider;
    this.#bus = options.bus ?? new SeamBus();
    this.#maxSteps = options.maxSteps ?? LOOP_DEFAULTS.maxSteps;
    this.#maxContinuations = options.maxContinuations ?? LOOP_DEFAULTS.maxContinuations;
    this.#tools = new ToolRegistry({
      bus: this.#bus,
      ...(options.prompter !== undefined && { prompter: options.prompter }),
      ...(options.askTimeoutMs !== undefined && { askTimeoutMs: options.askTimeoutMs }),
    });
    for (const tool of options.tools ?? []) this.#tools.register(tool as Tool);
    log.onEvent((event) => this.conversation.apply(event));
    this.#bus.observe((invocation) => {
      this.#log.append({
        type: 'hook/invoke',
        ...(this.#position.open && { turn: this.#position.turn, step: this.#position.step }),
        ...invocation,
      });
    });
  }

  /** Starts a new session: writes its first event and fires session-start with source `startup`. */
  static async start(options: SessionOptions): Promise<Session> {
    const session = new Session(options, options.sessionId ?? randomUUID(), SessionLogWriter.open(options.logPath, options));
    options.onOpen?.(session);
    await session.#begin('startup');
    return session;
  }

  /**
   * Resumes a session from its log: trims a torn last line, restores the
   * conversation, closes a turn the crash left open, and fires session-start
   * with source `resume`.
   */
  static async resume(options: SessionOptions): Promise<Session> {
    repairTornTail(options.logPath);
    const { events } = readSessionLog(options.logPath);
    const first = events.find((event) => event.type === 'session/start');
    const log = SessionLogWriter.open(options.logPath, options);
    const session = new Session(options, first?.type === 'session/start' ? first.sessionId : randomUUID(), log);
    for (const event of events) session.#replay(event);
    session.conversation.settle();
    options.onOpen?.(session);
    session.#closeInterruptedTurn();
    await session.#begin('resume');
    return session;
  }

  #replay(event: SessionEvent): void {
    this.conversation.apply(event);
    const position = this.#position;
    if (event.type === 'turn/start') {
      position.turn = event.turn;
      position.step = 0;
      position.open = true;
    } else if (event.type === 'assistant/message') {
      position.step = event.step;
    } else if (event.type === 'turn/end') {
      position.open = false;
    }
  }

  /** A crash inside a turn left it open in the log: close it as cancelled. */
  #closeInterruptedTurn(): void {
    const position = this.#position;
    if (!position.open) return;
    this.#log.append({ type: 'turn/end', turn: position.turn, reason: 'cancelled', steps: position.step, message: 'interrupted: the log ended inside this turn' });
    position.open = false;
  }

  async #begin(source: SessionStartSource): Promise<void> {
    this.#log.append({ type: 'session/start', sessionId: this.id, cwd: this.cwd, source, at: new Date().toISOString() });
    // Hooks with per-session state (wasm instances) make it now, not on the session's first tool call.
    this.#bus.sessionStarted(this.info());
    const { decision } = await this.#bus.dispatch('agent/session-start', { source }, this.info());
    if (decision.additionalContext !== undefined) {
      this.#pendingContext.push({ content: decision.additionalContext, source: 'session-start' });
    }
  }

  /** The session facts every hook envelope carries. */
  info(): SessionInfo {
    return { id: this.id, turn: this.#position.turn, step: this.#position.step, cwd: this.cwd };
  }

  /** Queues a prompt for the next turn. */
  submit(content: string, source: PromptSource = 'api'): void {
    this.#prompts.push({ content, source });
  }

  /** Queues steering, recorded at the top of the next step. */
  steer(content: string): void {
    this.#steering.push(content);
  }

  /** Adds model-facing context: into the open turn now, or at the start of the next one. */
  inject(content: string): void {
    if (this.#position.open) this.#log.append({ type: 'context/message', turn: this.#position.turn, content, source: 'inject' });
    else this.#pendingContext.push({ content, source: 'inject' });
  }

  /** Subscribes to every event appended to the session log; returns the unsubscribe function. */
  onEvent(listener: (event: SessionEvent) => void): () => void {
    return this.#log.onEvent(listener);
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Cancels the running turn at its next step boundary (and any model call in flight). */
  cancel(): void {
    this.#abort.abort();
  }

  /** Runs one turn over every queued prompt. */
  async runTurn(): Promise<TurnOutcome> {
    if (this.#abort.signal.aborted) this.#abort = new AbortController();
    const telemetry = currentTelemetry();
    if (telemetry === undefined) return runTurn(this.#turnHost());
    return telemetry.turn(this.id, this.#position.turn + 1, () => runTurn(this.#turnHost()));
  }

  /** The narrow view of this session a turn runs on. */
  #turnHost(): TurnHost {
    return {
      cwd: this.cwd,
      bus: this.#bus,
      tools: this.#tools,
      provider: this.#provider,
      conversation: this.conversation,
      prompts: this.#prompts,
      steering: this.#steering,
      maxSteps: this.#maxSteps,
      maxContinuations: this.#maxContinuations,
      signal: this.#abort.signal,
      position: this.#position,
      append: (event) => this.#log.append(event),
      takePendingContext: () => this.#pendingContext.splice(0, this.#pendingContext.length),
      info: () => this.info(),
    };
  }

  /** Queues a prompt and runs the turn. */
  async prompt(content: string, source: PromptSource = 'api'): Promise<TurnOutcome> {
    this.submit(content, source);
    return this.runTurn();
  }

  /** Records a hook's log line (Extism logging) in the session log, inside the open turn if any. */
  recordHookLog(hook: string, level: 'info' | 'warn' | 'error' | 'debug', message: string): void {
    this.#log.append({ type: 'hook/log', ...(this.#position.open && { turn: this.#position.turn }), hook, level, message });
  }

  /**
   * Ends the session: fires agent/session-end once (its hooks log, summarise,
   * clean up; a notification, so nothing they answer changes anything), then
   * closes the log, so their invocations are in it.
   */
  async close(reason: SessionEndReason = 'exit'): Promise<void> {
    if (!this.#ended) {
      this.#ended = true;
      await this.#bus.dispatch('agent/session-end', { reason }, this.info());
    }
    this.#log.close();
  }
}
