import { type Html, html } from './html.ts';
import { chartScale, latencyChart } from './latency-chart.ts';
import type { ReportData } from './report-data.ts';
import { counts } from './render-summary.ts';

/** The per-hook table: calls, decisions by action, faults by kind, latency percentiles. */
export function renderHookTable(data: ReportData): Html {
  const rows = data.hooks.map((hook) => {
    const faults = Object.values(hook.faults).reduce((sum, n) => sum + (n ?? 0), 0);
    return html`<tr${faults > 0 ? html` class="fault-row"` : ''}><th scope="row">${hook.hook}</th>
<td>${hook.sandboxes.join(', ')}${hook.digests.map((digest) => html`<br><code title="sha256 ${digest}">${digest.slice(0, 12)}</code>`)}</td>
<td class="num">${hook.calls}</td><td>${counts(hook.decisions)}</td><td class="num">${hook.noOpinion}</td>
<td>${faults > 0 ? html`${'⚠'} ${counts(hook.faults)}` : 'none'}</td>
<td class="num">${Math.round(hook.p50Us)}</td><td class="num">${Math.round(hook.p99Us)}</td><td class="num">${Math.round(hook.maxUs)}</td></tr>`;
  });
  return html`<section aria-labelledby="hooks"><h2 id="hooks">Hooks</h2>
<table class="hook-table"><caption>Every hook's calls, decisions by action, faults by kind and latency (µs) over every session</caption>
<thead><tr><th scope="col">Hook</th><th scope="col">Sandbox and digest</th><th scope="col">Calls</th><th scope="col">Decisions by action</th><th scope="col">No opinion</th><th scope="col">Faults by kind</th><th scope="col">p50 µs</th><th scope="col">p99 µs</th><th scope="col">Max µs</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
}

/** One latency chart per hook, on one shared log scale. */
export function renderLatency(data: ReportData): Html {
  const scale = chartScale(data.hooks);
  return html`<section aria-labelledby="latency"><h2 id="latency">Latency per hook</h2>
<p>Each chart counts one hook's calls by duration, on a log scale shared by every chart. The dashed line is the median (p50), the solid line p99.</p>
${data.hooks.map((hook, i) => html`<section class="chart-box"><h3>${hook.hook}</h3>${latencyChart(hook, scale, `chart-${i}`)}</section>`)}</section>`;
}
