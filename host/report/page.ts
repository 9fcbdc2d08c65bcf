import { createHash } from 'node:crypto';
import type { SessionEvent } from '../log/index.ts';
import type { QuoteOptions } from './findings.ts';
import { html, styleElement } from './html.ts';
import type { ReportData } from './report-data.ts';
import { renderFindings } from './render-findings.ts';
import { renderHookTable, renderLatency } from './render-hooks.ts';
import { renderSummary } from './render-summary.ts';
import { renderSessionTimeline } from './render-timeline.ts';
import { REPORT_CSS } from './style.ts';

export interface PageOptions extends QuoteOptions {
  /** When the report was made (ISO 8601); shown under the title. */
  readonly generatedAt: string;
}

/**
 * The page's Content-Security-Policy: nothing may load or run — no script,
 * no network, no frame, no form — except the one style sheet, allowed by its
 * hash. The escaping is what keeps log text inert; this is the second wall.
 */
export function contentSecurityPolicy(css: string): string {
  const hash = createHash('sha256').update(css).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
}

/** The whole report: one self-contained HTML document (no script, no external asset). */
export function renderPage(data: ReportData, events: readonly (readonly SessionEvent[])[], options: PageOptions): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(REPORT_CSS)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hookbox audit report: ${data.sessions.length === 1 ? `session ${data.sessions[0]?.sessionId ?? data.sessions[0]?.file ?? ''}` : `${data.sessions.length} sessions`}</title>
${styleElement(REPORT_CSS)}
</head>
<body>
<nav aria-label="Sections"><ul>
<li><a href="#summary">Summary</a></li><li><a href="#hooks">Hooks</a></li><li><a href="#latency">Latency</a></li><li><a href="#findings">Denials, asks and blocks (${data.findings.length})</a></li><li><a href="#timeline">Timeline</a></li>
</ul></nav>
<main>
<h1>hookbox audit report</h1>
<p class="muted">Made ${options.generatedAt} by <code>hookbox report</code> from ${data.sessions.length} session log(s). Every text below comes from the logs and is shown escaped: control characters and bidirectional overrides appear as <code>\\x1b</code>, <code>\\u{202e}</code>…${options.showBlockedPrompts === true ? '' : ' The text of blocked prompts is withheld (--show-blocked-prompts shows it).'}</p>
${renderSummary(data)}
${renderHookTable(data)}
${renderLatency(data)}
${renderFindings(data)}
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
<p>Every turn, prompt, tool call and hook decision, in log order. Faults are marked ⚠ and denials, asks and blocks have a double border.</p>
${data.sessions.map((session, i) => renderSessionTimeline(i, session, events[i] ?? [], options))}
</section>
</main>
</body>
</html>
`;
  return page.toString();
}
