/**
 * hookbox inside the real Factory Droid (the `droid` binary of
 * `@factory/cli-linux-x64` 0.225.2, installed from the registry at test
 * time; headless `droid exec`) against a mock Anthropic API on loopback: set
 * up by `hookbox setup factory --project` (the sh client), decided by
 * `hookbox serve`. What the model was shown is read from the mock's requests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, AWS_KEY } from '../helpers/agent-project.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { installedAgent } from '../helpers/agent-install.ts';
import type { MockAnthropic, MockReply } from '../helpers/mock-anthropic.ts';
import { startAnthropicMock } from '../helpers/mock-model/lifecycle.ts';
import { agentUnavailable, hookbox, runFactory, writeFactoryHome } from '../helpers/real-agents.ts';
import { serveRewriteHooks } from '../helpers/rewrite-hooks.ts';
import { projectSessionLogs } from '../helpers/session-logs.ts';
import { skipUnless } from '../helpers/skips.ts';
import { type CommandProjectOptions, commandAgentCases } from './command-agent.case.ts';

// A per-platform binary package (no bin entry: the binary is its `main`), so installed at test time, not a devDependency.
const install = installedAgent('@factory/cli-linux-x64@0.225.2', '@factory/cli-linux-x64/bin/droid');
const unavailable = install.kind === 'installed' ? agentUnavailable(install.bin, '0.225.2') : install.reason;
const DROID = install.kind === 'installed' ? install.bin : '';
const RUN_TIMEOUT = 300_000;
const TITLE = 'hookbox inside the real Factory Droid';

const execute = (command: string): MockReply => ({ toolUses: [{ name: 'Execute', input: { command, summary: 'Run the next step' } }] });

/** The main-loop requests (those offering tools): Droid's model turns. */
const mainLoop = (mock: MockAnthropic) => mock.requests.filter((request) => request.withTools);

/** The text of every tool_result the model was sent in `request`. */
function toolResults(request: MockAnthropic['requests'][number] | undefined): string[] {
  const messages = (request?.body.messages ?? []) as { content?: unknown }[];
  return messages.flatMap((message) =>
    Array.isArray(message.content) ? (message.content as { type?: string; content?: unknown }[]).filter((block) => block.type === 'tool_result').map((block) => JSON.stringify(block.content)) : [],
  );
}

describe.skipIf(skipUnless(TITLE, unavailable))(`${TITLE}${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`, () => {
  const suite = useRealAgentSuite('hookbox-factory-suite-');

  async function project(script: readonly MockReply[] | ((projectDir: string) => readonly MockReply[]), options: CommandProjectOptions = {}) {
    const ws = agentWorkspace('hookbox-factory-');
    const mock = await suite.open(startAnthropicMock(typeof script === 'function' ? script(ws.project) : script));
    writeFactoryHome(ws.home, mock.url);
    const env = { HOME: ws.home };
    const setup = await hookbox(['setup', 'factory', '--project', ws.project, '--config', options.config ?? suite.config, '--socket', options.socket ?? suite.server.socket], env);
    expect(setup.status, setup.stderr).toBe(0);
    return { ...ws, mock, env };
  }

  const run = (p: Awaited<ReturnType<typeof project>>, prompt: string) => runFactory(DROID, p.home, p.project, prompt);

  commandAgentCases(
    {
      agent: 'factory',
      cases: { guardBash: {}, redactor: { kind: 'withheld' }, trap: true, doctor: {} },
      project,
      run,
      shell: execute,
      say: (text) => ({ text }),
      turns: (p) => mainLoop(p.mock).length,
      toolResults: (p, turn) => toolResults(mainLoop(p.mock)[turn]),
      modelSaw: (p) => p.mock.everything(),
      denied: (reason) => new RegExp(reason),
    },
    suite,
    RUN_TIMEOUT,
  );

  it('the documented limit: droid exec sends no UserPromptSubmit, so a prompt holding an AWS key is not decided (it reaches the model)', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([execute('true'), { text: 'done' }]);
    await run(p, `deploy with ${AWS_KEY} please`);
    const log = projectSessionLogs(p.project).text;
    expect(log).toContain('"seam":"tools/pre-execute"'); // the hooks did run in this session
    expect(log).not.toContain('"seam":"agent/prompt-submit"');
    expect(p.mock.everything()).toContain(AWS_KEY);
  });

  it('setup writes .factory/settings.json: the timeout in seconds above the client deadline', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([]);
    const settings = JSON.parse(readFileSync(join(p.project, '.factory', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> };
    const [handler] = settings.hooks.PreToolUse![0]!.hooks;
    expect(handler!.timeout * 1000).toBeGreaterThan(Number(/--deadline-ms'? '?(\d+)/.exec(handler!.command)![1]));
  });

  it('a wasm rewriter turns Execute `echo A > out.txt` into `echo B > out.txt` (updatedInput): the file holds B', { timeout: RUN_TIMEOUT }, async () => {
    const { config, server } = await serveRewriteHooks(join(suite.root, 'rewrite'));
    try {
      const p = await project([execute('echo A > out.txt'), { text: 'ok' }], { config, socket: server.socket });
      const result = await run(p, 'write the file');
      expect(result.status, result.stderr).toBe(0);
      expect(readFileSync(join(p.project, 'out.txt'), 'utf8'), 'the rewritten command ran').toBe('B\n');
    } finally {
      await server.stop();
    }
  });
});
