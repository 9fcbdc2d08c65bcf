import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { SessionEvent } from '../log/index.ts';
import { toProtocolToolInput, toProtocolToolName, toProtocolToolResponse } from '../agents/tool-names.ts';

/** The transcript file beside a session log: `session.jsonl` → `session.claude-transcript.jsonl`. */
export function claudeTranscriptPath(logPath: string): string {
  return `${logPath.replace(/\.jsonl$/, '')}.claude-transcript.jsonl`;
}

/** The `version` every line carries; Claude Code writes its own version there. */
const TRANSCRIPT_VERSION = 'hookbox';

interface PendingCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * A second, derived record of a session in Claude Code's transcript format
 * (one JSON object per line, compact, as Claude Code writes it), so hooks
 * that read `transcript_path` — a Stop hook grepping `"role":"assistant"`,
 * one that scans the tool calls so far — find what they expect:
 *
 * - a prompt → `{type: "user", message: {role: "user", content: "<prompt>"}}`;
 * - a model step → `{type: "assistant", message: {role: "assistant", content:
 *   [{type: "text"}, {type: "tool_use", id, name, input}]}}` with Claude
 *   Code's tool names and `tool_input` shapes;
 * - a tool result → `{type: "user", message: {content: [{type: "tool_result",
 *   tool_use_id, content, is_error}]}, toolUseResult}`;
 * - steering (a Stop hook's reason) → a user message; hook context → a user
 *   message marked `isMeta: true`.
 *
 * Each line has `uuid`, `parentUuid` (the line before), `sessionId`, `cwd`,
 * `timestamp`, `isSidechain: false`, `userType: "external"`, `version`.
 * Lines are appended synchronously as events are recorded, so a hook called
 * after an event sees it. The session log stays the source of truth: this
 * file is written from its events and never read back. A write that fails
 * disables the transcript (reported once through `onError`); it never
 * touches the session log.
 */
export class ClaudeTranscript {
  readonly path: string;
  readonly #cwd: string;
  readonly #onError: (message: string) => void;
  #sessionId = '';
  #parent: string | null = null;
  #failed = false;
  readonly #calls = new Map<string, PendingCall>();

  constructor(path: string, options: { readonly cwd: string; readonly onError: (message: string) => void }) {
    this.path = path;
    this.#cwd = options.cwd;
    this.#onError = options.onError;
  }

  /** Names the session every later line belongs to (a resumed session writes no `session/start`). */
  begin(sessionId: string): void {
    this.#sessionId = sessionId;
  }

  /** Appends what one session event means in Claude Code's transcript (most events mean nothing there). */
  record(event: SessionEvent): void {
    switch (event.type) {
      case 'session/start':
        this.#sessionId = event.sessionId;
        return;
      case 'user/message':
        return this.#append('user', { role: 'user', content: event.content });
      case 'steering/message':
        return this.#append('user', { role: 'user', content: event.content });
      case 'context/message':
        return this.#append('user', { role: 'user', content: event.content }, { isMeta: true });
      case 'assistant/message': {
        const content: unknown[] = event.content === '' ? [] : [{ type: 'text', text: event.content }];
        for (const call of event.toolCalls) {
          this.#calls.set(call.id, { name: call.name, arguments: call.arguments });
          content.push({
            type: 'tool_use',
            id: call.id,
            name: toProtocolToolName('claude-code', call.name),
            input: toProtocolToolInput('claude-code', call.name, call.arguments, this.#cwd),
          });
        }
        const stop = event.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
        return this.#append('assistant', { id: `msg_${event.turn}_${event.step}`, type: 'message', role: 'assistant', model: 'hookbox', content, stop_reason: stop });
      }
      case 'tool/result': {
        const call = this.#calls.get(event.toolCallId) ?? { name: event.toolName, arguments: {} };
        const result = { content: event.content, isError: event.isError };
        return this.#append(
          'user',
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: event.toolCallId, content: event.content, is_error: event.isError }] },
          { toolUseResult: toProtocolToolResponse('claude-code', call.name, call.arguments, result, this.#cwd) },
        );
      }
      default:
        return;
    }
  }

  #append(type: 'user' | 'assistant', message: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
    if (this.#failed) return;
    const uuid = randomUUID();
    const line = {
      parentUuid: this.#parent,
      isSidechain: false,
      userType: 'external',
      cwd: this.#cwd,
      sessionId: this.#sessionId,
      version: TRANSCRIPT_VERSION,
      type,
      message,
      ...extra,
      uuid,
      timestamp: new Date().toISOString(),
    };
    try {
      appendFileSync(this.path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      this.#parent = uuid;
    } catch (error) {
      this.#failed = true;
      this.#onError(`the Claude Code transcript ${this.path} cannot be written (${(error as Error).message}); hooks get transcript_path null from now on`);
    }
  }

  /** Whether the file is still being written (a failed write stops it). */
  get writing(): boolean {
    return !this.#failed;
  }
}
