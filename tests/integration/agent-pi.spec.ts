/**
 * The real pi (`@mariozechner/pi-coding-agent` 0.73.1, headless `pi -p
 * --mode json`) against the mock chat-completions model on loopback: first
 * bare (the harness: pi's own tools, its provider from
 * `$PI_CODING_AGENT_DIR/models.json`, offline), then with hookbox's
 * extension as `hookbox setup pi --project` writes it, deciding through
 * `hookbox serve` (or, with no server, a `hookbox hook pi` process): the
 * plugin agents' shared cases (`plugin-agent.case.ts`), then pi's own.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PI_TOOLS } from '../../host/agents/pi/tools.ts';
import { agentWorkspace } from '../helpers/agent-project.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { advertisedToolNames } from '../helpers/mock-model/advertised-tools.ts';
import { startChatMock, toolResults } from '../helpers/mock-model/openai-chat.ts';
import type { MockModel } from '../helpers/mock-model/script.ts';
import { PI_BIN, agentUnavailable, runPi, writePiAgentDir } from '../helpers/real-agents.ts';
import { skipUnless } from '../helpers/skips.ts';
import { lifecycleCalls, serveLifecycleHook } from '../helpers/lifecycle-hook.ts';
import { wedgedServer } from '../helpers/wedged-server.ts';
import { pluginAgentCases } from './plugin-agent.case.ts';

const unavailable = agentUnavailable(PI_BIN, '0.73.1');
const RUN_TIMEOUT = 300_000;
const skipped = skipUnless('the real pi against the mock model', unavailable, { required: '@mariozechner/pi-coding-agent' });
const because = unavailable === undefined ? '' : ` — skipped, because ${unavailable}`;

describe.skipIf(skipped)(`the real pi against the mock model${because}`, () => {
  const mocks: MockModel[] = [];
  const roots: string[] = [];
  afterAll(async () => {
    await Promise.all(mocks.map((mock) => mock.close()));
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('runs a scripted bash call in the project, and the model receives its output next', { timeout: RUN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-pi-');
    roots.push(ws.root);
    const mock = await startChatMock([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo pi-ran > out.txt && echo wrote-it' } }] }, { text: 'finished' }]);
    mocks.push(mock);
    writePiAgentDir(ws.home, mock.url);
    const result = await runPi(ws.home, ws.project, 'write the file');
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(ws.project, 'out.txt'), 'utf8')).toBe('pi-ran\n');
    expect(mock.turns).toHaveLength(2);
    expect(toolResults(mock.turns[1]!)).toEqual(['wrote-it\n']);
    expect(advertisedToolNames('chat', mock.turns[0]!.body)).toEqual(expect.arrayContaining(['bash', 'read', 'write', 'edit']));
  });
});

describe.skipIf(skipped)(`hookbox inside the real pi${because}`, () => {
  const suite = useRealAgentSuite('hookbox-pi-suite-');
  const { project, run } = pluginAgentCases(
    {
      agent: 'pi',
      runCommand: 'pi -p',
      pluginFile: '.pi/extensions/hookbox.ts',
      pluginModule: 'pi/extension.mjs',
      toolCallEvent: 'tool_call',
      tools: PI_TOOLS,
      asides: false,
      writeModel: (ws, url) => writePiAgentDir(ws.home, url),
      // pi's bash takes no description.
      shell: (command) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] }),
      edit: (path, oldText, newText) => ({ toolCalls: [{ name: 'edit', arguments: { path, edits: [{ oldText, newText }] } }] }),
      run: (home, project, prompt) => runPi(home, project, prompt),
      // pi asks the model nothing at all, and says why on stderr.
      promptBlocked: (result, requests) => {
        expect(requests).toHaveLength(0);
        expect(result.stderr).toMatch(/hookbox blocked this prompt: .*prompt-guard/);
      },
    },
    suite,
    RUN_TIMEOUT,
  );

  it('an edit of prod.env reaches the no-env hook as a write_file and is denied; the file is untouched', { timeout: RUN_TIMEOUT }, async () => {
    const p = await project([{ toolCalls: [{ name: 'edit', arguments: { path: 'prod.env', edits: [{ oldText: 'A=1', newText: 'A=2' }] } }] }, { text: 'done' }]);
    writeFileSync(join(p.project, 'prod.env'), 'A=1\n');
    const result = await run(p, 'change A');
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(p.project, 'prod.env'), 'utf8')).toBe('A=1\n');
    expect(toolResults(p.turns()[1]!)[0]).toMatch(/no-env: writes to \.env files are not allowed/);
  });

  it('lifecycle: the session ends (pi -p quits) and session_shutdown reaches a wasm hook as agent/session-end', { timeout: RUN_TIMEOUT }, async () => {
    const { config, server } = await serveLifecycleHook(join(suite.root, 'lifecycle'), { 'agent/session-end': {} });
    try {
      const p = await project([{ text: 'hello' }], { config, socket: server.socket });
      const result = await run(p, 'say hi');
      expect(result.status, result.stderr).toBe(0);
      expect(lifecycleCalls(p.project)).toEqual([{ seam: 'agent/session-end', decision: {} }]);
    } finally {
      await server.stop();
    }
  });

  it('lifecycle: pi compacts past the threshold a project setting sets, and session_before_compact reaches a wasm hook as agent/pre-compact; its block cancels the compaction (no summary asked of the model), an allow lets it run', { timeout: RUN_TIMEOUT }, async () => {
    const compacting = async (name: string, decision: unknown) => {
      const { config, server } = await serveLifecycleHook(join(suite.root, name), { 'agent/pre-compact': decision });
      try {
        const p = await project([{ text: 'hello' }, { text: 'SUMMARY' }, { text: 'SUMMARY' }, { text: 'SUMMARY' }], { config, socket: server.socket });
        // pi compacts once the context passes contextWindow - reserveTokens: a reserve above any window makes every
        // response pass it; keeping 1 recent token leaves something to summarise.
        writeFileSync(join(p.project, '.pi', 'settings.json'), `${JSON.stringify({ compaction: { enabled: true, reserveTokens: 100_000_000, keepRecentTokens: 1 } })}\n`);
        // Two prompts: pi -p compacts after a turn without waiting (its exit races that compaction), but checks again
        // before the next prompt and waits for that one — so a compaction is decided before the second prompt is sent.
        const result = await runPi(p.home, p.project, ['say hi', 'and again']);
        expect(result.status, result.stderr).toBe(0);
        const calls = lifecycleCalls(p.project);
        expect(calls.length).toBeGreaterThan(0);
        for (const call of calls) expect(call).toEqual({ seam: 'agent/pre-compact', decision });
        return { result, requests: p.mock.requests.length };
      } finally {
        await server.stop();
      }
    };
    // Blocked: every compaction is cancelled, so the model is asked the two prompts and no summary.
    const blocked = await compacting('compact-block', { action: 'block', reason: 'lifecycle: keep the context' });
    expect(blocked.requests).toBe(2);
    expect(blocked.result.stderr).toMatch(/hookbox blocked this compaction: lifecycle: keep the context/);
    // Allowed: the summary the second prompt waits for is asked of the model too.
    const allowed = await compacting('compact-allow', { action: 'allow' });
    expect(allowed.requests).toBeGreaterThanOrEqual(3);
  });

  it('a server that never answers: the extension answers closed at its own deadline — the prompt is blocked, the model never called', { timeout: RUN_TIMEOUT }, async () => {
    const hung = await wedgedServer(join(suite.root, 'hung.sock'), () => true);
    try {
      const p = await project([{ text: 'should not be reached' }], { socket: hung.path });
      // The options line is the user's to edit: a short deadline keeps the test short.
      writeFileSync(p.pluginFile, readFileSync(p.pluginFile, 'utf8').replace(/"deadlineMs":\d+/, '"deadlineMs":3000'));
      const result = await run(p, 'hello');
      expect(hung.connections()).toBeGreaterThan(0);
      expect(p.mock.requests).toHaveLength(0);
      expect(result.stderr).toMatch(/hookbox blocked this prompt: hookbox: no decision within 3000 ms/);
    } finally {
      await hung.close();
    }
  });
});
