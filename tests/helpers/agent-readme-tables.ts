/**
 * The tables of host/agents/README.md, rendered from the code: each agent's
 * event table from its bridge's `events` (its protocol table) and its tool
 * table from its `<AGENT>_TOOLS`. The prose around them is hand-written; each
 * table sits between a pair of markers naming what it is made from, and
 * `renderAgentReadme` rewrites only what lies between them, so a row added
 * to a protocol or tool table appears in the README when it is regenerated
 * (`HOOKBOX_UPDATE_AGENT_README=1 npx vitest run tests/unit/agent-readme-tables.spec.ts`).
 */
import type { AgentEventMapping } from '../../host/agents/agent-bridge.ts';
import { CLAUDE_CODE_TOOLS } from '../../host/agents/claude-code/tools.ts';
import { CLINE_TOOLS } from '../../host/agents/cline/tools.ts';
import { CODEX_TOOLS } from '../../host/agents/codex/tools.ts';
import { COPILOT_TOOLS } from '../../host/agents/copilot/tools.ts';
import { FACTORY_TOOLS } from '../../host/agents/factory/tools.ts';
import { GEMINI_TOOLS } from '../../host/agents/gemini/tools.ts';
import { KILO_TOOLS } from '../../host/agents/kilo/tools.ts';
import { OPENCODE_TOOLS } from '../../host/agents/opencode/tools.ts';
import { PI_TOOLS } from '../../host/agents/pi/tools.ts';
import { QWEN_TOOLS } from '../../host/agents/qwen/tools.ts';
import { AGENT_BRIDGES, AGENT_NAMES, type AgentName } from '../../host/agents/registry.ts';
import type { AgentToolRow } from '../../host/agents/tool-table.ts';

/**
 * Each agent's tool table. Keyed by every registered agent: a new agent
 * without its table here is a compile error, not a README that silently
 * lacks it.
 */
export const AGENT_TOOL_TABLES = {
  'claude-code': CLAUDE_CODE_TOOLS,
  codex: CODEX_TOOLS,
  gemini: GEMINI_TOOLS,
  qwen: QWEN_TOOLS,
  factory: FACTORY_TOOLS,
  pi: PI_TOOLS,
  opencode: OPENCODE_TOOLS,
  kilo: KILO_TOOLS,
  copilot: COPILOT_TOOLS,
  cline: CLINE_TOOLS,
} as const satisfies { readonly [N in AgentName]: readonly AgentToolRow[] };

/** What a generated block is made from. */
export type TableKind = 'events' | 'tools';

/** The line opening a generated table: the block is found by it (how to regenerate is said once, at the top of the README). */
export const beginMarker = (agent: AgentName, kind: TableKind): string => `<!-- BEGIN generated: ${agent} ${kind} -->`;
export const END_MARKER = '<!-- END generated -->';

/** A table cell's text: a `|` would end the cell, a newline the row. */
function cell(text: string, where: string): string {
  if (/[|\n\r]/.test(text)) throw new Error(`${where}: ${JSON.stringify(text)} holds a "|" or a line break, which would break the README's table`);
  return text;
}

/** The Markdown event table of one agent (header and rows, no trailing newline). */
export function eventTable(agent: AgentName, rows: readonly AgentEventMapping[]): string {
  const body = rows.map((row) => `| \`${cell(row.event, `${agent} event`)}\` | \`${row.seam}\` | ${cell(row.answers, `${agent} ${row.event} answers`)} |`);
  return ['| event | seam | decision → answer |', '|---|---|---|', ...body].join('\n');
}

/** The Markdown tool table of one agent (header and rows, no trailing newline). */
export function toolTable(agent: AgentName, rows: readonly AgentToolRow[]): string {
  const body = rows.map((row) => `| \`${cell(row.tool, `${agent} tool`)}\` | \`${cell(row.as, `${agent} ${row.tool} as`)}\` | ${cell(row.how, `${agent} ${row.tool} how`)} |`);
  return ['| tool | reaches hooks as | how |', '|---|---|---|', ...body].join('\n');
}

/** The table a block holds, from the code. */
export function tableFor(agent: AgentName, kind: TableKind): string {
  return kind === 'events' ? eventTable(agent, AGENT_BRIDGES[agent].events) : toolTable(agent, AGENT_TOOL_TABLES[agent]);
}

/**
 * The README with every generated block rewritten from the code. Throws,
 * naming it, when an agent's block is missing or not closed: a new agent's
 * tables need their place in the prose chosen by hand, once.
 */
export function renderAgentReadme(readme: string): string {
  let text = readme;
  for (const agent of AGENT_NAMES) {
    for (const kind of ['events', 'tools'] as const) {
      const begin = beginMarker(agent, kind);
      const start = text.indexOf(begin);
      if (start < 0) throw new Error(`host/agents/README.md has no generated ${kind} table for ${agent}: put the line\n${begin}\n${END_MARKER}\nwhere it belongs in the prose`);
      if (text.indexOf(begin, start + 1) >= 0) throw new Error(`host/agents/README.md has the ${agent} ${kind} table twice`);
      const from = start + begin.length;
      const end = text.indexOf(END_MARKER, from);
      if (end < 0) throw new Error(`host/agents/README.md: the ${agent} ${kind} table is not closed by ${END_MARKER}`);
      text = `${text.slice(0, from)}\n${tableFor(agent, kind)}\n${text.slice(end)}`;
    }
  }
  return text;
}
