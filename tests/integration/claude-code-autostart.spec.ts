/**
 * The default setup with no hand-started server (issue #55), in the real
 * Claude Code against the mock model: the first event starts `hookbox serve`
 * for the project, and a hook that keeps state across events (test-gate: a
 * failed test run recorded in Var at PostToolUse, read at Stop) keeps it —
 * the turn is forced on once — with one server started for the session.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { DEMO_HOOK_CONFIG } from '../../host/cli/demo/scenario.ts';
import { claudeWorkspace, probeClaude, runClaude, writeProject } from '../helpers/claude-code.ts';
import { runWithStdin } from '../helpers/command-hook.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { MockAnthropic, type MockReply } from '../helpers/mock-anthropic.ts';
import { skipUnless } from '../helpers/skips.ts';

const probe = probeClaude();
const HOOKBOX = new URL('../../host/cli/hookbox.mjs', import.meta.url).pathname;
const bash = (command: string): MockReply => ({ text: `Running ${command.split(' ')[0]}.`, toolUses: [{ name: 'Bash', input: { command, description: 'step' } }] });

describe.skipIf(skipUnless('Claude Code, default setup, the server starting itself (real binary)', probe.ok ? undefined : probe.reason, { required: '@anthropic-ai/claude-code' }))(
  'Claude Code with the default setup and no hand-started server',
  () => {
    it('the first event starts one server, and test-gate keeps its state across events through it', { timeout: 300_000 }, async () => {
      const { project, home } = claudeWorkspace('hookbox-cc-autostart-');
      writeProject(project);
      const config = join(project, 'hookbox.config.json');
      writeFileSync(config, `${JSON.stringify({ hooks: [{ name: 'test-gate', manifest: exampleManifest('test-gate'), config: DEMO_HOOK_CONFIG['test-gate'], timeoutMs: 5000 }] }, null, 2)}\n`);
      setupCommand('claude-code', { project, config }, () => {});
      const socket = join(project, '.hookbox', 'run', 'serve.sock');
      const mock = new MockAnthropic();
      await mock.start();
      try {
        mock.script([
          // The first tool call waits (bounded) for the server the first events started, so the state-keeping events below are its.
          bash('for i in $(seq 240); do [ -S .hookbox/run/serve.sock ] && break; sleep 0.5; done; ls .hookbox/run'),
          bash('npm test --silent'),
          { text: 'All done.' },
          bash("echo 'module.exports = (a, b) => a + b;' > add.js && npm test --silent"),
          { text: 'Fixed, the tests pass.' },
        ]);
        const run = await runClaude({ project, home, mock, prompt: 'Fix the tests.', timeoutMs: 240_000, autostart: true });
        expect(run.result, run.stderr).toBeDefined();
        // test-gate's record (PostToolUse) reached its Stop decision: the turn was forced on once, then allowed to end.
        expect(mock.shown().includes('test-gate: the last test run in this turn failed'), 'the continuation reason reached the model').toBe(true);
        expect(run.result?.result).toBe('Fixed, the tests pass.');
        const log = readFileSync(join(project, '.hookbox', 'run', 'serve.log'), 'utf8');
        expect(log.match(/listening on/g), log).toHaveLength(1);
        expect(log, 'the server decided the Stop events').toMatch(/claude-code \S+ Stop /);
        expect(existsSync(socket)).toBe(true);
      } finally {
        await mock.close();
        await runWithStdin([HOOKBOX, 'serve', '--stop', '--config', config], '');
      }
    });
  },
);
