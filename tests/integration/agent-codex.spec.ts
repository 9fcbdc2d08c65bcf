/**
 * hookbox inside the real Codex CLI (`@openai/codex` 0.169.0, headless
 * `codex exec`) against a mock OpenAI Responses API on loopback: set up by
 * `hookbox setup codex --project`, hooks trusted the way Codex records
 * trust (no `--dangerously-bypass-hook-trust`), decided by `hookbox serve`
 * through `hookbox hook codex`.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, GITHUB_TOKEN, installHookboxInProject } from '../helpers/agent-project.ts';
import { writeRewriteConfig } from '../helpers/rewrite-hooks.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { functionCallOutputs, responsesInput, startResponsesMock } from '../helpers/mock-model/openai-responses.ts';
import type { StepSource } from '../helpers/mock-model/script.ts';
import { CODEX_BIN, agentUnavailable, hookbox, runCodex, writeCodexHome } from '../helpers/real-agents.ts';
import { skipUnless } from '../helpers/skips.ts';
import { lifecycleCalls, serveLifecycleHook } from '../helpers/lifecycle-hook.ts';
import { type CommandProjectOptions, commandAgentCases } from './command-agent.case.ts';

const unavailable = agentUnavailable(CODEX_BIN, '0.169.0');
const RUN_TIMEOUT = 300_000;

describe.skipIf(skipUnless('hookbox inside the real Codex CLI', unavailable, { required: '@openai/codex' }))(`hookbox inside the real Codex CLI${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`, () => {
  const suite = useRealAgentSuite('hookbox-codex-suite-');

  /** A project set up by `hookbox setup codex`, trusted (the one step setup leaves to the user), with its own mock model. */
  async function project(script: readonly StepSource[] | ((projectDir: string) => readonly StepSource[]), options: CommandProjectOptions = {}) {
    const ws = agentWorkspace('hookbox-codex-');
    const mock = await startResponsesMock(typeof script === 'function' ? script(ws.project) : script);
    suite.mocks.push(mock);
    writeCodexHome(ws.home, mock.url);
    const env = { CODEX_HOME: ws.home, HOME: ws.home };
    let where = ['--config', options.config ?? suite.config, '--socket', options.socket ?? suite.server.socket];
    // Portable: hookbox installed in the project, its config inside it, the default socket.
    if (options.portable === true) where = installHookboxInProject(ws.project, options.config ?? suite.config);
    const setup = await hookbox(['setup', 'codex', '--project', ws.project, ...where], env);
    expect(setup.status, setup.stderr).toBe(0);
    expect(setup.stdout).toContain('trusted_hash sha256:');
    expect(setup.stdout).toContain('trust_level = "trusted"');
    appendFileSync(join(ws.home, 'config.toml'), `\n[projects.${JSON.stringify(ws.project)}]\ntrust_level = "trusted"\n`);
    return { ...ws, mock, env };
  }

  commandAgentCases(
    {
      agent: 'codex',
      cases: {
        promptGuard: { status: 0, silent: true },
        redactor: { kind: 'replaced' },
        // The exit code echoed: Codex's exec_command output carries none of its own for test-gate to read.
        testGate: { command: (command) => `${command}; echo "exit code: $?"`, steering: /hook_prompt.*test-gate/ },
        trap: true,
        portable: { settingsFile: '.codex/hooks.json' },
        doctor: {
          breaks: [
            {
              what: 'an entry is no longer trusted',
              breaks: (p) => {
                const toml = join(p.home, 'config.toml');
                const trusted = readFileSync(toml, 'utf8');
                writeFileSync(toml, trusted.replace(/\[hooks\.state\."[^"]*pre_tool_use[^"]*"\]\ntrusted_hash = "[^"]*"\n/, ''));
                return () => writeFileSync(toml, trusted);
              },
              shows: [/FAIL Codex hook .*pre_tool_use:0:0 is not trusted/, /fix: hookbox setup codex --project/],
            },
            {
              what: 'an entry is removed',
              breaks: (p) => {
                const hooksFile = join(p.project, '.codex', 'hooks.json');
                const hooks = JSON.parse(readFileSync(hooksFile, 'utf8')) as { hooks: Record<string, unknown> };
                delete hooks.hooks.PreToolUse;
                writeFileSync(hooksFile, JSON.stringify(hooks));
              },
              shows: [/FAIL .*lacks hookbox's entries for PreToolUse/, /fix: hookbox setup codex --project/],
            },
          ],
        },
      },
      project,
      run: (p, prompt) => runCodex(p.home, p.project, prompt),
      shell: (cmd) => ({ toolCalls: [{ name: 'exec_command', arguments: { cmd } }] }),
      say: (text) => ({ text }),
      turns: (p) => p.mock.turns.length,
      toolResults: (p, turn) => functionCallOutputs(p.mock.turns[turn]!),
      userMessage: (p, turn) => JSON.stringify(responsesInput(p.mock.turns[turn]!).filter((item) => item.role === 'user').at(-1)?.content),
      modelSaw: (p) => p.mock.requests.map((request) => request.text).join('\n'),
      denied: (reason) => new RegExp(`^Command blocked by PreToolUse hook: .*${reason}`),
    },
    suite,
    RUN_TIMEOUT,
  );

  it('self-protection denies an apply_patch deleting .codex/hooks.json (the hooks stay); guard-bash denies rm -rf of the workspace (it survives); a patch adding .env reaches a hook as a write to .env and is denied', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project((dir) => [
      { toolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Delete File: .codex/hooks.json\n*** End Patch\n' }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `rm -rf ${dir}` } }] },
      { toolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: notes.md\n+hello\n*** Add File: .env\n+TOKEN=1\n*** End Patch\n' }] },
      { text: 'done' },
    ]);
    writeFileSync(join(p.project, 'victim.txt'), 'keep me');
    const run = await runCodex(p.home, p.project, 'clean up the workspace');
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(p.project, 'victim.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(p.project, '.env'))).toBe(false);
    expect(existsSync(join(p.project, 'notes.md'))).toBe(false);
    expect(readFileSync(join(p.project, '.codex', 'hooks.json'), 'utf8')).toContain('hookbox');
    const outputs = functionCallOutputs(p.mock.turns.at(-1)!);
    expect(outputs[0]).toMatch(/^Command blocked by PreToolUse hook: hookbox self-protection: write_file denied because it writes .*\.codex\/hooks\.json/);
    expect(outputs[1]).toMatch(/^Command blocked by PreToolUse hook: guard-bash: recursive-delete/);
    expect(outputs[2]).toMatch(/^Command blocked by PreToolUse hook: no-env: writes to \.env files are not allowed/);
    expect(suite.server.log()).toMatch(/codex .*PreToolUse.*deny/);
  });

  it('catalog policies decide in-process (portable, no server): protected-paths denies a patch adding .env.local and rm .env, command-rules denies terraform destroy, secrets denies a patch writing a token; a patch adding notes.md runs', { timeout: RUN_TIMEOUT }, async () => {
    const config = join(agentWorkspace('hookbox-codex-policies-').root, 'hookbox.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        hooks: [
          { name: 'protect', policy: 'protected-paths', config: { paths: ['.env', '.env.*'] }, timeoutMs: 5000 },
          { name: 'commands', policy: 'command-rules', config: { rules: [{ command: 'terraform destroy', action: 'deny', reason: 'CI only' }] }, timeoutMs: 5000 },
          { name: 'secrets', policy: 'secrets', timeoutMs: 5000 },
        ],
      }),
    );
    const p = await project(
      [
        { toolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: .env.local\n+TOKEN=stolen\n*** End Patch\n' }] },
        { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'rm .env' } }] },
        { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'sudo terraform destroy -auto-approve' } }] },
        { toolCalls: [{ name: 'apply_patch', input: `*** Begin Patch\n*** Add File: config.js\n+module.exports = { token: '${GITHUB_TOKEN}' };\n*** End Patch\n` }] },
        { toolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: notes.md\n+hello\n*** End Patch\n' }] },
        { text: 'done' },
      ],
      { config, portable: true },
    );
    writeFileSync(join(p.project, '.env'), 'TOKEN=keep\n');
    const run = await runCodex(p.home, p.project, 'tidy up');
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(p.project, '.env'), 'utf8')).toBe('TOKEN=keep\n');
    expect(existsSync(join(p.project, '.env.local'))).toBe(false);
    expect(existsSync(join(p.project, 'config.js'))).toBe(false);
    expect(readFileSync(join(p.project, 'notes.md'), 'utf8')).toBe('hello\n');
    const outputs = functionCallOutputs(p.mock.turns.at(-1)!);
    expect(outputs[0]).toMatch(/^Command blocked by PreToolUse hook: protected-paths: write: write_file writes "\.env\.local", protected by "\.env\.\*"/);
    expect(outputs[1]).toMatch(/^Command blocked by PreToolUse hook: protected-paths: delete: bash deletes "\.env"/);
    expect(outputs[2]).toMatch(/^Command blocked by PreToolUse hook: command-rules: deny: rules\[0\] \(terraform destroy\) matches "terraform destroy -auto-approve": CI only/);
    expect(outputs[3]).toMatch(/^Command blocked by PreToolUse hook: secrets: write-secret: write_file would write a secret \(1 github-token\) into "config\.js"/);
  });

  it('git-guards decides in-process: a force push of main is denied (the remote never gets main), a push of a feature branch runs (the remote has it)', { timeout: RUN_TIMEOUT }, async () => {
    const config = join(agentWorkspace('hookbox-codex-git-').root, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'git', policy: 'git-guards', timeoutMs: 5000 }] }));
    const p = await project(
      [
        { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'git push --force origin main' } }] },
        { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'git push origin HEAD:refs/heads/feature/x' } }] },
        { text: 'done' },
      ],
      { config, portable: true },
    );
    // A repository with one commit on main and an empty bare remote beside it.
    const remote = join(p.root, 'remote.git');
    const git = (args: string[], cwd = p.project) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
    git(['init', '-q', '--bare', remote], p.root);
    git(['init', '-q', '-b', 'main']);
    writeFileSync(join(p.project, 'README.md'), 'hello\n');
    git(['add', 'README.md']);
    git(['commit', '-q', '-m', 'first']);
    git(['remote', 'add', 'origin', remote]);
    const run = await runCodex(p.home, p.project, 'publish the work');
    expect(run.status, run.stderr).toBe(0);
    const refs = git(['for-each-ref', '--format=%(refname)'], remote).trim().split('\n');
    expect(refs).toEqual(['refs/heads/feature/x']);
    const outputs = functionCallOutputs(p.mock.turns.at(-1)!);
    expect(outputs[0]).toMatch(/^Command blocked by PreToolUse hook: git-guards: force-push: git push --force rewrites the remote branch/);
    expect(outputs[1]).not.toMatch(/blocked/);
  });

  it('a wasm rewriter turns exec_command `echo A > out.txt` into `echo B > out.txt` (updatedInput; the file holds B, the model reads the note); an apply_patch whose content it rewrites is denied with the reason', { timeout: RUN_TIMEOUT }, async () => {
    const root = agentWorkspace('hookbox-codex-rewrite-').root;
    const config = await writeRewriteConfig(join(root, 'rewrite'));
    const p = await project(
      [
        { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo A > out.txt' } }] },
        { toolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: notes.md\n+echo A again\n*** End Patch\n' }] },
        { text: 'done' },
      ],
      { config, portable: true },
    );
    const run = await runCodex(p.home, p.project, 'write the file');
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(p.project, 'out.txt'), 'utf8'), 'the rewritten command ran').toBe('B\n');
    expect(existsSync(join(p.project, 'notes.md')), 'the denied patch did not run').toBe(false);
    const outputs = functionCallOutputs(p.mock.turns.at(-1)!);
    expect(outputs[1]).toMatch(/^Command blocked by PreToolUse hook: a hookbox hook rewrote this call and the rewrite could not be applied in Codex \(apply_patch: /);
    expect(JSON.stringify(p.mock.turns.at(-1))).toContain('[hookbox: this call was rewritten by a hook before it ran');
  });

  it('lifecycle seams: a wasm hook blocking PreCompact stops the auto-compaction (Codex makes no summary request; the run ends, exit 1)', { timeout: RUN_TIMEOUT }, async () => {
    const { config, server } = await serveLifecycleHook(join(suite.root, 'lifecycle'), {
      'agent/pre-compact': { action: 'block', reason: 'COMPACTION-REFUSED-MARKER' },
    });
    try {
      const p = await project([{ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo hi' } }] }, { text: 'summary' }, { text: 'done' }], { config, socket: server.socket });
      // Every response of the mock reports 15 tokens: over this limit, Codex compacts after the first one (measured).
      const file = join(p.home, 'config.toml');
      writeFileSync(file, `model_auto_compact_token_limit = 12\n${readFileSync(file, 'utf8')}`);
      const run = await runCodex(p.home, p.project, 'say hi');
      const asked = p.mock.turns.map((turn) => turn.text);
      expect(asked.some((text) => text.includes('CONTEXT CHECKPOINT COMPACTION')), 'Codex compacted despite the block').toBe(false);
      // `continue: false` ends the run (exit 1; `codex exec --json` prints no stopReason), before SessionEnd.
      expect(run.status).toBe(1);
      expect(server.log()).toMatch(/codex \S+ PreCompact block/);
      expect(lifecycleCalls(p.project).map((call) => call.seam)).toContain('agent/pre-compact');
    } finally {
      await server.stop();
    }
  });
});
