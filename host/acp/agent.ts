import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
  PROTOCOL_VERSION,
  RequestError,
  agent,
} from '@agentclientprotocol/sdk';
import { HostError } from '../errors.ts';
import { SeamBus, type SeamListener } from '../events/index.ts';
import { type SessionEvent, readSessionLog } from '../log/index.ts';
import type { ModelProvider, Tool } from '../loop/index.ts';
import type { HookLogEntry } from '../runner/index.ts';
import { HOOKBOX_VERSION } from '../package.ts';
import { AcpSession } from './session.ts';

/** hookbox's version as it introduces itself to editors. */
export const AGENT_VERSION = HOOKBOX_VERSION;

export interface AcpAgentOptions {
  /** A model provider for each new or loaded session (the scripted one replays its script from the start for each). */
  readonly createProvider: () => ModelProvider;
  /** Hook listeners in composition order, shared by every session (the runner keeps a warm instance per session). */
  readonly hooks?: readonly SeamListener[];
  /** The tools of each session. */
  readonly createTools?: () => readonly Tool<never>[];
  /** Where session logs live, as `<id>.jsonl`; default `<session cwd>/.hookbox/sessions`. */
  readonly sessionsDir?: string;
  readonly maxSteps?: number;
  readonly maxContinuations?: number;
  /** How long a permission request waits for the client before the ask degrades to deny. */
  readonly askTimeoutMs?: number;
  readonly fsync?: boolean;
  /**
   * Called once a `session/cancel` notification has been applied (the turn's
   * signal is aborted), with the session id; unknown ids are not reported.
   * Notifications have no reply, so this is how an embedder (or a test)
   * knows the cancel has landed.
   */
  readonly onCancelled?: (sessionId: string) => void;
}

/** Session ids name log files: nothing that could leave the sessions directory. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/u;

/**
 * The hookbox agent loop as an ACP agent: `initialize`, `session/new`,
 * `session/load` (resume from the session log, replaying its history),
 * `session/prompt`, `session/cancel` and `session/close`. Build the app once
 * and `connect` it to a stream (stdio in `hookbox acp`, or a client app
 * in-process).
 */
export class AcpAgent {
  readonly app: AgentApp;
  readonly #options: AcpAgentOptions;
  readonly #sessions = new Map<string, AcpSession>();

  constructor(options: AcpAgentOptions) {
    this.#options = options;
    this.app = agent({ name: 'hookbox' })
      .onRequest('initialize', () => this.#initialize())
      .onRequest('session/new', async ({ params, client }) => {
        const cwd = absoluteCwd(params.cwd);
        const session = await this.#open(randomUUID(), cwd, client, false);
        return { sessionId: session.id };
      })
      .onRequest('session/load', async ({ params, client }) => {
        const cwd = absoluteCwd(params.cwd);
        const id = params.sessionId;
        if (!SESSION_ID.test(id)) throw RequestError.invalidParams({ sessionId: id }, 'not a hookbox session id');
        const open = this.#sessions.get(id);
        if (open !== undefined) {
          if (open.busy) throw RequestError.invalidRequest({ sessionId: id }, 'the session is running a prompt');
          // Reopening a session this connection holds: close it, then resume from its log like any other.
          this.#sessions.delete(id);
          await open.close();
        }
        const logPath = this.#logPath(cwd, id);
        if (!existsSync(logPath)) throw RequestError.sessionNotFound(id);
        let events: SessionEvent[];
        try {
          ({ events } = readSessionLog(logPath));
        } catch (error) {
          throw asResponse(id, error);
        }
        const session = await this.#open(id, cwd, client, true);
        session.replay(events);
        await session.flush();
        return {};
      })
      .onRequest('session/prompt', async ({ params, client, signal }) => {
        return this.#session(params.sessionId).prompt(params.prompt, client, signal);
      })
      .onNotification('session/cancel', ({ params }) => {
        const session = this.#sessions.get(params.sessionId);
        if (session === undefined) return;
        session.cancel();
        this.#options.onCancelled?.(params.sessionId);
      })
      .onRequest('session/close', async ({ params }) => {
        const session = this.#session(params.sessionId);
        this.#sessions.delete(session.id);
        await session.close();
        return {};
      });
  }

  #initialize(): InitializeResponse {
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        sessionCapabilities: { close: {} },
      },
      agentInfo: { name: 'hookbox', title: 'hookbox', version: AGENT_VERSION },
      authMethods: [],
    };
  }

  #logPath(cwd: string, id: string): string {
    return join(this.#options.sessionsDir ?? join(cwd, '.hookbox', 'sessions'), `${id}.jsonl`);
  }

  #session(id: string): AcpSession {
    const session = this.#sessions.get(id);
    if (session === undefined) throw RequestError.sessionNotFound(id);
    return session;
  }

  async #open(id: string, cwd: string, client: AgentContext, resume: boolean): Promise<AcpSession> {
    const options = this.#options;
    const bus = new SeamBus();
    for (const listener of options.hooks ?? []) bus.use(listener);
    try {
      const session = await AcpSession.open(
        {
          sessionId: id,
          cwd,
          logPath: this.#logPath(cwd, id),
          provider: options.createProvider(),
          bus,
          ...(options.createTools !== undefined && { tools: options.createTools() }),
          ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
          ...(options.maxContinuations !== undefined && { maxContinuations: options.maxContinuations }),
          ...(options.askTimeoutMs !== undefined && { askTimeoutMs: options.askTimeoutMs }),
          ...(options.fsync !== undefined && { fsync: options.fsync }),
        },
        client,
        resume,
        (handle) => this.#sessions.set(handle.id, handle),
      );
      return session;
    } catch (error) {
      this.#sessions.delete(id);
      throw asResponse(id, error);
    }
  }

  /** Routes a hook's log line to the session log of the call that logged it. */
  recordHookLog(entry: HookLogEntry): void {
    this.#sessions.get(entry.session)?.recordHookLog(entry);
  }

  /** Closes every session (cancelling running turns); call when the connection ends. */
  async close(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.close()));
  }
}

function absoluteCwd(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, 'cwd must be an absolute path');
  return cwd;
}

/** A `HostError` (bad configuration, an unreadable log) reaches the client with its message, not as a bare "Internal error". */
function asResponse(sessionId: string, error: unknown): unknown {
  return error instanceof HostError ? RequestError.internalError({ sessionId }, error.message) : error;
}
