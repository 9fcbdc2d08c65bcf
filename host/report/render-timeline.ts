import type { EventOf, SessionEvent } from '../log/index.ts';
import { type QuoteOptions, blockedPromptText, toolCallText } from './findings.ts';
import { decisionWord } from './hook-stats.ts';
import { type Html, html, multiline } from './html.ts';
import type { ReportSession } from './report-data.ts';
import { type Dispatch, type TimelineSection, timelineSections } from './timeline.ts';

/** Lines of a tool result or message shown in the timeline; the session log has the rest. */
const MAX_LINES = 12;

/** A decision word as a badge: the word itself is the signal, the colour only repeats it. */
export function badge(word: string, extra?: string): Html {
  const known = ['allow', 'deny', 'ask', 'block', 'accept', 'stop', 'continue', 'context', 'fault', 'denied', 'blocked', 'replaced', 'error'];
  return html`<span class="badge ${known.includes(word) ? `b-${word}` : 'b-other'}">${extra ?? word}</span>`;
}

function decisionDetail(decision: unknown): Html[] {
  if (typeof decision !== 'object' || decision === null) return [];
  const { reason, additionalContext, content } = decision as { reason?: unknown; additionalContext?: unknown; content?: unknown };
  const parts: Html[] = [];
  if (typeof reason === 'string') parts.push(html`<span class="reason">${reason}</span>`);
  if (typeof additionalContext === 'string') parts.push(html`<span class="detail">context: ${additionalContext}</span>`);
  if (typeof content === 'string') parts.push(html`<span class="detail">replaces the text (${[...content].length} characters)</span>`);
  return parts;
}

function dispatchItem(dispatch: Dispatch): Html {
  const rows = dispatch.invocations.map(({ anchor, event }) => {
    const fault = event.outcome === 'fault';
    const decision =
      event.outcome === 'no-opinion'
        ? html`<span class="muted">no opinion</span>`
        : fault
          ? html`${badge('fault', `⚠ fault: ${event.fault?.kind ?? 'unknown'}`)} → ${event.applied === null ? 'no opinion' : badge(decisionWord(event.applied))}`
          : badge(decisionWord(event.decision));
    const detail = fault ? [html`<span class="reason">${event.fault?.message ?? ''}</span>`, ...decisionDetail(event.applied)] : decisionDetail(event.decision);
    return html`<tr id="${anchor}"${fault ? html` class="fault-row"` : ''}><th scope="row">${event.hook}${event.sandbox === 'shell' ? html` <span class="badge b-other">unsandboxed</span>` : ''}</th><td>${decision}</td><td>${detail}</td><td class="num">${Math.round(event.durationUs)}</td></tr>`;
  });
  return html`<li class="ev dispatch"><table class="hooks-at"><caption>Hooks at ${dispatch.seam}</caption>
<thead><tr><th scope="col">Hook</th><th scope="col">Decision</th><th scope="col">Reason or detail</th><th scope="col">µs</th></tr></thead>
<tbody>${rows}</tbody></table></li>`;
}

function item(label: string, anchor: string, cls: string, body: Html | Html[]): Html {
  return html`<li id="${anchor}" class="ev ${cls}"><span class="label">${label}</span> ${body}</li>`;
}

function eventItem(anchor: string, event: SessionEvent, options: QuoteOptions): Html {
  switch (event.type) {
    case 'session/start':
      return item('Session start', anchor, 'meta', html`${event.source}, ${event.at}, in <code>${event.cwd}</code>`);
    case 'user/message':
      return item('Prompt', anchor, 'prompt', [
        html`<pre>${multiline(event.content, { maxLines: MAX_LINES })}</pre>`,
        event.originalContent !== undefined ? html`<p class="detail">rewritten by a hook; submitted as: ${event.originalContent}</p>` : html``,
      ]);
    case 'prompt/blocked':
      return item('Prompt blocked', anchor, 'restrictive', [
        badge('block'),
        html` <span class="reason">${event.reason}</span><pre>${multiline(blockedPromptText(event.content, options), { maxLines: MAX_LINES })}</pre>`,
      ]);
    case 'assistant/message':
      return item(`Assistant (step ${event.step})`, anchor, 'assistant', html`<pre>${multiline(event.content, { maxLines: MAX_LINES })}</pre>`);
    case 'tool/call':
      return item(`Tool call (step ${event.step})`, anchor, 'call', html`<code>${toolCallText(event.toolName, event.arguments)}</code>`);
    case 'tool/rewrite':
      return item(`Call rewritten (step ${event.step})`, anchor, 'restrictive', [
        html`${badge('rewrite', 'rewritten')} by ${event.hooks.join(', ')}: ran as <code>${toolCallText(event.toolName, event.arguments)}</code>`,
        html`<p class="detail">the model asked for <code>${toolCallText(event.toolName, event.original)}</code></p>`,
      ]);
    case 'tool/ask':
      return item('Asked', anchor, 'restrictive', [
        html`${event.asks.map((ask) => html`<span class="ask">${badge('ask')} ${ask.hook}: ${ask.reason ?? '(no reason)'}</span> `)}`,
        html`answered ${badge(event.answer === 'allow' ? 'allow' : 'deny', `answer: ${event.answer}`)} <span class="reason">${event.reason}</span>`,
      ]);
    case 'tool/result':
      return item(`Result of ${event.toolName}`, anchor, event.hookEffect === 'denied' || event.hookEffect === 'blocked' ? 'restrictive' : 'result', [
        event.hookEffect !== undefined ? badge(event.hookEffect, `${event.hookEffect} by a hook`) : event.isError ? badge('error') : html``,
        html`<pre>${multiline(event.content, { maxLines: MAX_LINES })}</pre>`,
      ]);
    case 'context/message':
      return item(`Context (${event.source})`, anchor, 'context', html`<pre>${multiline(event.content, { maxLines: MAX_LINES })}</pre>`);
    case 'steering/message':
      return item('Turn forced on', anchor, 'steering', html`<pre>${multiline(event.content, { maxLines: MAX_LINES })}</pre>`);
    case 'hook/log':
      return item(`Log ${event.level}`, anchor, `log log-${event.level}`, html`<span class="hook">${event.hook}</span>: ${event.message}`);
    case 'turn/start':
    case 'turn/end':
    case 'hook/invoke':
      return html``; // section headings and dispatch tables
  }
}

function endText(end: EventOf<'turn/end'> | undefined): string {
  if (end === undefined) return 'not ended in the log';
  return `${end.reason} after ${end.steps} step(s)`;
}

function section(sectionData: TimelineSection, options: QuoteOptions): Html {
  const heading =
    sectionData.turn === undefined
      ? html`<h4>Outside a turn</h4>`
      : html`<h4>Turn ${sectionData.turn} — ${endText(sectionData.end)}${sectionData.end !== undefined && sectionData.end.reason !== 'completed' ? html` ${badge(sectionData.end.reason === 'rejected' ? 'block' : 'other', sectionData.end.reason)}` : ''}</h4>`;
  const items = sectionData.items.map((entry) => (entry.kind === 'dispatch' ? dispatchItem(entry) : eventItem(entry.anchor, entry.event, options)));
  const footer = sectionData.end?.message !== undefined ? html`<p class="detail">turn ended: ${sectionData.end.message}</p>` : '';
  return html`<section class="turn">${heading}${sectionData.startedAt !== undefined ? html`<p class="muted">started ${sectionData.startedAt}</p>` : ''}<ol class="events">${items}</ol>${footer}</section>`;
}

/** The timeline of one session: its sections, each an ordered list of what happened. */
export function renderSessionTimeline(index: number, session: ReportSession, events: readonly SessionEvent[], options: QuoteOptions): Html {
  const sections = timelineSections(index, events);
  return html`<section class="session" id="session-${index}"><h3>Session ${session.sessionId ?? '(no session/start event)'}</h3>
<p class="muted">log <code>${session.file}</code>, ${session.events} event(s)${session.tornBytes > 0 ? `, a torn last line of ${session.tornBytes} byte(s) skipped` : ''}</p>
${sections.map((s) => section(s, options))}</section>`;
}
