/**
 * hookbox inside the real Gemini CLI (`@google/gemini-cli` 0.61.0, headless
 * `gemini -p`) against a mock Gemini API (`streamGenerateContent` SSE) on
 * loopback: set up by `hookbox setup gemini --project`, decided by
 * `hookbox serve` through `hookbox hook gemini`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, installHookboxInProject } from '../helpers/agent-project.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { functionResponses, geminiContents, startGeminiMock } from '../helpers/mock-model/gemini.ts';
import type { StepSource } from '../helpers/mock-model/script.ts';
import { GEMINI_BIN, agentUnavailable, hookbox, runGemini, writeGeminiHome } from '../helpers/real-agents.ts';
import { projectSessionLogs } from '../helpers/session-logs.ts';
import { skipUnless } from '../helpers/skips.ts';
import { lifecycleCalls, serveLifecycleHook } from '../helpers/lifecycle-hook.ts';
import { commandAgentCases, type CommandProjectOptions } from './command-agent.case.ts';
import { REWRITE_NOTE, serveRewriteHooks, UNAPPLIED } from '../helpers/rewrite-hooks.ts';

const unavailable = agentUnavailable(GEMINI_BIN, '0.61.0');
const RUN_TIMEOUT = 300_000;

describe.skipIf(skipUnless('hookbox inside the real Gemini CLI', unavailable, { required: '@google/gemini-cli' }))(`hookbox inside the real Gemini CLI${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`, () => {
  const suite = useRealAgentSuite('hookbox-gemini-suite-');

  /** A project set up by `hookbox setup gemini`, its folder trusted (the one step setup leaves to the user), with its own mock model. */
  async function project(script: readonly StepSource[] | ((projectDir: string) => readonly StepSource[]), options: CommandProjectOptions = {}) {
    const ws = agentWorkspace('hookbox-gemini-');
    const mock = await startGeminiMock(typeof script === 'function' ? script(ws.project) : script);
    suite.mocks.push(mock);
    writeGeminiHome(ws.home);
    const env = { GEMINI_CLI_HOME: ws.home, HOME: ws.home };
    let where = ['--config', options.config ?? suite.config, '--socket', options.socket ?? suite.server.socket];
    // Portable: hookbox installed in the project, its config inside it, the default socket.
    if (options.portable === true) where = installHookboxInProject(ws.project, options.config ?? suite.config);
    const setup = await hookbox(['setup', 'gemini', '--project', ws.project, ...where], env);
    expect(setup.status, setup.stderr).toBe(0);
    expect(setup.stdout).toMatch(/added hooks\.BeforeTool\[0\]: .*\(timeout \d+ ms\)/);
    expect(setup.stdout).toContain('TRUST_FOLDER');
    writeFileSync(join(ws.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws.project]: 'TRUST_FOLDER' }));
    return { ...ws, mock, env };
  }

  const run = (p: Awaited<ReturnType<typeof project>>, prompt: string) => runGemini(p.home, p.project, p.mock.url, prompt);

  commandAgentCases(
    {
      agent: 'gemini',
      cases: {
        promptGuard: { silent: true },
        redactor: { kind: 'replaced' },
        testGate: {},
        trap: true,
        portable: { settingsFile: '.gemini/settings.json' },
        doctor: {
          breaks: [
            {
              what: 'the folder is untrusted',
              breaks: (p) => {
                const trustFile = join(p.home, '.gemini', 'trustedFolders.json');
                writeFileSync(trustFile, '{}');
                return () => writeFileSync(trustFile, JSON.stringify({ [p.project]: 'TRUST_FOLDER' }));
              },
              shows: [/FAIL folder .* is not trusted/, /TRUST_FOLDER/],
            },
            {
              what: 'an entry is removed',
              breaks: (p) => {
                const settingsFile = join(p.project, '.gemini', 'settings.json');
                const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks: Record<string, unknown> };
                delete settings.hooks.BeforeTool;
                writeFileSync(settingsFile, JSON.stringify(settings));
              },
              shows: [/FAIL .*lacks hookbox's entries for BeforeTool/, /fix: hookbox setup gemini --project/],
            },
          ],
        },
      },
      project,
      run,
      shell: (command) => ({ toolCalls: [{ name: 'run_shell_command', arguments: { command } }] }),
      say: (text) => ({ text }),
      turns: (p) => p.mock.turns.length,
      toolResults: (p, turn) => functionResponses(p.mock.turns[turn]!).map((response) => JSON.stringify(response)),
      userMessage: (p, turn) => JSON.stringify(geminiContents(p.mock.turns[turn]!).filter((content) => content.role === 'user').at(-1)?.parts),
      modelSaw: (p) => p.mock.requests.map((request) => request.text).join('\n'),
      denied: (reason) => new RegExp(`Tool execution blocked: .*${reason}`),
    },
    suite,
    RUN_TIMEOUT,
  );

  it('self-protection denies write_file to .gemini/settings.json (the hooks stay); guard-bash denies rm -rf of the workspace (it survives); write_file to prod.env reaches a hook as a write_file and is denied', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project((dir) => [
      { toolCalls: [{ name: 'write_file', arguments: { file_path: join(dir, '.gemini', 'settings.json'), content: '{}' } }] },
      { toolCalls: [{ name: 'run_shell_command', arguments: { command: `rm -rf ${dir}` } }] },
      { toolCalls: [{ name: 'write_file', arguments: { file_path: join(dir, 'prod.env'), content: 'TOKEN=1\n' } }] },
      { text: 'done' },
    ]);
    writeFileSync(join(p.project, 'victim.txt'), 'keep me');
    const result = await run(p, 'clean up the workspace');
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(p.project, 'victim.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(p.project, 'prod.env'))).toBe(false);
    expect(readFileSync(join(p.project, '.gemini', 'settings.json'), 'utf8')).toContain('hookbox');
    const responses = functionResponses(p.mock.turns.at(-1)!).map((response) => JSON.stringify(response));
    expect(responses[0]).toMatch(/"error":"Tool execution blocked: hookbox self-protection: write_file denied because it writes .*\.gemini\/settings\.json/);
    expect(responses[1]).toMatch(/"error":"Tool execution blocked: guard-bash: recursive-delete/);
    expect(responses[2]).toMatch(/"error":"Tool execution blocked: no-env: writes to \.env files are not allowed/);
  });

  it('lifecycle seams: /compress fires PreCompress (advisory: Gemini compresses whatever a hook says) and the session end fires SessionEnd (reason exit), both reaching a wasm hook', { timeout: RUN_TIMEOUT }, async () => {
    const { config, server } = await serveLifecycleHook(join(suite.root, 'lifecycle'), { 'agent/pre-compact': { action: 'allow' }, 'agent/session-end': {} });
    try {
      const p = await project([{ text: 'done' }], { config, socket: server.socket });
      const compressed = await run(p, '/compress');
      expect(compressed.status, compressed.stderr).toBe(0);
      const seams = lifecycleCalls(p.project).map((call) => call.seam);
      expect(seams).toContain('agent/pre-compact');
      expect(seams).toContain('agent/session-end');
      expect(server.log()).toMatch(/gemini .*SessionEnd/);
    } finally {
      await server.stop();
    }
  });
  it('a rewriting hook: echo A > out.txt runs as echo B > out.txt (tool_input merged over the call), and the model reads the one note with its result; an edit whose new text a hook rewrites is denied, the model reads why', { timeout: RUN_TIMEOUT }, async () => {
    const { config, server } = await serveRewriteHooks(join(suite.root, 'rewrite'));
    try {
      const p = await project(
        (dir) => [
          { toolCalls: [{ name: 'run_shell_command', arguments: { command: 'echo A > out.txt', description: 'write A' } }] },
          { toolCalls: [{ name: 'replace', arguments: { file_path: join(dir, 'notes.txt'), instruction: 'rewrite the note', old_string: 'old', new_string: 'AAA' } }] },
          { text: 'done' },
        ],
        { config, socket: server.socket },
      );
      writeFileSync(join(p.project, 'notes.txt'), 'old\n');
      const result = await run(p, 'write A, then edit the notes');
      expect(result.status, result.stderr).toBe(0);
      expect(readFileSync(join(p.project, 'out.txt'), 'utf8')).toBe('B\n');
      expect(readFileSync(join(p.project, 'notes.txt'), 'utf8')).toBe('old\n');
      const responses = functionResponses(p.mock.turns.at(-1)!).map((response) => JSON.stringify(response));
      // The model's next request carries the one note with the rewritten call's result (AfterTool additionalContext,
      // which Gemini wraps in <hook_context>, escaping `>` inside it).
      expect(responses[0]).toContain(`<hook_context>${JSON.stringify(REWRITE_NOTE.replaceAll('>', '&gt;')).slice(1, -1)}</hook_context>`);
      expect(responses[1]).toContain(`Tool execution blocked: ${UNAPPLIED} Gemini CLI`);
      expect(responses[1]).toContain('takes old and new strings');
      const logs = projectSessionLogs(p.project);
      expect(logs.text).toContain('"type":"tool/rewrite"');
    } finally {
      await server.stop();
    }
  });

});
