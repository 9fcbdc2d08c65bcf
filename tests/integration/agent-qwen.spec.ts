/**
 * hookbox inside the real Qwen Code (`@qwen-code/qwen-code` 0.24.4, installed
 * from the registry at test time; headless `qwen -p --yolo`) against a mock chat-completions model on
 * loopback: set up by `hookbox setup qwen --project` (the sh client), decided
 * by `hookbox serve`. What the model was shown is read from the mock's next
 * request.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace } from '../helpers/agent-project.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { chatMessages, contentText, startChatMock, toolResults } from '../helpers/mock-model/openai-chat.ts';
import type { StepSource } from '../helpers/mock-model/script.ts';
import { installedAgent } from '../helpers/agent-install.ts';
import { agentUnavailable, hookbox, runQwen } from '../helpers/real-agents.ts';
import { serveRewriteHooks } from '../helpers/rewrite-hooks.ts';
import { skipUnless } from '../helpers/skips.ts';
import { type CommandProjectOptions, commandAgentCases } from './command-agent.case.ts';

// Not a devDependency: its clipboard dependency's optional per-platform packages are served here for linux-x64 only, so npm ci would refuse the lockfile.
const install = installedAgent('@qwen-code/qwen-code@0.24.4', 'qwen');
const unavailable = install.kind === 'installed' ? agentUnavailable(install.bin, '0.24.4') : install.reason;
const QWEN = install.kind === 'installed' ? install.bin : '';
const RUN_TIMEOUT = 300_000;
const TITLE = 'hookbox inside the real Qwen Code';

const shell = (command: string): StepSource => ({ toolCalls: [{ name: 'run_shell_command', arguments: { command } }] });

describe.skipIf(skipUnless(TITLE, unavailable))(`${TITLE}${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`, () => {
  const suite = useRealAgentSuite('hookbox-qwen-suite-');

  async function project(script: readonly StepSource[] | ((projectDir: string) => readonly StepSource[]), options: CommandProjectOptions = {}) {
    const ws = agentWorkspace('hookbox-qwen-');
    const mock = await suite.open(startChatMock(typeof script === 'function' ? script(ws.project) : script));
    const env = { HOME: ws.home };
    const setup = await hookbox(['setup', 'qwen', '--project', ws.project, '--config', options.config ?? suite.config, '--socket', options.socket ?? suite.server.socket], env);
    expect(setup.status, setup.stderr).toBe(0);
    return { ...ws, mock, env };
  }

  commandAgentCases(
    {
      agent: 'qwen',
      cases: {
        guardBash: {},
        promptGuard: {},
        redactor: { kind: 'withheld', shows: /a hookbox hook replaced this tool output/ },
        testGate: {},
        trap: true,
        doctor: {},
      },
      project,
      run: (p, prompt) => runQwen(QWEN, p.home, p.project, p.mock.url, prompt),
      shell,
      say: (text) => ({ text }),
      turns: (p) => p.mock.turns.length,
      toolResults: (p, turn) => toolResults(p.mock.turns[turn]!),
      userMessage: (p, turn) => contentText(chatMessages(p.mock.turns[turn]!).filter((message) => message.role === 'user').at(-1)?.content),
      modelSaw: (p) => p.mock.requests.map((request) => request.text).join('\n'),
      denied: (reason) => new RegExp(reason),
    },
    suite,
    RUN_TIMEOUT,
  );

  it('setup writes .qwen/settings.json with a timeout in seconds above the client\'s deadline', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([]);
    const settings = JSON.parse(readFileSync(join(p.project, '.qwen', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> };
    const [handler] = settings.hooks.PreToolUse![0]!.hooks;
    // The default client: native where npm run build made it, else sh.
    expect(handler!.command).toMatch(/(hookbox-hook\.sh|native\/[\w-]+\/hookbox-hook)["']? '?qwen'? /);
    const deadlineMs = Number(/--deadline-ms'? '?(\d+)/.exec(handler!.command)![1]);
    expect(handler!.timeout).toBeLessThan(1000); // seconds, as Qwen 0.24.4 reads values below 1000
    expect(handler!.timeout * 1000).toBeGreaterThan(deadlineMs);
  });

  it('a wasm rewriter turning `echo A > out.txt` into `echo B > out.txt`: Qwen ignores updatedInput (measured), so the call is denied with the reason and never runs', { timeout: RUN_TIMEOUT }, async () => {
    const { config, server } = await serveRewriteHooks(join(suite.root, 'rewrite'));
    try {
      const p = await project([shell('echo A > out.txt'), { text: 'ok' }], { config, socket: server.socket });
      const result = await runQwen(QWEN, p.home, p.project, p.mock.url, 'write the file');
      expect(result.status, result.stderr).toBe(0);
      expect(existsSync(join(p.project, 'out.txt')), 'the call ran unrewritten').toBe(false);
      expect(toolResults(p.mock.turns[1]!)[0]).toMatch(/could not be applied in Qwen Code \(run_shell_command: Qwen Code 0\.24\.4 ignores a hook's updatedInput/);
    } finally {
      await server.stop();
    }
  });
});
