import type { AgentContext, ContentBlock, PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { SessionEvent } from '../log/index.ts';
import type { HookLogEntry } from '../runner/index.ts';
import { Session, type SessionOptions, type TurnOutcome } from '../loop/index.ts';
import { AcpPermissionPrompter } from './permission.ts';
import { promptText } from './prompt-content.ts';
import { promptResponseFor } from './stop-reason.ts';
import { UpdateMapper } from './updates.ts';

/**
 * How to open the loop session behind an ACP session: everything but the
 * prompter and the log subscription, which the ACP session provides, and
 * with the session id fixed (a new id, or the one `session/load` names).
 */
export type LoopSessionOptions = Omit<SessionOptions, 'prompter' | 'onOpen' | 'sessionId'> & { readonly sessionId: string };

/**
 * One ACP session over one hookbox {@link Session}: streams every durable
 * event to the client as it is appended, asks the client for permission,
 * and answers each prompt with the turn's stop reason only after every
 * update of the turn is on the wire.
 */
export class AcpSession {
  readonly id: string;
  #session: Session | undefined;
  #client: AgentContext;
  #pending: Promise<void>[] = [];
  #running: Promise<TurnOutcome> | undefined;
  #closed = false;

  private constructor(id: string, client: AgentContext) {
    this.id = id;
    this.#client = client;
  }

  /** The loop session. */
  get session(): Session {
    if (this.#session === undefined) throw new Error(`ACP session ${this.id} is not open`);
    return this.#session;
  }

  /** Whether a prompt turn is running. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /**
   * Starts (`resume: false`) or resumes from its log (`resume: true`, which
   * fires session-start with source `resume`) a loop session, with live
   * updates flowing to `client` from its first event on.
   */
  static async open(
    options: LoopSessionOptions,
    client: AgentContext,
    resume: boolean,
    /** Sees the handle before the first event (session-start hooks may already log). */
    register?: (handle: AcpSession) => void,
  ): Promise<AcpSession> {
    const handle = new AcpSession(options.sessionId, client);
    const mapper = new UpdateMapper('live');
    const sessionOptions: SessionOptions = {
      ...options,
      prompter: new AcpPermissionPrompter({
        sessionId: handle.id,
        client: () => handle.#client,
        flush: () => handle.flush(),
        send: (update) => handle.send(update),
      }),
      onOpen: (session) => {
        handle.#session = session;
        register?.(handle);
        session.onEvent((event) => {
          for (const update of mapper.map(event)) handle.send(update);
        });
      },
    };
    const session = resume ? await Session.resume(sessionOptions) : await Session.start(sessionOptions);
    if (session.id !== handle.id) {
      await session.close('error');
      throw RequestError.invalidParams({ sessionId: handle.id }, `the log belongs to session ${session.id}`);
    }
    return handle;
  }

  /** Records a hook's log line in the session log (dropped once the session is closed). */
  recordHookLog(entry: HookLogEntry): void {
    if (!this.#closed) this.#session?.recordHookLog(entry.hook, entry.level, entry.message);
  }

  /** Sends one update, in order with every other; a closed connection drops it (the log keeps it). */
  send(update: SessionUpdate): void {
    this.#pending.push(this.#client.notify('session/update', { sessionId: this.id, update }).catch(() => {}));
  }

  /** Sends a loaded session's history (ACP `session/load` replays it before answering). */
  replay(events: readonly SessionEvent[]): void {
    const mapper = new UpdateMapper('replay');
    for (const event of events) for (const update of mapper.map(event)) this.send(update);
    for (const update of mapper.finish()) this.send(update);
  }

  /** Resolves once every update sent so far has been written. */
  async flush(): Promise<void> {
    while (this.#pending.length > 0) await Promise.all(this.#pending.splice(0, this.#pending.length));
  }

  /**
   * Runs one turn for an ACP prompt and settles it: the stop reason, or the
   * error response of a turn that failed. `signal` is the request's own
   * (a `$/cancel_request` for it cancels the turn like `session/cancel`).
   */
  async prompt(blocks: readonly ContentBlock[], client: AgentContext, signal: AbortSignal): Promise<PromptResponse> {
    if (this.#closed) throw RequestError.sessionNotFound(this.id);
    if (this.#running !== undefined) {
      throw RequestError.invalidRequest({ sessionId: this.id }, 'a prompt is already running in this session');
    }
    this.#client = client;
    const cancel = (): void => this.session.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      this.#running = this.session.prompt(promptText(blocks), 'acp');
      // Cancelled before the turn opened (the turn resets its abort on opening, synchronously).
      if (signal.aborted) this.session.cancel();
      const outcome = await this.#running;
      await this.flush();
      return promptResponseFor(outcome);
    } finally {
      signal.removeEventListener('abort', cancel);
      this.#running = undefined;
    }
  }

  /** `session/cancel`: ends the running turn at its next boundary (a no-op when idle). */
  cancel(): void {
    if (this.#running !== undefined) this.session.cancel();
  }

  /** Cancels a running turn, waits for it to end, and closes the log. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const running = this.#running;
    if (running !== undefined) {
      this.session.cancel();
      await running.catch(() => undefined);
    }
    await this.flush();
    await this.#session?.close();
  }
}
