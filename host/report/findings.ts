import type { SessionEvent } from '../log/index.ts';
import type { Finding } from './report-data.ts';

/** How a report treats what it quotes from a log. */
export interface QuoteOptions {
  /**
   * Quote the text of blocked prompts. Off by default: a prompt-submit hook
   * blocks a prompt because of what it holds (a secret, most often), and a
   * report travels further than the session log it was made from.
   */
  readonly showBlockedPrompts?: boolean;
}

/** The id of the timeline entry of event `index` of session `session` (both counted from 0). */
export function eventAnchor(session: number, index: number): string {
  return `s${session}-e${index}`;
}

/** What a blocked prompt is shown as: its text, or its length only (see {@link QuoteOptions}). */
export function blockedPromptText(content: string, options: QuoteOptions): string {
  return options.showBlockedPrompts === true ? content : `(${[...content].length} characters, withheld from the report; see the session log)`;
}

/** A tool call as one line: name and JSON arguments. */
export function toolCallText(toolName: string, args: unknown): string {
  return `${toolName} ${JSON.stringify(args)}`;
}

const RESTRICTIVE = new Set(['deny', 'ask', 'block']);

/** The seams whose decision is about the tool call just recorded. */
const TOOL_SEAMS = new Set(['tools/pre-execute', 'tools/permission-request', 'tools/post-execute']);

function restrictive(seam: string, applied: unknown): { action: Finding['action']; reason: string } | undefined {
  if (typeof applied !== 'object' || applied === null) return undefined;
  const { action, reason } = applied as { action?: unknown; reason?: unknown };
  if (typeof action !== 'string' || !RESTRICTIVE.has(action)) return undefined;
  // A permission request's `ask` is its default: the person is asked as without hooks, nothing was held back.
  if (seam === 'tools/permission-request' && action === 'ask') return undefined;
  return { action: action as Finding['action'], reason: typeof reason === 'string' ? reason : '' };
}

/**
 * Every hook invocation of one session whose applied decision was
 * restrictive (deny, ask, block), with what it decided on: the tool call it
 * followed, or the prompt it preceded (prompt-submit hooks run before the
 * prompt is recorded). An ask carries the answer of its `tool/ask`.
 */
export function sessionFindings(session: number, events: readonly SessionEvent[], options: QuoteOptions = {}): Finding[] {
  const answers = new Map<string, 'allow' | 'deny'>();
  for (const event of events) if (event.type === 'tool/ask') answers.set(event.toolCallId, event.answer);
  const found: Finding[] = [];
  let lastCall: { id: string; text: string } | undefined;
  let waitingForPrompt: Finding[] = [];
  events.forEach((event, index) => {
    if (event.type === 'tool/call') {
      lastCall = { id: event.toolCallId, text: toolCallText(event.toolName, event.arguments) };
    } else if (event.type === 'turn/start') {
      lastCall = undefined;
    } else if (event.type === 'user/message' || event.type === 'prompt/blocked') {
      const text = event.type === 'prompt/blocked' ? blockedPromptText(event.content, options) : event.content;
      for (const finding of waitingForPrompt) finding.subject = `prompt: ${text}`;
      waitingForPrompt = [];
    } else if (event.type === 'hook/invoke') {
      const decided = restrictive(event.seam, event.applied);
      if (decided === undefined) return;
      const onTool = TOOL_SEAMS.has(event.seam);
      const answer = decided.action === 'ask' && lastCall !== undefined ? answers.get(lastCall.id) : undefined;
      const finding: Finding = {
        session,
        ...(event.turn !== undefined && { turn: event.turn }),
        ...(event.step !== undefined && { step: event.step }),
        hook: event.hook,
        seam: event.seam,
        action: decided.action,
        reason: decided.reason,
        ...(onTool && lastCall !== undefined && { subject: lastCall.text }),
        ...(event.outcome === 'fault' && event.fault !== undefined && { fault: event.fault.kind }),
        ...(answer !== undefined && { answer }),
        anchor: eventAnchor(session, index),
      };
      found.push(finding);
      if (event.seam === 'agent/prompt-submit') waitingForPrompt.push(finding);
    }
  });
  return found;
}
