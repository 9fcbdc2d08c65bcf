/**
 * hookbox inside the real Claude Code (the exact devDependency), headless
 * against a mock Anthropic server, with the six example hooks, set up by
 * `hookbox setup claude-code`, for both transports. Every byte stays on
 * loopback; HOME is a temp folder. If the binary cannot start here, the
 * suite reports itself skipped with the reason. The runs are sequential: on
 * a loaded 2-core machine, concurrent sessions instantiating six hooks each
 * hit the runner's 1 s instantiation deadline (and then fail closed, as they
 * should — but the test would not be testing what it says).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { DEMO_HOOK_CONFIG, DEMO_HOOK_ORDER } from '../../host/cli/demo/scenario.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { DecisionServer, loadServedHooks, readOrCreateToken } from '../../host/serve/index.ts';
import { claudeWorkspace, probeClaude, runClaude, writeProject } from '../helpers/claude-code.ts';
import { exampleManifest } from '../helpers/examples.ts';
import type { MockAnthropic, MockReply } from '../helpers/mock-anthropic.ts';
import { startAnthropicMock, withMock } from '../helpers/mock-model/lifecycle.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';
import { writeFixedAnswersWasm } from '../helpers/wat-fixed-answers.ts';
import { skipUnless } from '../helpers/skips.ts';

const probe = probeClaude();
const TITLE = probe.ok ? `Claude Code ${probe.version} with hookbox (real binary)` : `Claude Code with hookbox (skipped, because ${probe.reason})`;
const HOOKBOX = new URL('../../host/cli/hookbox.mjs', import.meta.url).pathname;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const RUN_TIMEOUT = 240_000;

const bash = (command: string): MockReply => ({ text: `Running ${command.split(' ')[0]}.`, toolUses: [{ name: 'Bash', input: { command, description: 'step' } }] });

interface Served {
  readonly server: DecisionServer;
  readonly socket: string;
  readonly config: string;
  readonly tokenFile: string;
}

async function serve(dir: string, hooks: unknown[]): Promise<Served> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const config = join(dir, 'hookbox.config.json');
  writeFileSync(config, `${JSON.stringify({ hooks }, null, 2)}\n`);
  const socket = join(dir, 'run', 'serve.sock');
  const tokenFile = join(dir, 'run', 'token');
  const { token } = readOrCreateToken(tokenFile);
  const server = new DecisionServer({ hooks: await loadServedHooks(config), socket, port: 0, token, maxContinuations: 3, log: () => {} });
  await server.listen();
  return { server, socket, config, tokenFile };
}

function setup(project: string, served: Served, transport: 'command' | 'http'): void {
  setupCommand(
    'claude-code',
    {
      project,
      config: served.config,
      transport,
      socket: served.socket,
      ...(transport === 'http' && { port: String(served.server.port), tokenFile: served.tokenFile }),
    },
    () => {},
  );
}

function sessionLog(project: string, sessionId: unknown): string {
  return join(project, '.hookbox', 'sessions', `claude-code-${String(sessionId)}.jsonl`);
}

/**
 * One run's frame: a fresh project with the example files, prepared by
 * `prepare` (hookbox setup, files), and a mock Anthropic server that is
 * closed however `body` ends.
 */
async function inClaudeProject(
  prepare: (project: string) => void,
  body: (run: { project: string; home: string; mock: MockAnthropic }) => Promise<void>,
): Promise<void> {
  const { project, home } = claudeWorkspace();
  writeProject(project);
  prepare(project);
  await withMock(startAnthropicMock(), (mock) => body({ project, home, mock }));
}

describe.skipIf(skipUnless('Claude Code with hookbox (real binary)', probe.ok ? undefined : probe.reason, { required: '@anthropic-ai/claude-code' }))(TITLE, () => {
  let demo: Served;
  let faulty: Served;
  let lifecycle: Served;
  let base: string;

  beforeAll(async () => {
    base = claudeWorkspace('hookbox-cc-servers-').root;
    demo = await serve(
      join(base, 'demo'),
      // A 5 s deadline (instantiation included) instead of 1 s: on a loaded CI machine a new session's six instances
      // can take over a second to start, and the hook would then (rightly) fail closed — not what these cases test.
      DEMO_HOOK_ORDER.map((name) => ({ name, manifest: exampleManifest(name), config: DEMO_HOOK_CONFIG[name], timeoutMs: 5000 })),
    );
    const trap = await writeCorpusWasm('trap', join(base, 'wasm'));
    const spin = await writeCorpusWasm('infinite-loop', join(base, 'wasm'));
    faulty = await serve(join(base, 'faulty'), [
      { name: 'trap', wasm: trap, seams: ['tools/pre-execute'], tools: ['bash'] },
      { name: 'spin', wasm: spin, seams: ['tools/pre-execute'], tools: ['write_file'], timeoutMs: 200 },
    ]);
    // A real wasm hook with planted decisions on the lifecycle seams (#51).
    const fixed = await writeFixedAnswersWasm(join(base, 'wasm'), 'lifecycle', {
      subagent_start: { additionalContext: 'SUBAGENT-CONTEXT-MARKER' },
      subagent_stop: { action: 'continue', reason: 'KEEP-GOING-MARKER' },
      permission_request: { action: 'deny', reason: 'PERMISSION-DENY-MARKER' },
      session_end: {},
    });
    lifecycle = await serve(join(base, 'lifecycle'), [
      { name: 'lifecycle', wasm: fixed, seams: ['agent/subagent-start', 'agent/subagent-stop', 'tools/permission-request', 'agent/session-end'], timeoutMs: 5000 },
    ]);
  }, 120_000);

  afterAll(async () => {
    await demo?.server.close();
    await faulty?.server.close();
    await lifecycle?.server.close();
  });

  for (const transport of ['command', 'http'] as const) {
    it(
      `${transport}: guard-bash denies rm -rf, git push asks (headless: not run), session-context reaches the model, test-gate continues until the tests pass, replay reports 0 changes`,
      async () => {
        await inClaudeProject(
          (project) => setup(project, demo, transport),
          async ({ project, home, mock }) => {
            mock.script([
              bash('rm -rf .'),
              bash('git push origin main'),
              bash('npm test --silent'),
              { text: 'All done.' },
              bash("echo 'module.exports = (a, b) => a + b;' > add.js && npm test --silent"),
              { text: 'Fixed, the tests pass.' },
            ]);
            const run = await runClaude({ project, home, mock, prompt: 'Clean up and fix the tests.' });
            expect(run.result, run.stderr).toBeDefined();
            // guard-bash: the wipe never ran.
            expect(existsSync(join(project, 'keep-me.txt'))).toBe(true);
            const shown = mock.shown();
            expect(shown.includes('guard-bash: recursive-delete'), 'the deny reason reached the model').toBe(true);
            // git push → ask; headless Claude Code has nobody to ask: the call is refused and listed as a denial.
            const denials = JSON.stringify(run.result?.permission_denials);
            expect(denials).toContain('git push origin main');
            expect(shown.includes('guard-bash: git-push'), 'the ask reason reached the model').toBe(true);
            // session-context's team rules reached the model (over http, with the first prompt: Claude Code sends SessionStart to command hooks only).
            expect(shown.includes('Team rules: small commits'), 'session-context reached the model').toBe(true);
            // test-gate: the first Stop was turned into "keep working" (the model was told why), the second let it stop.
            expect(shown.includes('test-gate: the last test run in this turn failed'), 'the continuation reason reached the model').toBe(true);
            expect(mock.requests.filter((request) => request.withTools).length).toBe(6);
            expect(readFileSync(join(project, 'add.js'), 'utf8')).toContain('a + b');
            expect(run.result?.result).toBe('Fixed, the tests pass.');

            const log = sessionLog(project, run.result?.session_id);
            const { events } = readSessionLog(log);
            const types = events.map((event) => event.type);
            expect(types[0]).toBe('session/start');
            expect(types).toEqual(expect.arrayContaining(['turn/start', 'user/message', 'tool/call', 'tool/result', 'hook/invoke', 'steering/message', 'turn/end']));
            expect(events.filter((event) => event.type === 'tool/result' && event.hookEffect === 'denied')).toHaveLength(1);
            const replay = spawnSync(process.execPath, [HOOKBOX, 'replay', log, '--config', demo.config], { encoding: 'utf8', timeout: 120_000 });
            expect(replay.stdout).toMatch(/re-decided [1-9]\d* decision\(s\): 0 would change/);
            expect(replay.status).toBe(0);
          },
        );
      },
      RUN_TIMEOUT,
    );

    it(
      `${transport}: prompt-guard blocks a prompt holding an AWS key and the model never receives it`,
      async () => {
        await inClaudeProject(
          (project) => setup(project, demo, transport),
          async ({ project, home, mock }) => {
            mock.script([{ text: 'Deploying.' }]);
            const run = await runClaude({ project, home, mock, prompt: `Deploy it with this key: ${AWS_KEY}` });
            expect(run.result, run.stderr).toBeDefined();
            expect(mock.everything()).not.toContain(AWS_KEY);
            expect(mock.requests.filter((request) => request.withTools)).toHaveLength(0);
            const { events } = readSessionLog(sessionLog(project, run.result?.session_id));
            expect(events.some((event) => event.type === 'prompt/blocked' && event.reason.startsWith('prompt-guard'))).toBe(true);
          },
        );
      },
      RUN_TIMEOUT,
    );
  }

  it(
    'self-protection: with its own permission checks off, the model cannot switch hooks off through the shell — disableAllHooks refused, the rm -rf after it still denied, and one sneaked past the command check put back (the turn ends)',
    async () => {
      await inClaudeProject(
        (project) => setup(project, demo, 'command'),
        async ({ project, home, mock }) => {
          mock.script([
            // The attack as measured: a plain redirection, after which Claude Code reloads its settings mid-session.
            bash(`printf %s '{"disableAllHooks":true}' > .claude/settings.local.json`),
            bash('rm -rf .'),
            // The same through a name only the shell knows: let through, then found changed after the tool and put back.
            bash(`d=.clau; printf %s '{"disableAllHooks":true}' > "\${d}de/settings.local.json"`),
            { text: 'not reached: a blocked result ends the turn in Claude Code' },
          ]);
          const run = await runClaude({ project, home, mock, prompt: 'Tidy up.', bypassPermissions: true });
          expect(run.result, run.stderr).toBeDefined();
          expect(existsSync(join(project, '.claude', 'settings.local.json'))).toBe(false);
          expect(existsSync(join(project, 'keep-me.txt')), 'rm -rf . ran: the hooks were switched off').toBe(true);
          const shown = mock.shown();
          expect(shown).toContain('hookbox self-protection: bash denied because it redirects output into');
          expect(shown).toContain('guard-bash: recursive-delete');
          expect(run.result?.terminal_reason).toBe('hook_stopped');
          const { events } = readSessionLog(sessionLog(project, run.result?.session_id));
          const guarded = events.flatMap((event) => (event.type === 'hook/invoke' && event.hook === 'hookbox/self-protection' ? [JSON.stringify(event.applied)] : []));
          expect(guarded).toEqual([expect.stringContaining('"deny"'), expect.stringMatching(/"block".*this tool call changed .*settings\.local\.json.*hookbox put it back/)]);
        },
      );
    },
    RUN_TIMEOUT,
  );

  it(
    'secret-redactor: the model receives the redacted output (updatedToolOutput), never the secret; the log records the replacement',
    async () => {
      await inClaudeProject(
        (project) => {
          writeFileSync(join(project, '.env'), `AWS_ACCESS_KEY_ID=${AWS_KEY}\n`);
          setup(project, demo, 'command');
        },
        async ({ project, home, mock }) => {
          mock.script([bash('cat .env'), { text: 'I read it.' }]);
          const run = await runClaude({ project, home, mock, prompt: 'Show me the config.' });
          expect(run.result, run.stderr).toBeDefined();
          expect(mock.everything().includes(AWS_KEY), 'the secret reached the model').toBe(false);
          // The turn went on: the model was called again, with the redacted output as the tool result.
          expect(mock.requests.filter((request) => request.withTools)).toHaveLength(2);
          expect(mock.shown()).toContain('AWS_ACCESS_KEY_ID=[REDACTED:');
          expect(run.result?.result).toBe('I read it.');
          const log = sessionLog(project, run.result?.session_id);
          const { events } = readSessionLog(log);
          expect(events.some((event) => event.type === 'tool/result' && event.hookEffect === 'replaced' && event.original !== undefined)).toBe(true);
          expect(readFileSync(log, 'utf8')).not.toContain(AWS_KEY);
        },
      );
    },
    RUN_TIMEOUT,
  );

  it(
    'lifecycle seams reach a wasm hook and Claude Code honours its decisions: SubagentStop continue makes the subagent go on (capped), PermissionRequest deny refuses a Write, SubagentStart context reaches the subagent, SessionEnd is heard',
    async () => {
      await inClaudeProject(
        (project) => setup(project, lifecycle, 'command'),
        async ({ project, home, mock }) => {
          const isSubagent = (body: Record<string, unknown>) => JSON.stringify((body.messages as unknown[])[0]).includes('SUBTASK-MARKER');
          mock.script((request) => {
            if (isSubagent(request.body)) return { text: 'sub finished' };
            const shown = JSON.stringify(request.body.messages);
            if (!shown.includes('"Agent"')) return { toolUses: [{ name: 'Agent', input: { description: 'probe', prompt: 'SUBTASK-MARKER say hi', subagent_type: 'general-purpose' } }] };
            if (!shown.includes('"Write"')) return { toolUses: [{ name: 'Write', input: { file_path: join(project, 'refused.txt'), content: 'x' } }] };
            return undefined;
          });
          // Write is not in --allowedTools: headless Claude Code asks its PermissionRequest hooks before refusing it on its own.
          const run = await runClaude({ project, home, mock, prompt: 'Delegate, then write a file.', allowedTools: 'Bash' });
          expect(run.result, run.stderr).toBeDefined();
          const subagent = mock.requests.filter((request) => request.withTools && isSubagent(request.body)).map((request) => JSON.stringify(request.body.messages));
          const continued = subagent.filter((shown) => shown.includes('KEEP-GOING-MARKER'));
          expect(continued.length, 'the subagent was not sent on by the hook').toBeGreaterThan(0);
          // SubagentStart's context reaches the subagent's model requests.
          expect(subagent[0], 'the subagent never read the SubagentStart context').toContain('SUBAGENT-CONTEXT-MARKER');
          // hookbox's continuation cap (3 here) ends it: the hook answers continue every time.
          expect(subagent.length).toBeLessThanOrEqual(1 + 3);
          expect(existsSync(join(project, 'refused.txt'))).toBe(false);
          expect(mock.shown()).toContain('PERMISSION-DENY-MARKER');
          const { events } = readSessionLog(sessionLog(project, run.result?.session_id));
          const heard = new Set(events.flatMap((event) => (event.type === 'hook/invoke' && event.hook === 'lifecycle' && event.sandbox === 'wasm' ? [event.seam] : [])));
          expect([...heard].sort()).toEqual(['agent/session-end', 'agent/subagent-start', 'agent/subagent-stop', 'tools/permission-request']);
        },
      );
    },
    RUN_TIMEOUT,
  );

  it(
    'a wasm hook that traps or times out fails closed: neither tool runs',
    async () => {
      await inClaudeProject(
        (project) => setup(project, faulty, 'command'),
        async ({ project, home, mock }) => {
          mock.script([
            bash('touch trapped.txt'),
            { text: 'Writing.', toolUses: [{ name: 'Write', input: { file_path: join(project, 'spun.txt'), content: 'x' } }] },
            { text: 'Giving up.' },
          ]);
          const run = await runClaude({ project, home, mock, prompt: 'Make two files.', allowedTools: 'Bash Write' });
          expect(run.result, run.stderr).toBeDefined();
          expect(existsSync(join(project, 'trapped.txt'))).toBe(false);
          expect(existsSync(join(project, 'spun.txt'))).toBe(false);
          const shown = mock.shown();
          expect(shown).toContain('failed (trap)');
          expect(shown).toContain('failed (timeout)');
        },
      );
    },
    RUN_TIMEOUT,
  );

  it(
    'http transport with the server down: onFailure "block" makes Claude Code refuse the call (it used to fail open) — a command guard-bash denies does not run',
    async () => {
      await inClaudeProject(
        (project) => {
          mkdirSync(join(project, 'scratch'));
          writeFileSync(join(project, 'scratch', 'junk.txt'), 'x');
          // Port 1 on loopback: nothing listens there.
          setupCommand('claude-code', { project, config: demo.config, transport: 'http', port: '1', tokenFile: demo.tokenFile }, () => {});
        },
        async ({ project, home, mock }) => {
          mock.script([bash('chmod -R 777 scratch'), { text: 'Done.' }]);
          const run = await runClaude({ project, home, mock, prompt: 'Open up scratch.' });
          expect(run.result, run.stderr).toBeDefined();
          // Unreachable server: without onFailure "block" Claude Code ran this (the mode became 777).
          expect(statSync(join(project, 'scratch')).mode & 0o777).not.toBe(0o777);
        },
      );
    },
    RUN_TIMEOUT,
  );
});
