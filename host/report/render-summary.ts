import { type Html, html } from './html.ts';
import type { ReportData } from './report-data.ts';

/** `3 completed, 1 rejected`: a count record in words, largest first; `none` when empty. */
export function counts(record: Readonly<Partial<Record<string, number>>>): string {
  const entries = Object.entries(record).filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0);
  if (entries.length === 0) return 'none';
  return entries
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, n]) => `${n} ${key}`)
    .join(', ');
}

/** The one sentence a reader sees first. */
export function headline(data: ReportData): string {
  const t = data.totals;
  return (
    `${t.sessions} session(s), ${t.turns} turn(s), ${t.prompts} prompt(s) (${t.blockedPrompts} blocked), ` +
    `${t.toolCalls} tool call(s) (${t.deniedToolCalls} denied, ${t.asks} asked), ` +
    `${t.hookCalls} hook call(s) by ${data.hooks.length} hook(s), ${t.faults} fault(s).`
  );
}

/** The summary section: the headline, the figures as a table, and the logs read. */
export function renderSummary(data: ReportData): Html {
  const t = data.totals;
  const figures: [string, string | number][] = [
    ['Turns', `${t.turns} (${counts(t.turnsByReason)})`],
    ['Prompts', t.prompts],
    ['Prompts blocked', t.blockedPrompts],
    ['Tool calls', t.toolCalls],
    ['Denied', t.deniedToolCalls],
    ['Rewritten', t.rewrittenToolCalls],
    ['Asked', t.asks],
    ['Results blocked', t.blockedToolResults],
    ['Results replaced', t.replacedToolResults],
    ['Hook calls', t.hookCalls],
    ['Hook faults', t.faults === 0 ? '0' : `⚠ ${t.faults} (${counts(t.faultsByKind)})`],
  ];
  const sessions = data.sessions.map(
    (s, i) =>
      html`<tr><th scope="row"><a href="#session-${i}">${s.sessionId ?? '(none)'}</a></th><td><code>${s.file}</code></td><td>${s.startedAt ?? ''}</td><td class="num">${s.turns}</td><td class="num">${s.events}</td><td class="num">${s.tornBytes}</td></tr>`,
  );
  return html`<section aria-labelledby="summary"><h2 id="summary">Summary</h2>
<p class="headline">${headline(data)}${t.faults > 0 ? html` ${'⚠'} <strong>Hooks faulted; see the hook table and the timeline.</strong>` : ''}</p>
<p>Period: ${t.firstAt === undefined ? 'no timestamps in the logs' : `${t.firstAt} to ${t.lastAt ?? t.firstAt}`}.</p>
<table class="figures"><caption>Figures over every session</caption>
<thead><tr>${figures.map(([name]) => html`<th scope="col">${name}</th>`)}</tr></thead>
<tbody><tr>${figures.map(([, value]) => html`<td class="num">${value}</td>`)}</tr></tbody></table>
<table><caption>Session logs read</caption>
<thead><tr><th scope="col">Session</th><th scope="col">Log file</th><th scope="col">Started</th><th scope="col">Turns</th><th scope="col">Events</th><th scope="col">Torn bytes skipped</th></tr></thead>
<tbody>${sessions}</tbody></table></section>`;
}
