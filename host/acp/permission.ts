import {
  type AgentContext,
  type PermissionOption,
  type RequestPermissionRequest,
  RequestError,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { PermissionPrompter, PermissionRequest } from '../loop/index.ts';
import { inertMarkdownLine, printable } from '../text/index.ts';
import { describeToolCall } from './tool-display.ts';
import { META_KEY } from './updates.ts';

/** How much of one hook's reason the editor is shown. */
const REASON_MAX = 1000;

/** How much of a hook's name the editor is shown. */
const HOOK_MAX = 80;

/** JSON-RPC "method not found": the client does not implement `session/request_permission`. */
const METHOD_NOT_FOUND = -32601;

/**
 * The two answers hookbox offers. No "always" options: the loop has no
 * memory of past answers, so offering one would promise what it cannot keep.
 */
export const PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
];

/** What the prompter needs from the ACP session it asks for. */
export interface PermissionTarget {
  readonly sessionId: string;
  /** The connection to ask through (the one running the current prompt), if any. */
  client(): AgentContext | undefined;
  /** Resolves once every update sent so far is on the wire, so the tool call shows before the question. */
  flush(): Promise<void>;
  /** Sends one more update in order with the others. */
  send(update: SessionUpdate): void;
}

/**
 * Answers a pre-tool `ask` by asking the editor (`session/request_permission`).
 * Only an explicit "allow" allows. The client cancelling the request (as it
 * must when the user cancels the turn) or choosing any other option is a deny;
 * a client without the method, or no connection, throws, which `resolveAsk`
 * turns into a deny naming why. The loop's ask timeout aborts `signal`, which
 * cancels the request on the wire (`$/cancel_request`) and stops waiting.
 */
export class AcpPermissionPrompter implements PermissionPrompter {
  readonly #target: PermissionTarget;

  constructor(target: PermissionTarget) {
    this.#target = target;
  }

  async ask(request: PermissionRequest, signal: AbortSignal): Promise<'allow' | 'deny'> {
    const client = this.#target.client();
    if (client === undefined) throw new Error('no ACP client is connected to answer');
    await this.#target.flush();
    const { toolCall } = request;
    // The title is the host's (from the call itself); the content lists every
    // asking hook by the name the host knows it by, each reason on its own
    // line, sanitised and inert as Markdown (the editor renders it), so no hook
    // can speak for another, restyle the question, or plant an image or link.
    // `_meta` is data for programs: printable, not escaped.
    const display = describeToolCall(toolCall.name, toolCall.arguments);
    const asks = request.asks.map(({ hook, reason }) => ({
      hook: printable(hook, { maxLength: HOOK_MAX }),
      ...(reason !== undefined && { reason: printable(reason, { maxLength: REASON_MAX }) }),
    }));
    const lines = request.asks.map(({ hook, reason }) => {
      const shown = reason === undefined ? '(no reason given)' : inertMarkdownLine(reason, { maxLength: REASON_MAX });
      return `hook "${inertMarkdownLine(hook, { maxLength: HOOK_MAX })}" asks: ${shown}`;
    });
    const params: RequestPermissionRequest = {
      sessionId: this.#target.sessionId,
      toolCall: {
        toolCallId: toolCall.id,
        title: display.title,
        kind: display.kind,
        status: 'pending',
        rawInput: toolCall.arguments,
        ...(lines.length > 0 && { content: lines.map((line) => ({ type: 'content' as const, content: { type: 'text' as const, text: line } })) }),
        // `reason` (every ask in one line, as before) stays for clients that read it; `asks` attributes each.
        _meta: {
          [META_KEY]: {
            event: 'tools/pre-execute',
            decision: 'ask',
            ...(request.reason !== undefined && { reason: printable(request.reason, { maxLength: REASON_MAX * Math.max(1, asks.length) }) }),
            asks,
          },
        },
      },
      options: [...PERMISSION_OPTIONS],
    };
    let answer;
    try {
      answer = await client.request('session/request_permission', params, { cancellationSignal: signal, stopWaitingOnCancel: true });
    } catch (error) {
      if (error instanceof RequestError && error.code === METHOD_NOT_FOUND) {
        throw new Error('the ACP client does not implement session/request_permission', { cause: error });
      }
      throw error;
    }
    const allowed = answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'allow';
    // ACP: once permission is granted the tool is reported as running.
    if (allowed) this.#target.send({ sessionUpdate: 'tool_call_update', toolCallId: toolCall.id, status: 'in_progress' });
    return allowed ? 'allow' : 'deny';
  }
}
