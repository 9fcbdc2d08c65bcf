/**
 * The census: each pinned agent binary advertises its tools to the model in
 * its first request. The mock model records them, and each must be listed in
 * that agent's bridge tool table (mapped to a hookbox tool, or deliberately
 * passed under its own name). A tool the binary advertises that the table
 * lacks fails the test: a guard written for hookbox's names would not see it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_TOOLS } from '../../host/agents/claude-code/tools.ts';
import { CODEX_TOOLS } from '../../host/agents/codex/tools.ts';
import { GEMINI_TOOLS } from '../../host/agents/gemini/tools.ts';
import { type AgentToolRow, listedTools } from '../../host/agents/tool-table.ts';
import { agentWorkspace } from '../helpers/agent-project.ts';
import { claudeWorkspace, probeClaude, runClaude } from '../helpers/claude-code.ts';
import { startAnthropicMock, withMock } from '../helpers/mock-model/lifecycle.ts';
import { advertisedToolNames, claudeDeferredToolNames } from '../helpers/mock-model/advertised-tools.ts';
import { startGeminiMock } from '../helpers/mock-model/gemini.ts';
import { startResponsesMock } from '../helpers/mock-model/openai-responses.ts';
import { CODEX_BIN, GEMINI_BIN, agentUnavailable, runCodex, runGemini, writeCodexHome, writeGeminiHome } from '../helpers/real-agents.ts';

const RUN_TIMEOUT = 300_000;
const probe = probeClaude();
const claude = probe.ok && probe.version !== '2.1.328' ? { ok: false as const, reason: `claude is ${probe.version}, not 2.1.328` } : probe;
const codexMissing = agentUnavailable(CODEX_BIN, '0.169.0');
const geminiMissing = agentUnavailable(GEMINI_BIN, '0.61.0');

function report(agent: string, names: readonly string[]): void {
  process.stdout.write(`census ${agent}: ${names.join(', ')}\n`);
}

/** The advertised names the agent's table does not list (mapped or passed). */
function unlisted(names: readonly string[], table: readonly AgentToolRow[]): string[] {
  const listed = listedTools(table);
  return names.filter((name) => !listed.has(name));
}

describe('agent tool census (real binaries)', () => {
  it.skipIf(!claude.ok)(`Claude Code 2.1.328 advertises only tools its table lists${claude.ok ? '' : ` (skipped, because ${claude.reason})`}`, { timeout: RUN_TIMEOUT }, async () => {
    const { project, home } = claudeWorkspace('hookbox-census-cc-');
    await withMock(startAnthropicMock([{ text: 'ok' }]), async (mock) => {
      const run = await runClaude({ project, home, mock, prompt: 'hello' });
      expect(run.result, run.stderr).toBeDefined();
      const main = mock.requests.find((request) => request.withTools);
      expect(main, 'Claude Code sent no request with tools').toBeDefined();
      const deferred = claudeDeferredToolNames(main!.body);
      expect(deferred, 'the deferred-tools reminder was not found: the census would miss NotebookEdit, WebFetch…').not.toHaveLength(0);
      const names = [...advertisedToolNames('anthropic', main!.body), ...deferred];
      report('claude-code', names);
      expect(unlisted(names, CLAUDE_CODE_TOOLS), 'tools Claude Code offers that host/agents/claude-code/tools.ts does not list').toEqual([]);
    });
  });

  it.skipIf(codexMissing !== undefined)(`Codex 0.169.0 advertises only tools its table lists${codexMissing === undefined ? '' : ` (skipped, because ${codexMissing})`}`, { timeout: RUN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-census-codex-');
    await withMock(startResponsesMock([{ text: 'ok' }]), async (mock) => {
      writeCodexHome(ws.home, mock.url);
      const run = await runCodex(ws.home, ws.project, 'hello');
      expect(run.status, run.stderr).toBe(0);
      expect(mock.turns.length, 'Codex made no model request').toBeGreaterThan(0);
      const names = advertisedToolNames('responses', mock.turns[0]!.body);
      report('codex', names);
      expect(unlisted(names, CODEX_TOOLS), 'tools Codex offers that host/agents/codex/tools.ts does not list').toEqual([]);
    });
  });

  it.skipIf(geminiMissing !== undefined)(`Gemini CLI 0.61.0 advertises only tools its table lists${geminiMissing === undefined ? '' : ` (skipped, because ${geminiMissing})`}`, { timeout: RUN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-census-gemini-');
    await withMock(startGeminiMock([{ text: 'ok' }]), async (mock) => {
      writeGeminiHome(ws.home);
      writeFileSync(join(ws.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws.project]: 'TRUST_FOLDER' }));
      await runGemini(ws.home, ws.project, mock.url, 'hello');
      expect(mock.turns.length, 'Gemini CLI made no model request').toBeGreaterThan(0);
      const names = advertisedToolNames('gemini', mock.turns[0]!.body);
      report('gemini', names);
      expect(unlisted(names, GEMINI_TOOLS), 'tools Gemini CLI offers that host/agents/gemini/tools.ts does not list').toEqual([]);
    });
  });
});
