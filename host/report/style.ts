/**
 * The report's one style sheet, inlined. Colour repeats what a word or a
 * shape already says (a badge's text, a ⚠, a thick border), never carries it
 * alone; contrast stays above 4.5:1 on white.
 */
export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #4d5661; --line: #c9d1d9; --deny: #a40e26; --ask: #7a4a00; --block: #6e2fb0; --ok: #1a6b32; --fault: #8a3b00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #fff; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
nav { background: #f3f5f7; border-bottom: 1px solid var(--line); padding: .5rem 1.5rem; }
nav ul { display: flex; flex-wrap: wrap; gap: 1.25rem; margin: 0; padding: 0; list-style: none; }
a { color: #0b4f9c; }
a:focus-visible { outline: 3px solid #0b4f9c; outline-offset: 2px; }
:target { outline: 3px solid #0b4f9c; outline-offset: 2px; background: #fff8d6; }
h1 { font-size: 1.7rem; margin: .5rem 0; }
h2 { font-size: 1.35rem; margin-top: 2.2rem; border-bottom: 2px solid var(--line); padding-bottom: .2rem; }
h3 { font-size: 1.1rem; margin-top: 1.5rem; }
h4 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
table { border-collapse: collapse; margin: .6rem 0 1rem; width: 100%; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
thead th { background: #f3f5f7; overflow-wrap: normal; }
table.figures { width: auto; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, pre { font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0; background: #f6f8fa; padding: .3rem .5rem; border-radius: 3px; }
.muted { color: var(--muted); }
.headline { font-size: 1.1rem; }
.badge { display: inline-block; font-weight: 700; font-size: .8rem; padding: 0 .4rem; border: 2px solid currentColor; border-radius: 3px; text-transform: uppercase; letter-spacing: .02em; white-space: nowrap; }
.b-deny, .b-denied { color: var(--deny); }
.b-ask { color: var(--ask); }
.b-block, .b-blocked { color: var(--block); }
.b-allow, .b-accept, .b-stop { color: var(--ok); }
.b-fault, .b-error { color: var(--fault); background: #fff1e0; }
.b-continue, .b-context, .b-replaced, .b-other { color: var(--muted); }
tr.fault-row { background: #fff1e0; }
tr.fault-row th { border-left: 6px solid var(--fault); }
ol.events { list-style: none; margin: 0; padding: 0; }
li.ev { border-left: 3px solid var(--line); padding: .25rem .6rem; margin: .25rem 0; }
li.ev .label { font-weight: 600; margin-right: .3rem; }
li.restrictive { border-left: 6px double var(--deny); background: #fdf3f4; }
li.log { color: var(--muted); font-size: .9rem; }
li.dispatch { border-left-style: dotted; }
table.hooks-at { width: auto; min-width: 60%; margin: .2rem 0; font-size: .92rem; }
table.hooks-at caption { font-weight: 500; color: var(--muted); }
table.hooks-at th[scope=row], .nowrap, table .muted { white-space: nowrap; }
.reason { font-style: italic; }
.detail { color: var(--muted); }
.chart-box { display: inline-block; vertical-align: top; margin: 0 1.5rem 1rem 0; }
.chart-box h3 { margin: .5rem 0 .2rem; }
svg.chart { font: 11px system-ui, sans-serif; fill: var(--fg); }
svg.chart .bar { fill: #3b6ea5; }
svg.chart .axis, svg.chart .tick { stroke: var(--muted); stroke-width: 1; }
svg.chart .p50 { stroke: var(--fg); stroke-width: 1.5; stroke-dasharray: 5 3; }
svg.chart .p99 { stroke: var(--deny); stroke-width: 2; }
svg.chart .marker-label { font-weight: 600; }
@media print { nav { display: none; } li.ev { break-inside: avoid; } }
`;
