import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { EventOf, SessionEvent } from '../log/index.ts';
import { inertMarkdown, printableLines } from '../text/index.ts';
import { describeToolCall } from './tool-display.ts';

/**
 * `live`: events of a prompt the client is running (it already shows its own
 * prompt). `replay`: a loaded session's history, which must also carry the
 * user's messages so the editor can rebuild the whole transcript.
 */
export type UpdateMode = 'live' | 'replay';

/** The `_meta` key under which hookbox says which hook decision an update shows. */
export const META_KEY = 'hookbox';

const CONTEXT_ORIGIN: Record<EventOf<'context/message'>['source'], string> = {
  'session-start': 'a session-start hook',
  'prompt-submit': 'a prompt-submit hook',
  'post-tool': 'a post-tool hook',
  inject: 'the harness',
};

function text(value: string): ContentBlock {
  return { type: 'text', text: value };
}

const HOOK_TEXT_CAPS = { maxLength: 4000, maxLines: 1000 };

/**
 * Hook-originated text for the editor's transcript (reasons, contexts,
 * rewrites, replacements, forced continuations), which an editor renders as
 * Markdown: every line made printable — no escape sequence, control, bidi or
 * invisible format character — and capped, then rendered inert, so a hook's
 * `![](https://…)`, link, autolink or HTML shows as its own characters and
 * the editor fetches and links nothing (a hook granted no network must not
 * get one through the renderer). Only a person reads these updates: the
 * model reads the loop's raw text. The session log keeps the raw text too.
 */
export function hookText(value: string): string {
  return inertMarkdown(value, HOOK_TEXT_CAPS);
}

/** Hook-originated text in `_meta`, which programs read and no editor renders: printable, not escaped. */
export function hookData(value: string): string {
  return printableLines(value, HOOK_TEXT_CAPS).join('\n');
}

/**
 * Maps durable session events onto ACP `session/update`s, one event at a
 * time, in log order. Every chunk names the message it belongs to
 * (`turn-2-step-1`, `turn-2-context-3`: the turn and the event's place in
 * it, the same live and replayed), so an editor never glues the text of two
 * steps, or a hook's note and the model's answer, together.
 *
 * What each hook decision looks like in the editor:
 * - a blocked prompt: an agent message with the hook's reason (the stop
 *   reason alone, `cancelled`, would not say why);
 * - a denied (pre-tool) or blocked (post-tool) call: a `failed` tool call
 *   whose content is the hook's reason;
 * - a replaced result: the replacement is the tool call's content;
 * - hook context and forced continuations: thought chunks, since the model
 *   reads them but nobody said them;
 * - a rewritten prompt: a thought chunk with what the model sees instead.
 * Every such update carries `_meta.hookbox` naming the event and effect.
 */
export class UpdateMapper {
  readonly #mode: UpdateMode;
  #turn = 0;
  #seq = 0;
  /** Replay only: context logged at the top of a turn, held until the turn's prompt is shown. */
  #held: SessionUpdate[] = [];
  #holding = false;

  constructor(mode: UpdateMode) {
    this.#mode = mode;
  }

  /** The updates for one event (in replay mode, possibly with held ones before or after). */
  map(event: SessionEvent): SessionUpdate[] {
    const out: SessionUpdate[] = [];
    if ('turn' in event && event.turn !== undefined && event.turn !== this.#turn) {
      out.push(...this.finish());
      this.#turn = event.turn;
      this.#seq = 0;
    }
    this.#seq += 1;
    const updates = this.#updatesOf(event);
    if (this.#mode === 'live') return [...out, ...updates];
    // A turn's pending context (session-start, injected) is logged before its
    // prompt; live, the editor shows its own prompt first, so replay does too.
    if (event.type === 'turn/start') {
      this.#holding = true;
    } else if (this.#holding && event.type === 'context/message') {
      this.#held.push(...updates);
    } else if (event.type === 'user/message' || event.type === 'prompt/blocked') {
      out.push(...updates, ...this.finish());
    } else {
      out.push(...this.finish(), ...updates);
    }
    return out;
  }

  /** Updates still held (replay): call after the last event. */
  finish(): SessionUpdate[] {
    this.#holding = false;
    return this.#held.splice(0, this.#held.length);
  }

  #messageId(kind: string): string {
    return `turn-${this.#turn}-${kind}-${this.#seq}`;
  }

  #updatesOf(event: SessionEvent): SessionUpdate[] {
    switch (event.type) {
      case 'user/message': {
        const updates: SessionUpdate[] = [];
        if (this.#mode === 'replay') {
          // The user typed the original; the model saw the rewrite (shown below).
          updates.push({
            sessionUpdate: 'user_message_chunk',
            content: text(event.originalContent ?? event.content),
            messageId: this.#messageId('user'),
          });
        }
        if (event.originalContent !== undefined) {
          updates.push({
            sessionUpdate: 'agent_thought_chunk',
            content: text(`A prompt-submit hook rewrote the prompt; the model sees:\n${hookText(event.content)}`),
            messageId: this.#messageId('rewrite'),
            _meta: { [META_KEY]: { event: 'user/message', hookEffect: 'rewritten' } },
          });
        }
        return updates;
      }
      case 'prompt/blocked':
        // Never replayed with its content: a prompt-submit hook blocked it,
        // typically because it held a secret, which must not be echoed back.
        return [
          {
            sessionUpdate: 'agent_message_chunk',
            content: text(`Prompt blocked by a hook: ${hookText(event.reason)}`),
            messageId: this.#messageId('blocked'),
            _meta: { [META_KEY]: { event: 'prompt/blocked', hookEffect: 'blocked', reason: hookData(event.reason) } },
          },
        ];
      case 'assistant/message':
        if (event.content === '') return [];
        return [{ sessionUpdate: 'agent_message_chunk', content: text(event.content), messageId: `turn-${event.turn}-step-${event.step}` }];
      case 'tool/call': {
        const display = describeToolCall(event.toolName, event.arguments);
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: event.toolCallId,
            title: display.title,
            kind: display.kind,
            status: 'pending',
            rawInput: event.arguments,
          },
        ];
      }
      case 'tool/rewrite': {
        // Before the tool runs: the editor's title and rawInput become the
        // arguments that run, so it never shows one command while another runs.
        const display = describeToolCall(event.toolName, event.arguments);
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.toolCallId,
            title: display.title,
            kind: display.kind,
            rawInput: event.arguments,
            _meta: { [META_KEY]: { event: 'tool/rewrite', hookEffect: 'rewritten', hooks: event.hooks.map(hookData), original: event.original } },
          },
        ];
      }
      case 'tool/result':
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.toolCallId,
            status: event.isError ? 'failed' : 'completed',
            // A hook decided this result (its reason, or its replacement): hook text.
            content: [{ type: 'content', content: text(event.hookEffect === undefined ? event.content : hookText(event.content)) }],
            ...(event.hookEffect !== undefined && { _meta: { [META_KEY]: { event: 'tool/result', hookEffect: event.hookEffect } } }),
          },
        ];
      case 'context/message':
        return [
          {
            sessionUpdate: 'agent_thought_chunk',
            content: text(`Context from ${CONTEXT_ORIGIN[event.source]}:\n${hookText(event.content)}`),
            messageId: this.#messageId('context'),
            _meta: { [META_KEY]: { event: 'context/message', source: event.source } },
          },
        ];
      case 'steering/message':
        return [
          {
            sessionUpdate: 'agent_thought_chunk',
            content: text(`The turn continues:\n${hookText(event.content)}`),
            messageId: this.#messageId('steering'),
            _meta: { [META_KEY]: { event: 'steering/message' } },
          },
        ];
      default:
        // session/start, turn/start, turn/end (the prompt response says how
        // it ended), hook audit and log lines.
        return [];
    }
  }
}
