/**
 * hookbox inside the real Codex CLI (`@openai/codex` 0.169.0, headless
 * `codex exec`) against a mock OpenAI Responses API on loopback: set up by
 * `hookbox setup codex --project`, hooks trusted the way Codex records
 * trust (no `--dangerously-bypass-hook-trust`), decided by `hookbox serve`
 * through `hookbox hook codex`.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { AWS_KEY, GITHUB_TOKEN, agentWorkspace, installHookboxInProject, writeTestScript } from '../helpers/agent-project.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { projectSessionLogs } from '../helpers/session-logs.ts';
import { functionCallOutputs, responsesInput, startResponsesMock } from '../helpers/mock-model/openai-responses.ts';
import type { StepSource } from '../helpers/mock-model/script.ts';
import { CODEX_BIN, agentUnavailable, hookbox, runCodex, writeCodexHome } from '../helpers/real-agents.ts';
import { skipUnless } from '../helpers/skips.ts';
import { lifecycleCalls, serveLifecycleHook } from '../helpers/lifecycle-hook.ts';

const unavailable = agentUnavailable(CODEX_BIN, '0.169.0');
const RUN_TIMEOUT = 300_000;

describe.skipIf(skipUnless('hookbox inside the real Codex CLI', unavailable, { required: '@openai/codex' }))(`hookbox inside the real Codex CLI${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`, () => {
  const suite = useRealAgentSuite('hookbox-codex-suite-');

  /** A project set up by `hookbox setup codex`, trusted (the one step setup leaves to the user), with its own mock model. */
  async function project(script: readonly StepSource[] | ((projectDir: string) => StepSource[]), options: { config?: string; socket?: string; portable?: boolean } = {}) {
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

  it('a wasm rewriter turns exec_command `echo A > out.txt` into `echo B > out.txt` (updatedInput; the file holds B, the model reads the note); an apply_patch whose content it rewrites is denied with the reason', { timeout: RUN_TIMEOUT }, async () => {
    const root = agentWorkspace('hookbox-codex-rewrite-').root;
    await buildHook({ entry: fileURLToPath(new URL('../pdk/fixtures/rewrite/rewriter.ts', import.meta.url)), outFile: join(root, 'rewriter', 'hook.wasm') });
    const config = join(root, 'hookbox.config.json');
    const hook = { name: 'a-to-b', manifest: join(root, 'rewriter', 'hook.json'), config: { mode: 'replace', from: 'echo A', to: 'echo B' }, timeoutMs: 5000 };
    writeFileSync(config, JSON.stringify({ hooks: [hook] }));
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

  it('prompt-guard blocks a prompt holding an AWS key: the model is never called', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([{ text: 'should not be reached' }]);
    const run = await runCodex(p.home, p.project, `deploy with ${AWS_KEY} please`);
    expect(run.status, run.stderr).toBe(0);
    expect(p.mock.requests).toHaveLength(0);
    expect(run.stdout).not.toContain('should not be reached');
  });

  it('secret-redactor: the model receives the redacted output in place of the real one (Codex replaces it with a blocking PostToolUse reason)', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([{ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'cat secrets.txt' } }] }, { text: 'read it' }]);
    writeFileSync(join(p.project, 'secrets.txt'), `GITHUB_TOKEN=${GITHUB_TOKEN}\n`);
    const run = await runCodex(p.home, p.project, 'show me the secrets file');
    expect(run.status, run.stderr).toBe(0);
    expect(p.mock.turns).toHaveLength(2);
    const [output] = functionCallOutputs(p.mock.turns[1]!);
    expect(output).toContain('[REDACTED:github-token]');
    for (const request of p.mock.requests) expect(request.text).not.toContain(GITHUB_TOKEN);
    // The session log and the report say what the model received: one replaced result, the token nowhere on disk.
    const logs = projectSessionLogs(p.project);
    expect(logs.replaced).toBe(1);
    expect(logs.text).toContain('[REDACTED:github-token]');
    expect(logs.text).not.toContain(GITHUB_TOKEN);
  });

  it('test-gate keeps the turn going while the test fails, and lets it stop once it passes', { timeout: RUN_TIMEOUT }, async () => {
    const test = 'sh test.sh; echo "exit code: $?"';
    const p = await project([
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: test } }] },
      { text: 'I think it is done' },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `touch fixed; ${test}` } }] },
      { text: 'fixed and green' },
    ]);
    writeTestScript(p.project);
    const run = await runCodex(p.home, p.project, 'make the tests pass');
    expect(run.status, run.stderr).toBe(0);
    expect(p.mock.turns).toHaveLength(4);
    const steering = responsesInput(p.mock.turns[2]!).filter((item) => item.role === 'user').map((item) => JSON.stringify(item.content));
    expect(steering.at(-1)).toMatch(/hook_prompt.*test-gate/);
    expect(existsSync(join(p.project, 'fixed'))).toBe(true);
  });

  it('a hook that traps fails closed: the command is denied and never runs', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([{ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch ran.txt' } }] }, { text: 'ok' }], {
      config: suite.trapConfig,
      socket: suite.trapServer.socket,
    });
    const run = await runCodex(p.home, p.project, 'touch a file');
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(p.project, 'ran.txt'))).toBe(false);
    const [output] = functionCallOutputs(p.mock.turns[1]!);
    expect(output).toMatch(/^Command blocked by PreToolUse hook: .*trap/);
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

  it('portable settings (hookbox in the project\'s node_modules): the hook command names no machine path, and codex runs it — guard-bash denies a wipe, decided in-process', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project((dir) => [{ toolCalls: [{ name: 'exec_command', arguments: { cmd: `rm -rf ${dir}` } }] }, { text: 'done' }], { portable: true });
    const settings = readFileSync(join(p.project, '.codex/hooks.json'), 'utf8');
    for (const machinePath of [process.execPath, PACKAGE_ROOT, p.project, p.home]) expect(settings, machinePath).not.toContain(machinePath);
    writeFileSync(join(p.project, 'victim.txt'), 'keep me');
    const run = await runCodex(p.home, p.project, 'clean up');
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(p.project, 'victim.txt'), 'utf8')).toBe('keep me');
    expect(functionCallOutputs(p.mock.turns.at(-1)!)[0]).toMatch(/^Command blocked by PreToolUse hook: guard-bash: recursive-delete/);
  });

  it('hookbox doctor codex is green on the set-up project, red with the fix when an entry is removed or no longer trusted', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([]);
    const green = await hookbox(['doctor', 'codex', '--project', p.project], p.env);
    expect(green.stdout).toContain('codex: ok');
    expect(green.status, green.stdout).toBe(0);

    const toml = join(p.home, 'config.toml');
    const trusted = readFileSync(toml, 'utf8');
    writeFileSync(toml, trusted.replace(/\[hooks\.state\."[^"]*pre_tool_use[^"]*"\]\ntrusted_hash = "[^"]*"\n/, ''));
    const untrusted = await hookbox(['doctor', 'codex', '--project', p.project], p.env);
    expect(untrusted.status).toBe(1);
    expect(untrusted.stdout).toMatch(/FAIL Codex hook .*pre_tool_use:0:0 is not trusted/);
    expect(untrusted.stdout).toContain('fix: hookbox setup codex --project');
    writeFileSync(toml, trusted);

    const hooksFile = join(p.project, '.codex', 'hooks.json');
    const hooks = JSON.parse(readFileSync(hooksFile, 'utf8')) as { hooks: Record<string, unknown> };
    delete hooks.hooks.PreToolUse;
    writeFileSync(hooksFile, JSON.stringify(hooks));
    const missing = await hookbox(['doctor', 'codex', '--project', p.project], p.env);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(/FAIL .*lacks hookbox's entries for PreToolUse/);
    expect(missing.stdout).toContain('fix: hookbox setup codex --project');
  });
});
