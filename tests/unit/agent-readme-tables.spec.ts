/** The README's mapping tables are the code's (CODEX_EVENTS, GEMINI_EVENTS), row for row. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODEX_EVENTS } from '../../host/bridges/agents/codex.ts';
import { GEMINI_EVENTS } from '../../host/bridges/agents/gemini.ts';

const README = readFileSync(new URL('../../host/bridges/agents/README.md', import.meta.url), 'utf8');

describe.each([
  ['Codex', CODEX_EVENTS],
  ['Gemini CLI', GEMINI_EVENTS],
])('%s mapping table in host/bridges/agents/README.md', (_agent, rows) => {
  it.each(rows.map((row) => [row.event, row]))('has the row for %s as in the code', (_event, row) => {
    expect(README).toContain(`| \`${row.event}\` | \`${row.seam}\` | ${row.answers} |`);
  });
});
