import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HookInvocation } from '../events/index.ts';
import { type SessionEvent, SessionLogWriter, readSessionLog, repairTornTail } from '../log/index.ts';
import type { SessionInfo, SessionStartSource } from '../seams/index.ts';

/** A tool call seen at PreToolUse, waiting for its result (PostToolUse). */
export interface PendingCall {
  readonly step: number;
  readonly toolName: string;
  /** The agent was given the call rewritten (its `tool/rewrite`): what it runs with, and who rewrote it. */
  readonly rewrite?: { readonly arguments: Record<string, unknown>; readonly hooks: readonly string[] };
}

/**
 * One agent session as hookbox serves it: its session log and the loop
 * state the agent does not send (turn, step, continuations this turn,
 * context waiting for the next turn). Rebuilt from the log when the log
 * exists, so a restarted server, or the in-process fallback, carries on.
 */
export class ServedSession {
  readonly id: string;
  readonly cwd: string;
  readonly log: SessionLogWriter;
  turn = 0;
  step = 0;
  turnOpen = false;
  /** Times this turn was forced on by a hook (the continuation guard). */
  continuations = 0;
  /** Times each subagent (by the agent's id for it) was forced on by a hook: the same guard for subagents. */
  readonly subagentContinuations = new Map<string, number>();
  lastUsed = Date.now();
  /** Calls being decided now (the session is not expired under them). */
  inFlight = 0;
  readonly pending = new Map<string, PendingCall>();
  /** The log was created by this open (no earlier event of this session reached hookbox). */
  fresh = false;
  /**
   * Session-start context the agent has not been given: when the agent sent
   * no SessionStart (Claude Code does not send it to http hooks), hookbox
   * fires session-start itself and hands its context over with the first prompt.
   */
  undelivered: string | undefined;
  #context: string[] = [];

  private constructor(id: string, cwd: string, log: SessionLogWriter) {
    this.id = id;
    this.cwd = cwd;
    this.log = log;
  }

  /**
   * Opens the session's log (`<agent>-<id>.jsonl` in `dir`). A new log starts
   * with `session/start`; an existing one is read back (a torn last line
   * trimmed first) and continued.
   */
  static open(agent: string, id: string, cwd: string, dir: string, source: SessionStartSource): ServedSession {
    const file = path.join(dir, `${agent}-${id}.jsonl`);
    const existed = existsSync(file);
    if (existed) repairTornTail(file);
    const events = existed ? readSessionLog(file).events : [];
    const session = new ServedSession(id, cwd, SessionLogWriter.open(file));
    for (const event of events) session.#restore(event);
    session.fresh = events.length === 0;
    if (events.length === 0) session.log.append({ type: 'session/start', sessionId: id, cwd, source, at: new Date().toISOString() });
    return session;
  }

  #restore(event: SessionEvent): void {
    if (event.type === 'turn/start') {
      this.turn = event.turn;
      this.step = 0;
      this.turnOpen = true;
      this.continuations = 0;
      this.pending.clear();
    } else if (event.type === 'turn/end') {
      this.turnOpen = false;
    } else if (event.type === 'tool/call') {
      this.step = Math.max(this.step, event.step);
      // A call allowed in an earlier process (no server: one process per event) is still pending
      // its result; without it, its PostToolUse logged the call a second time (4 calls for 3).
      this.pending.set(event.toolCallId, { step: event.step, toolName: event.toolName });
    } else if (event.type === 'tool/rewrite') {
      // A denied rewrite's tool/result follows at once and drops the call again.
      const call = this.pending.get(event.toolCallId);
      if (call !== undefined) this.pending.set(event.toolCallId, { ...call, rewrite: { arguments: event.arguments, hooks: event.hooks } });
    } else if (event.type === 'tool/result') {
      this.pending.delete(event.toolCallId);
    } else if (event.type === 'steering/message') {
      if (event.subagent === undefined) this.continuations += 1;
      else this.subagentContinuations.set(event.subagent, (this.subagentContinuations.get(event.subagent) ?? 0) + 1);
    }
  }

  /** What every hook envelope carries for this session. */
  info(): SessionInfo {
    return { id: this.id, turn: this.turn, step: this.step, cwd: this.cwd };
  }

  /** Session-start context: written into the next turn when it opens (as the loop does). */
  addContext(content: string): void {
    this.#context.push(content);
  }

  /** Opens a turn (closing one the agent never stopped), with any waiting context. */
  openTurn(): void {
    if (this.turnOpen) this.endTurn('cancelled', 'the agent started another turn without a Stop event');
    this.turn += 1;
    this.step = 0;
    this.continuations = 0;
    this.turnOpen = true;
    this.pending.clear();
    this.log.append({ type: 'turn/start', turn: this.turn, at: new Date().toISOString() });
    for (const content of this.#context.splice(0)) this.log.append({ type: 'context/message', turn: this.turn, content, source: 'session-start' });
  }

  endTurn(reason: 'completed' | 'cancelled' | 'rejected', message?: string): void {
    if (!this.turnOpen) return;
    this.log.append({ type: 'turn/end', turn: this.turn, reason, steps: this.step, ...(message !== undefined && { message }) });
    this.turnOpen = false;
  }

  /** Records the hook invocations of one dispatch, inside the open turn if any. */
  recordInvocations(invocations: readonly HookInvocation[]): void {
    for (const invocation of invocations) {
      this.log.append({ type: 'hook/invoke', ...(this.turnOpen && { turn: this.turn, step: this.step }), ...invocation });
    }
  }

  close(): void {
    this.log.close();
  }
}
