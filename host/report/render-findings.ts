import { type Html, html } from './html.ts';
import type { Finding, ReportData } from './report-data.ts';
import { badge } from './render-timeline.ts';

function where(finding: Finding, data: ReportData): string {
  const place = finding.turn === undefined ? 'outside a turn' : `turn ${finding.turn}${finding.step !== undefined && finding.step > 0 ? `, step ${finding.step}` : ''}`;
  return data.sessions.length > 1 ? `session ${finding.session + 1}, ${place}` : place;
}

/** The list of denials, asks and blocks, each linked to its row in the timeline. */
export function renderFindings(data: ReportData): Html {
  const rows = data.findings.map(
    (finding) =>
      html`<tr${finding.fault !== undefined ? html` class="fault-row"` : ''}><td><a href="#${finding.anchor}">${where(finding, data)}</a></td><th scope="row">${finding.hook}</th><td class="nowrap">${finding.seam}</td>
<td>${badge(finding.action)}${finding.fault !== undefined ? html` ${badge('fault', `⚠ fault: ${finding.fault}`)}` : ''}</td>
<td>${finding.subject !== undefined ? html`<code>${finding.subject}</code>` : ''}</td><td>${finding.reason === '' ? '(no reason)' : finding.reason}</td>
<td>${finding.answer !== undefined ? `answered ${finding.answer}` : ''}</td></tr>`,
  );
  const byAction = (action: Finding['action']) => data.findings.filter((finding) => finding.action === action).length;
  return html`<section aria-labelledby="findings"><h2 id="findings">Denials, asks and blocks</h2>
${
  data.findings.length === 0
    ? html`<p>No hook denied, asked about or blocked anything.</p>`
    : html`<table class="findings"><caption>${byAction('deny')} denial(s), ${byAction('ask')} ask(s), ${byAction('block')} block(s), in log order</caption>
<thead><tr><th scope="col">Where</th><th scope="col">Hook</th><th scope="col">Seam</th><th scope="col">Decision</th><th scope="col">Decided on</th><th scope="col">Reason</th><th scope="col">Answer</th></tr></thead>
<tbody>${rows}</tbody></table>`
}</section>`;
}
