/**
 * The README's `serve` line in a project made the README's way, with the
 * real Claude Code (headless, against the mock model): a hook that
 * remembers a prompt's consent (Var state, `ctx.state`) lets a later
 * lockfile write run — only a server that keeps the session's hook instance
 * between events can, since a client deciding in-process starts each event
 * fresh. The server's request lines and the session log show the events
 * went to it.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { claudeWorkspace, probeClaude, runClaude } from '../helpers/claude-code.ts';
import { startAnthropicMock, useMock } from '../helpers/mock-model/lifecycle.ts';
import { HOOKBOX_BIN, runAsync } from '../helpers/real-agents.ts';
import { type ServeProcess, startServe } from '../helpers/serve-process.ts';
import { projectSessionLogs } from '../helpers/session-logs.ts';
import { skipUnless } from '../helpers/skips.ts';

const RUN_TIMEOUT = 300_000;
const CONSENT = 'I consent to lockfile changes';

/** The hook: a prompt saying CONSENT is remembered for the session; a bash write to package-lock.json is denied without it. */
const CONSENT_HOOK = `import { defineHook, deny } from 'hookbox/pdk/index.ts';

export default defineHook({
  promptSubmit(payload, ctx) {
    if (payload.content.includes(${JSON.stringify(CONSENT)})) ctx.state.set('consent', 'yes');
  },
  preTool(payload, ctx) {
    if (payload.toolName !== 'bash') return;
    const command = String((payload.arguments as { command?: unknown }).command ?? '');
    if (command.includes('package-lock.json') && ctx.state.get('consent') !== 'yes') return deny('consent-gate: no consent to lockfile changes in this session');
  },
});
`;

const probe = probeClaude();
const TITLE = probe.ok ? `Claude Code ${probe.version} with the README's serve line: a hook keeps its state across events` : `the README's serve line with Claude Code — skipped, because ${probe.reason}`;

describe.skipIf(skipUnless("the README's serve line with Claude Code", probe.ok ? undefined : probe.reason, { required: '@anthropic-ai/claude-code' }))(TITLE, () => {
  const mock = useMock(() => startAnthropicMock());
  let server: ServeProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('consent given in the prompt is remembered by the server and allows the later lockfile write; the server logged every event', { timeout: RUN_TIMEOUT }, async () => {
    const { project, home } = claudeWorkspace('hookbox-cc-serve-line-');
    const env = { ...process.env, HOME: home, HOOKBOX_HOME: join(home, '.hookbox') };
    const run = async (args: string[]) => {
      const result = await runAsync(process.execPath, [HOOKBOX_BIN, ...args], { cwd: project, env, timeoutMs: 180_000 });
      expect(result.status, `hookbox ${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    // The README's path: hookbox installed in the project, a hook built from its source, the config, setup.
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'hookbox'));
    mkdirSync(join(project, 'hooks', 'consent'), { recursive: true });
    writeFileSync(join(project, 'hooks', 'consent', 'hook.ts'), CONSENT_HOOK);
    await run(['build', 'hooks/consent/hook.ts']);
    writeFileSync(join(project, 'hookbox.config.json'), '{ "hooks": [{ "name": "consent", "manifest": "hooks/consent/dist/hook.json" }] }\n');
    await run(['setup', 'claude-code', '--config', 'hookbox.config.json']);
    // The README's line, as written (`npx hookbox` is this bin).
    server = await startServe(['serve', '--config', 'hookbox.config.json'], project, env);

    mock().script([{ text: 'Updating it.', toolUses: [{ name: 'Bash', input: { command: 'echo {} > package-lock.json', description: 'lockfile' } }] }, { text: 'Done.' }]);
    const claude = await runClaude({ project, home, mock: mock(), prompt: `${CONSENT}: refresh the lockfile.`, timeoutMs: RUN_TIMEOUT - 60_000 });
    expect(claude.result, claude.stderr).toBeDefined();
    expect(mock().everything().includes('consent-gate'), 'the hook denied the consented write: the consent it remembered was lost').toBe(false);
    expect(existsSync(join(project, 'package-lock.json')), `the consented write was refused: ${JSON.stringify(claude.result?.permission_denials)}`).toBe(true);
    // The events went to the server: its request lines, and the session log it wrote.
    const lines = server.log();
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'PostToolUse']) expect(lines, event).toMatch(new RegExp(`claude-code.*${event}`));
    const logs = projectSessionLogs(project);
    expect(logs.text).toContain(CONSENT);
    expect(logs.text).toContain('package-lock.json');
  });
});
