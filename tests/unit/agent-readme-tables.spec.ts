/**
 * host/agents/README.md's event and tool tables are generated from the code
 * (each bridge's `events`, each agent's tool table: tests/helpers/agent-readme-tables.ts),
 * between markers in the hand-written prose. These fail when a table is
 * stale; `HOOKBOX_UPDATE_AGENT_README=1` rewrites the tables from the code
 * (the prose is left as it is).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../host/agents/registry.ts';
import { END_MARKER, beginMarker, eventTable, renderAgentReadme, tableFor } from '../helpers/agent-readme-tables.ts';

const PATH = fileURLToPath(new URL('../../host/agents/README.md', import.meta.url));
const UPDATE = process.env.HOOKBOX_UPDATE_AGENT_README === '1';
if (UPDATE) writeFileSync(PATH, renderAgentReadme(readFileSync(PATH, 'utf8')));
const README = readFileSync(PATH, 'utf8');

/** What lies between an agent's markers in the README (without them), or undefined when they are missing. */
function block(agent: (typeof AGENT_NAMES)[number], kind: 'events' | 'tools'): string | undefined {
  const begin = beginMarker(agent, kind);
  const start = README.indexOf(begin);
  if (start < 0) return undefined;
  return README.slice(start + begin.length, README.indexOf(END_MARKER, start)).trim();
}

describe.each(AGENT_NAMES.flatMap((agent) => (['events', 'tools'] as const).map((kind) => [agent, kind] as const)))('host/agents/README.md: %s %s table', (agent, kind) => {
  it('is the code’s table, row for row (stale: HOOKBOX_UPDATE_AGENT_README=1 npx vitest run tests/unit/agent-readme-tables.spec.ts)', () => {
    expect(block(agent, kind), `no generated ${kind} table for ${agent} in host/agents/README.md`).toBe(tableFor(agent, kind));
  });
});

describe('the README generator', () => {
  it('leaves the README as it is when every table is current (the prose untouched)', () => {
    expect(renderAgentReadme(README)).toBe(README);
  });

  it('rewrites only what lies between the markers', () => {
    const begin = beginMarker('codex', 'events');
    const stale = README.replace(begin, `${begin}\n| \`Gone\` | \`tools/pre-execute\` | an old row |`);
    expect(stale).not.toBe(README);
    expect(renderAgentReadme(stale)).toBe(README);
  });

  it('names the agent and the table when a block is missing, and how to add it', () => {
    const begin = beginMarker('kilo', 'tools');
    expect(() => renderAgentReadme(README.replace(begin, ''))).toThrow(`host/agents/README.md has no generated tools table for kilo: put the line\n${begin}`);
  });

  it('refuses a cell that would break the table, naming where it is', () => {
    expect(() => eventTable('codex', [{ event: 'PreToolUse', seam: 'tools/pre-execute', answers: 'a | b' }])).toThrow('codex PreToolUse answers: "a | b" holds a "|" or a line break');
  });
});
