/**
 * File edits as each real agent runs them reach a `write_file` guard (the
 * suite's `no-env` hook, which refuses writes to `.env` files): Claude
 * Code's `Edit` (after the `Read` it requires), Codex's `apply_patch` with an
 * indented file header (which Codex's own parser accepts) and a patch sent
 * as a shell heredoc (which Codex applies as a patch), Gemini CLI's
 * `replace`. Each is denied and the file is left as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace } from '../helpers/agent-project.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { probeClaude, runClaude } from '../helpers/claude-code.ts';
import { functionResponses, startGeminiMock } from '../helpers/mock-model/gemini.ts';
import { startAnthropicMock } from '../helpers/mock-model/lifecycle.ts';
import { functionCallOutputs, startResponsesMock } from '../helpers/mock-model/openai-responses.ts';
import { CODEX_BIN, GEMINI_BIN, agentUnavailable, hookbox, runCodex, runGemini, writeCodexHome, writeGeminiHome } from '../helpers/real-agents.ts';

const RUN_TIMEOUT = 300_000;
const claude = probeClaude();
const codexMissing = agentUnavailable(CODEX_BIN, '0.169.0');
const geminiMissing = agentUnavailable(GEMINI_BIN, '0.61.0');
const NO_ENV = 'no-env: writes to .env files are not allowed';

describe('file edits reach write_file guards in the real agents', () => {
  const suite = useRealAgentSuite('hookbox-edits-suite-');

  it.skipIf(!claude.ok)(`Claude Code: Edit of .env (after reading it) is denied; MultiEdit is no tool of 2.1.328${claude.ok ? '' : ` (skipped, because ${claude.reason})`}`, { timeout: RUN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-edits-cc-');
    const env = join(ws.project, '.env');
    writeFileSync(env, 'DEBUG=old\n');
    const setup = await hookbox(['setup', 'claude-code', '--project', ws.project, '--config', suite.config, '--socket', suite.server.socket], { HOME: ws.home });
    expect(setup.status, setup.stderr).toBe(0);
    const mock = await suite.open(
      startAnthropicMock([
        { toolUses: [{ name: 'Read', input: { file_path: env } }] },
        { toolUses: [{ name: 'Edit', input: { file_path: env, old_string: 'DEBUG=old', new_string: 'DEBUG=stolen' } }] },
        { toolUses: [{ name: 'MultiEdit', input: { file_path: env, edits: [{ old_string: 'DEBUG=old', new_string: 'DEBUG=multi' }] } }] },
        { text: 'done' },
      ]),
    );
    const run = await runClaude({ project: ws.project, home: ws.home, mock, prompt: 'rotate the token', allowedTools: 'Read Edit MultiEdit' });
    expect(run.result, run.stderr).toBeDefined();
    expect(readFileSync(env, 'utf8')).toBe('DEBUG=old\n');
    const shown = mock.shown();
    expect(shown, 'the Read ran (Claude Code requires it before an Edit)').toContain('DEBUG=old');
    expect(shown, 'the Edit was denied by the write_file guard').toContain(NO_ENV);
    // 2.1.328 offers no MultiEdit (the census lists its tools): Claude Code refuses that call itself, before any
    // hook, and the file stays as it was (asserted above); the MultiEdit mapping is checked by the unit tables.
    expect(suite.server.log()).toMatch(/claude-code .*PreToolUse.*deny/);
  });

  it.skipIf(codexMissing !== undefined)(`Codex: a patch whose .env header is indented, and one sent as a shell heredoc, are denied${codexMissing === undefined ? '' : ` (skipped, because ${codexMissing})`}`, { timeout: RUN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-edits-codex-');
    const mock = await suite.open(startResponsesMock([
      { toolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: notes.md\n+hello\n\t  *** Add File: .env\n+TOKEN=1\n*** End Patch\n' }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: prod.env\n+TOKEN=2\n*** End Patch\nPATCH" } }] },
      { text: 'done' },
    ]));
    writeCodexHome(ws.home, mock.url);
    const setup = await hookbox(['setup', 'codex', '--project', ws.project, '--config', suite.config, '--socket', suite.server.socket], { CODEX_HOME: ws.home, HOME: ws.home });
    expect(setup.status, setup.stderr).toBe(0);
    writeFileSync(join(ws.home, 'config.toml'), `${readFileSync(join(ws.home, 'config.toml'), 'utf8')}\n[projects.${JSON.stringify(ws.project)}]\ntrust_level = "trusted"\n`);
    const run = await runCodex(ws.home, ws.project, 'add the notes');
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(ws.project, '.env')), 'the indented header wrote .env').toBe(false);
    expect(existsSync(join(ws.project, 'notes.md'))).toBe(false);
    expect(existsSync(join(ws.project, 'prod.env')), 'the heredoc patch wrote prod.env').toBe(false);
    const outputs = functionCallOutputs(mock.turns.at(-1)!);
    expect(outputs[0]).toContain(NO_ENV);
    expect(outputs[1]).toContain(NO_ENV);
  });

  it.skipIf(geminiMissing !== undefined)(`Gemini CLI: replace in prod.env is denied${geminiMissing === undefined ? '' : ` (skipped, because ${geminiMissing})`}`, { timeout: RUN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-edits-gemini-');
    const env = join(ws.project, 'prod.env');
    writeFileSync(env, 'TOKEN=old\n');
    const mock = await suite.open(startGeminiMock([
      { toolCalls: [{ name: 'replace', arguments: { file_path: env, instruction: 'rotate the token', old_string: 'TOKEN=old', new_string: 'TOKEN=new' } }] },
      { text: 'done' },
    ]));
    writeGeminiHome(ws.home);
    const setup = await hookbox(['setup', 'gemini', '--project', ws.project, '--config', suite.config, '--socket', suite.server.socket], { GEMINI_CLI_HOME: ws.home, HOME: ws.home });
    expect(setup.status, setup.stderr).toBe(0);
    writeFileSync(join(ws.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws.project]: 'TRUST_FOLDER' }));
    const result = await runGemini(ws.home, ws.project, mock.url, 'rotate the token');
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(env, 'utf8')).toBe('TOKEN=old\n');
    expect(JSON.stringify(functionResponses(mock.turns.at(-1)!))).toContain(NO_ENV);
  });
});
