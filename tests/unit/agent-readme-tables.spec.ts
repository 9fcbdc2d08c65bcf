/** The README's mapping tables are the code's (CODEX_EVENTS, GEMINI_EVENTS, PI_EVENTS, OPENCODE_EVENTS, KILO_EVENTS, COPILOT_EVENTS, CLINE_EVENTS; each agent's tool table), row for row. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_TOOLS } from '../../host/agents/claude-code/tools.ts';
import { CLINE_EVENTS } from '../../host/agents/cline/protocol.ts';
import { CLINE_TOOLS } from '../../host/agents/cline/tools.ts';
import { CODEX_TOOLS } from '../../host/agents/codex/tools.ts';
import { COPILOT_EVENTS } from '../../host/agents/copilot/protocol.ts';
import { COPILOT_TOOLS } from '../../host/agents/copilot/tools.ts';
import { CODEX_EVENTS } from '../../host/agents/codex/protocol.ts';
import { GEMINI_TOOLS } from '../../host/agents/gemini/tools.ts';
import { GEMINI_EVENTS } from '../../host/agents/gemini/protocol.ts';
import { FACTORY_EVENTS } from '../../host/agents/factory/protocol.ts';
import { FACTORY_TOOLS } from '../../host/agents/factory/tools.ts';
import { QWEN_EVENTS } from '../../host/agents/qwen/protocol.ts';
import { QWEN_TOOLS } from '../../host/agents/qwen/tools.ts';
import { KILO_EVENTS } from '../../host/agents/kilo/protocol.ts';
import { KILO_TOOLS } from '../../host/agents/kilo/tools.ts';
import { OPENCODE_EVENTS } from '../../host/agents/opencode/protocol.ts';
import { OPENCODE_TOOLS } from '../../host/agents/opencode/tools.ts';
import { PI_EVENTS } from '../../host/agents/pi/protocol.ts';
import { PI_TOOLS } from '../../host/agents/pi/tools.ts';

const README = readFileSync(new URL('../../host/agents/README.md', import.meta.url), 'utf8');

describe.each([
  ['Codex', CODEX_EVENTS],
  ['Gemini CLI', GEMINI_EVENTS],
  ['Qwen Code', QWEN_EVENTS],
  ['Factory Droid', FACTORY_EVENTS],
  ['pi', PI_EVENTS],
  ['OpenCode', OPENCODE_EVENTS],
  ['Kilo CLI', KILO_EVENTS],
  ['Copilot CLI', COPILOT_EVENTS],
  ['Cline CLI', CLINE_EVENTS],
])('%s mapping table in host/agents/README.md', (_agent, rows) => {
  it.each(rows.map((row) => [row.event, row]))('has the row for %s as in the code', (_event, row) => {
    expect(README).toContain(`| \`${row.event}\` | \`${row.seam}\` | ${row.answers} |`);
  });
});

describe.each([
  ['Claude Code', CLAUDE_CODE_TOOLS],
  ['Codex', CODEX_TOOLS],
  ['Gemini CLI', GEMINI_TOOLS],
  ['Qwen Code', QWEN_TOOLS],
  ['Factory Droid', FACTORY_TOOLS],
  ['pi', PI_TOOLS],
  ['OpenCode', OPENCODE_TOOLS],
  ['Kilo CLI', KILO_TOOLS],
  ['Copilot CLI', COPILOT_TOOLS],
  ['Cline CLI', CLINE_TOOLS],
])('%s tool table in host/agents/README.md', (agent, rows) => {
  const tools = README.slice(README.indexOf('## Tools: the closed-world tables'));
  const section = tools.slice(tools.indexOf(`### ${agent} (`));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| tool |')));
  it('lists exactly the code\'s rows, in order', () => {
    const lines = table.split('\n').filter((line) => line.startsWith('| `'));
    expect(lines).toEqual(rows.map((row) => `| \`${row.tool}\` | \`${row.as}\` | ${row.how} |`));
  });
});
