/**
 * Failure paths of the command transport in the real Claude Code (the exact
 * devDependency, headless against the mock model): a hook that runs to its
 * own deadline must not turn into fail-open — on post-tool the secret stays
 * withheld, on pre-tool with no server the command does not run — and two
 * projects, each with its own server, each get their own decisions. These
 * runs wait for 30 s hook deadlines on purpose: the client's and Claude
 * Code's deadlines must outlast them (a shorter hook would not tell the old
 * fixed 25 s / 30 s deadlines from derived ones).
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { shellWords } from '../../host/cli/doctor.ts';
import { DecisionServer, loadServedHooks } from '../../host/serve/index.ts';
import { claudeWorkspace, probeClaude, runClaude, writeProject } from '../helpers/claude-code.ts';
import { exampleManifest } from '../helpers/examples.ts';
import type { MockReply } from '../helpers/mock-anthropic.ts';
import { startAnthropicMock, useMock } from '../helpers/mock-model/lifecycle.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

const probe = probeClaude();
const TITLE = probe.ok ? `Claude Code ${probe.version}: hookbox fails closed on every path (real binary)` : `Claude Code fail-closed paths (skipped, because ${probe.reason})`;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const RUN_TIMEOUT = 300_000;
const bash = (command: string): MockReply => ({ text: `Running ${command.split(' ')[0]}.`, toolUses: [{ name: 'Bash', input: { command, description: 'step' } }] });

function writeConfig(dir: string, hooks: unknown[]): string {
  const file = join(dir, 'hookbox.config.json');
  writeFileSync(file, `${JSON.stringify({ hooks }, null, 2)}\n`);
  return file;
}

/** The socket the settings' hook command names, resolved as the client resolves it (from the project). */
function settingsSocket(project: string): string {
  const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  const words = shellWords(settings.hooks.PreToolUse!.at(-1)!.hooks[0]!.command);
  return resolve(project, words[words.indexOf('--socket') + 1]!);
}

describe.skipIf(!probe.ok)(TITLE, () => {
  const mock = useMock(() => startAnthropicMock());
  let spin: string;
  const servers: DecisionServer[] = [];
  const savedHome = process.env.HOOKBOX_HOME;

  beforeAll(async () => {
    // Whatever setup falls back to must stay inside the test's folders.
    process.env.HOOKBOX_HOME = join(claudeWorkspace('hookbox-cc-home-').root, 'hookbox');
    spin = await writeCorpusWasm('infinite-loop', join(claudeWorkspace('hookbox-cc-wasm-').root, 'wasm'));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    if (savedHome === undefined) delete process.env.HOOKBOX_HOME;
    else process.env.HOOKBOX_HOME = savedHome;
  });

  async function serveAt(socket: string, config: string, lines: string[] = []): Promise<string[]> {
    mkdirSync(join(socket, '..'), { recursive: true, mode: 0o700 });
    const server = new DecisionServer({ hooks: await loadServedHooks(config), socket, log: (line) => lines.push(line) });
    await server.listen();
    servers.push(server);
    return lines;
  }

  // First, while no server of this file runs anywhere.
  it(
    'pre-tool, no server: a hook running to its 30 s deadline, then deny-all — the command is denied and its target never created',
    async () => {
      const { project, home } = claudeWorkspace();
      writeProject(project);
      const config = writeConfig(project, [
        { name: 'slow', wasm: spin, seams: ['tools/pre-execute'], timeoutMs: 30_000 },
        { name: 'deny-all', permissions: { deny: ['Bash'], root: '.' } },
      ]);
      setupCommand('claude-code', { project, config, transport: 'command' }, () => {});
      expect(existsSync(settingsSocket(project))).toBe(false);
      mock().script([bash('touch target.txt'), { text: 'Done.' }]);
      const run = await runClaude({ project, home, mock: mock(), prompt: 'Make the file.', timeoutMs: RUN_TIMEOUT - 20_000 });
      expect(run.result, run.stderr).toBeDefined();
      expect(existsSync(join(project, 'target.txt')), 'the denied command ran').toBe(false);
    },
    RUN_TIMEOUT,
  );

  it(
    'post-tool, server up: secret-redactor and a hook running to its 30 s deadline — the output is withheld, the key never reaches the model',
    async () => {
      const { project, home } = claudeWorkspace();
      writeProject(project);
      writeFileSync(join(project, '.env'), `AWS_ACCESS_KEY_ID=${AWS_KEY}\n`);
      const config = writeConfig(project, [
        { name: 'secret-redactor', manifest: exampleManifest('secret-redactor'), timeoutMs: 5000 },
        { name: 'slow', wasm: spin, seams: ['tools/post-execute'], timeoutMs: 30_000 },
      ]);
      setupCommand('claude-code', { project, config, transport: 'command' }, () => {});
      await serveAt(settingsSocket(project), config);
      mock().script([bash('cat .env'), { text: 'I read it.' }]);
      const run = await runClaude({ project, home, mock: mock(), prompt: 'Show me the config.', timeoutMs: RUN_TIMEOUT - 20_000 });
      expect(run.result, run.stderr).toBeDefined();
      expect(mock().everything().includes(AWS_KEY), 'the secret reached the model').toBe(false);
      expect(run.result?.terminal_reason).toBe('hook_stopped');
    },
    RUN_TIMEOUT,
  );

  it(
    'portable settings: with hookbox in the project\'s node_modules, settings.json names no machine path, and the command decides (guard-bash denies a wipe)',
    async () => {
      const { project, home } = claudeWorkspace();
      writeProject(project);
      // The project's own install of hookbox: a link to this checkout, as `npm i -D <path>` makes.
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(resolve(fileURLToPath(new URL('../..', import.meta.url))), join(project, 'node_modules', 'hookbox'));
      const config = writeConfig(project, [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }]);
      const out: string[] = [];
      setupCommand('claude-code', { project, config, transport: 'command' }, (text) => out.push(text));
      const text = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
      expect(text).toContain('sh \\"$CLAUDE_PROJECT_DIR/node_modules/hookbox/host/cli/hookbox-hook.sh\\" \'claude-code\'');
      for (const machinePath of [process.execPath, project, homedir(), tmpdir()]) expect(text, machinePath).not.toContain(machinePath);
      expect(out.join('')).not.toContain('is not installed');
      expect(readFileSync(join(project, '.gitignore'), 'utf8')).toContain('.hookbox/');
      mock().script([bash('rm -rf .'), { text: 'Done.' }]);
      const run = await runClaude({ project, home, mock: mock(), prompt: 'Clean up.' });
      expect(run.result, run.stderr).toBeDefined();
      expect(existsSync(join(project, 'keep-me.txt'))).toBe(true);
      expect(mock().shown()).toContain('guard-bash: recursive-delete');
    },
    RUN_TIMEOUT,
  );

  it(
    'two projects, one server each: each decides its own events (B denies every shell command, A does not)',
    async () => {
      const a = claudeWorkspace('hookbox-cc-a-');
      const b = claudeWorkspace('hookbox-cc-b-');
      writeProject(a.project);
      writeProject(b.project);
      const configA = writeConfig(a.project, [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }]);
      const configB = writeConfig(b.project, [{ name: 'deny-all', permissions: { deny: ['Bash'], root: '.' } }]);
      setupCommand('claude-code', { project: a.project, config: configA, transport: 'command' }, () => {});
      setupCommand('claude-code', { project: b.project, config: configB, transport: 'command' }, () => {});
      const linesA = await serveAt(settingsSocket(a.project), configA);
      const linesB = await serveAt(settingsSocket(b.project), configB);

      mock().script([bash('touch b.txt'), { text: 'Done.' }]);
      const runB = await runClaude({ project: b.project, home: b.home, mock: mock(), prompt: 'Make b.' });
      expect(runB.result, runB.stderr).toBeDefined();
      expect(existsSync(join(b.project, 'b.txt')), "B's deny-all was not applied").toBe(false);
      mock().script([bash('touch a.txt'), { text: 'Done.' }]);
      const runA = await runClaude({ project: a.project, home: a.home, mock: mock(), prompt: 'Make a.' });
      expect(runA.result, runA.stderr).toBeDefined();
      expect(existsSync(join(a.project, 'a.txt')), "A's command was decided by B's hooks").toBe(true);

      const sessionB = String(runB.result?.session_id);
      const sessionA = String(runA.result?.session_id);
      expect(linesB.some((line) => line.includes(` ${sessionB} PreToolUse deny `)), linesB.join('\n')).toBe(true);
      expect(linesA.some((line) => line.includes(sessionB)), "A's server decided B's events").toBe(false);
      expect(linesA.some((line) => line.includes(` ${sessionA} PreToolUse allow `)), linesA.join('\n')).toBe(true);
      expect(linesB.some((line) => line.includes(sessionA)), "B's server decided A's events").toBe(false);
    },
    RUN_TIMEOUT,
  );
});
