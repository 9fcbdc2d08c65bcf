import { type Html, html } from './html.ts';
import type { HookStats } from './report-data.ts';

/** Histogram bins per decade of µs: edges at 10^(k/4) (1, 1.8, 3.2, 5.6, 10 …). */
const BINS_PER_DECADE = 4;
const WIDTH = 520;
const HEIGHT = 170;
const LEFT = 44;
const RIGHT = 28;
const TOP = 36;
const BOTTOM = 34;

/** The x range every hook's chart shares, in bin units (k of 10^(k/4) µs), so charts compare at a glance. */
export interface ChartScale {
  readonly lo: number;
  readonly hi: number;
}

const binOf = (us: number): number => BINS_PER_DECADE * Math.log10(Math.max(us, 1));

/** The shared scale: from the bin of the fastest call to the bin after the slowest, at least one decade. */
export function chartScale(hooks: readonly HookStats[]): ChartScale {
  const all = hooks.flatMap((hook) => hook.durationsUs);
  if (all.length === 0) return { lo: 0, hi: BINS_PER_DECADE };
  const lo = Math.floor(binOf(Math.min(...all)));
  const hi = Math.max(Math.floor(binOf(Math.max(...all))) + 1, lo + BINS_PER_DECADE);
  return { lo, hi };
}

/** A duration for people: µs below a millisecond, then ms, then s. */
export function formatUs(us: number): string {
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

const edgeUs = (bin: number): number => 10 ** (bin / BINS_PER_DECADE);

/** An axis label at a decade: 1 µs, 10 µs, 100 µs, 1 ms, 10 ms, 100 ms, 1 s… */
function decadeLabel(us: number): string {
  const rounded = Number(us.toPrecision(1));
  if (rounded < 1000) return `${rounded} µs`;
  if (rounded < 1_000_000) return `${rounded / 1000} ms`;
  return `${rounded / 1_000_000} s`;
}

/** Calls per bin over the scale (values outside it are clamped into the end bins). */
export function histogram(durationsUs: readonly number[], scale: ChartScale): number[] {
  const counts = new Array<number>(scale.hi - scale.lo).fill(0);
  for (const us of durationsUs) {
    const index = Math.min(Math.max(Math.floor(binOf(us)) - scale.lo, 0), counts.length - 1);
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

/** The chart's text alternative: the figures, then every non-empty bin in words. */
export function chartDescription(hook: HookStats, scale: ChartScale): string {
  const counts = histogram(hook.durationsUs, scale);
  const bins = counts.flatMap((n, i) => (n === 0 ? [] : [`${n} between ${formatUs(edgeUs(scale.lo + i))} and ${formatUs(edgeUs(scale.lo + i + 1))}`]));
  return `${hook.calls} call(s); p50 ${formatUs(hook.p50Us)}, p99 ${formatUs(hook.p99Us)}, slowest ${formatUs(hook.maxUs)}. Calls by duration: ${bins.join('; ')}.`;
}

/**
 * One hook's latency as an inline SVG histogram on a log scale, with p50
 * (dashed) and p99 (solid) markers told apart by line style and label, not
 * colour alone. `role="img"` with a title and a description that state the
 * same figures in words.
 */
export function latencyChart(hook: HookStats, scale: ChartScale, id: string): Html {
  const counts = histogram(hook.durationsUs, scale);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const barWidth = plotWidth / counts.length;
  const most = Math.max(...counts, 1);
  const x = (bin: number): number => LEFT + (bin - scale.lo) * barWidth;
  const bars = counts.map((n, i) => {
    if (n === 0) return '';
    const height = (n / most) * plotHeight;
    return html`<rect class="bar" x="${(LEFT + i * barWidth + 1).toFixed(1)}" y="${(TOP + plotHeight - height).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${height.toFixed(1)}"></rect>`;
  });
  const ticks = [];
  for (let bin = Math.ceil(scale.lo / BINS_PER_DECADE) * BINS_PER_DECADE; bin <= scale.hi; bin += BINS_PER_DECADE) {
    ticks.push(
      html`<line class="tick" x1="${x(bin).toFixed(1)}" y1="${TOP + plotHeight}" x2="${x(bin).toFixed(1)}" y2="${TOP + plotHeight + 5}"></line>`,
      html`<text x="${x(bin).toFixed(1)}" y="${HEIGHT - 14}" text-anchor="middle">${decadeLabel(edgeUs(bin))}</text>`,
    );
  }
  // Each label on its own row (p50 above p99), beside its line on the side with room.
  const marker = (us: number, label: 'p50' | 'p99') => {
    const at = Math.min(Math.max(x(binOf(us)), LEFT), LEFT + plotWidth);
    const right = at < LEFT + plotWidth - 110;
    const labelY = label === 'p50' ? TOP - 22 : TOP - 8;
    return html`<line class="${label}" x1="${at.toFixed(1)}" y1="${labelY - 8}" x2="${at.toFixed(1)}" y2="${TOP + plotHeight}"></line><text class="marker-label" x="${(right ? at + 4 : at - 4).toFixed(1)}" y="${labelY}" text-anchor="${right ? 'start' : 'end'}">${label} ${formatUs(us)}</text>`;
  };
  return html`<svg class="chart" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg">
<title id="${id}-title">Latency of ${hook.hook}</title>
<desc id="${id}-desc">${chartDescription(hook, scale)}</desc>
<line class="axis" x1="${LEFT}" y1="${TOP + plotHeight}" x2="${LEFT + plotWidth}" y2="${TOP + plotHeight}"></line>
<line class="axis" x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plotHeight}"></line>
<text x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${most}</text>
<text x="${LEFT - 6}" y="${TOP + plotHeight}" text-anchor="end">0</text>
<text x="${LEFT + plotWidth}" y="${HEIGHT - 2}" text-anchor="end">call duration (log scale); bar height: calls</text>
${bars}${ticks}${marker(hook.p50Us, 'p50')}${marker(hook.p99Us, 'p99')}
</svg>`;
}
