/**
 * Golden ACP transcripts: the official SDK's client spawns `hookbox acp` as a
 * child process and drives scripted sessions through real wasm example hooks.
 * Each transcript (what the client sent, every update and permission request
 * it received, every response) is normalised and compared with
 * `transcripts/<scenario>.json`; `npm run golden:acp` regenerates them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeExampleConfig } from '../../helpers/examples.ts';
import { type TestWorkspace, events, makeWorkspace } from '../../helpers/session.ts';
import { RENDERERS, render, words } from '../../helpers/markdown.ts';
import { type TranscriptEntry, expectGolden, normalise, runAcpAgent, updates } from './harness.ts';

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-acp-golden-');
});
afterEach(() => workspace.dispose());

function writeScript(steps: unknown[], file = 'script.json'): string {
  const path = join(workspace.dir, file);
  writeFileSync(path, JSON.stringify({ steps }));
  return path;
}

/** What a person reads of an update: its text content rendered as Markdown (as an editor does), whitespace folded. */
function shownText(update: unknown): string {
  const { content } = update as { content?: unknown };
  const blocks = Array.isArray(content) ? content.map((item) => (item as { content?: unknown }).content) : [content];
  return blocks
    .map((block) => (block as { text?: unknown } | undefined)?.text)
    .filter((text): text is string => typeof text === 'string')
    .map((text) => words(render(text, RENDERERS['markdown-it (html, linkify)']!).text))
    .join(' ');
}

function golden(name: string, transcript: readonly TranscriptEntry[], sessionIds: readonly string[]): void {
  const replacements: Record<string, string> = { [workspace.dir]: '<cwd>' };
  sessionIds.forEach((id, index) => {
    replacements[id] = `<session-${index + 1}>`;
  });
  expectGolden(name, { scenario: name, transcript: normalise(transcript, replacements) });
}

// GIT_DIR points nowhere, so even a workspace inside a real repository cannot push.
const PUSH = 'GIT_DIR=/nonexistent git push origin feature 2>/dev/null || echo "push skipped: no remote"';

describe('hookbox acp: golden transcripts through a child process', () => {
  it('a fully blocked prompt ends with stop reason cancelled, the reason visible, and the session stays usable', async () => {
    const script = writeScript([{ text: 'Nothing is failing: all 12 tests pass.' }]);
    const config = writeExampleConfig(workspace.dir, [{ name: 'prompt-guard', config: { conventions: 'Use pnpm. Small commits.' } }]);
    let sessionId = '';
    let blocked: unknown;
    const started = Date.now();
    const run = await runAcpAgent(['--script', script, '--config', config], workspace.dir, [], async (acp) => {
      await acp.initialize();
      sessionId = await acp.newSession(workspace.dir);
      blocked = (await acp.prompt(sessionId, 'deploy with AKIAIOSFODNN7EXAMPLE')).result;
      await acp.prompt(sessionId, 'fix the failing test');
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(blocked).toMatchObject({ stopReason: 'cancelled', _meta: { hookbox: { reason: 'rejected', steps: 0 } } });
    expect(Date.now() - started).toBeLessThan(30_000);
    const shown = updates(run.transcript).map(shownText);
    expect(shown.some((text) => text.includes('Prompt blocked by a hook: prompt-guard: the prompt contains a secret'))).toBe(true);
    expect(JSON.stringify(run.transcript).split('AKIAIOSFODNN7EXAMPLE').length - 1, 'the secret appears only in the request').toBe(1);
    golden('blocked-prompt', run.transcript, [sessionId]);
  });

  it('a denied tool call is a failed tool call carrying the hook reason', async () => {
    const script = writeScript([
      { text: 'Cleaning up.', toolCalls: [{ id: 'call-1', name: 'bash', arguments: { command: 'rm -rf /' } }] },
      { text: 'The hook refused; nothing was deleted.' },
    ]);
    const config = writeExampleConfig(workspace.dir, [{ name: 'guard-bash' }]);
    let sessionId = '';
    const run = await runAcpAgent(['--script', script, '--config', config], workspace.dir, [], async (acp) => {
      await acp.initialize();
      sessionId = await acp.newSession(workspace.dir);
      await acp.prompt(sessionId, 'clean up the disk');
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const denied = updates(run.transcript).filter(
      (update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'call-1' && update.status === 'failed',
    );
    expect(denied.map(shownText)).toEqual([expect.stringContaining('guard-bash: recursive-delete')]);
    golden('denied-tool', run.transcript, [sessionId]);
  });

  it('an ask goes to the client as a permission request: answered allow the tool runs, answered deny it fails', async () => {
    const script = writeScript([
      { toolCalls: [{ id: 'push-1', name: 'bash', arguments: { command: PUSH } }] },
      { text: 'Pushed (or skipped).' },
      { toolCalls: [{ id: 'push-2', name: 'bash', arguments: { command: PUSH } }] },
      { text: 'Not pushed: you said no.' },
    ]);
    const config = writeExampleConfig(workspace.dir, [{ name: 'guard-bash' }]);
    let sessionId = '';
    const run = await runAcpAgent(['--script', script, '--config', config], workspace.dir, ['allow', 'deny'], async (acp) => {
      await acp.initialize();
      sessionId = await acp.newSession(workspace.dir);
      await acp.prompt(sessionId, 'push the branch');
      await acp.prompt(sessionId, 'push it again');
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const asked = run.transcript.flatMap((entry) => ('permission' in entry ? [entry.permission.toolCall.toolCallId] : []));
    expect(asked).toEqual(['push-1', 'push-2']);
    const results = updates(run.transcript).filter((update) => update.sessionUpdate === 'tool_call_update' && update.status !== 'in_progress');
    expect(results).toMatchObject([
      { toolCallId: 'push-1', status: 'completed', content: [{ content: { text: 'push skipped: no remote\nexit code: 0' } }] },
      { toolCallId: 'push-2', status: 'failed' },
    ]);
    expect(shownText(results[1])).toContain('(denied by the user)');
    golden('ask-allow-deny', run.transcript, [sessionId]);
  });

  it('a forced continuation shows the hook reason and the turn goes on until the tests pass', async () => {
    writeFileSync(join(workspace.dir, 'run-tests.sh'), 'if [ -f fixed ]; then echo "1 passed"; else echo "1 failed"; exit 1; fi\n');
    const script = writeScript([
      { text: 'Running the tests.', toolCalls: [{ id: 'test-1', name: 'bash', arguments: { command: 'sh run-tests.sh' } }] },
      { text: 'Done.' },
      {
        text: 'Fixing it.',
        toolCalls: [
          { id: 'fix-1', name: 'write_file', arguments: { path: 'fixed', content: 'ok\n' } },
          { id: 'test-2', name: 'bash', arguments: { command: 'sh run-tests.sh' } },
        ],
      },
      { text: 'All tests pass now.' },
    ]);
    const config = writeExampleConfig(workspace.dir, [{ name: 'test-gate', config: { testCommand: 'run-tests' } }]);
    let sessionId = '';
    let outcome: unknown;
    const run = await runAcpAgent(['--script', script, '--config', config], workspace.dir, [], async (acp) => {
      await acp.initialize();
      sessionId = await acp.newSession(workspace.dir);
      outcome = (await acp.prompt(sessionId, 'make the tests pass')).result;
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(outcome).toMatchObject({ stopReason: 'end_turn', _meta: { hookbox: { reason: 'completed', steps: 4 } } });
    const thoughts = updates(run.transcript).filter((update) => update.sessionUpdate === 'agent_thought_chunk');
    expect(thoughts.map(shownText)).toContainEqual(expect.stringContaining('test-gate: the last test run in this turn failed'));
    golden('forced-continuation', run.transcript, [sessionId]);
  });

  it('session/load resumes a session from its log in a new process: history replayed, session-start fired with resume', async () => {
    const config = writeExampleConfig(workspace.dir, [
      { name: 'session-context', config: { teamRules: 'Small commits. Run the tests before you push.' } },
    ]);
    const first = writeScript(
      [{ text: 'Checking.', toolCalls: [{ id: 'check-1', name: 'bash', arguments: { command: 'echo pnpm' } }] }, { text: 'Noted: the build uses pnpm.' }],
      'first.json',
    );
    let sessionId = '';
    const before = await runAcpAgent(['--script', first, '--config', config], workspace.dir, [], async (acp) => {
      await acp.initialize();
      sessionId = await acp.newSession(workspace.dir);
      await acp.prompt(sessionId, 'which package manager does the build use?');
    });
    expect(before.exitCode, before.stderr).toBe(0);

    const second = writeScript([{ text: 'You told me: pnpm.' }], 'second.json');
    const after = await runAcpAgent(['--script', second, '--config', config], workspace.dir, [], async (acp) => {
      await acp.initialize();
      await acp.request('session/load', { sessionId, cwd: workspace.dir, mcpServers: [] });
      await acp.prompt(sessionId, 'remind me which one');
    });
    expect(after.exitCode, after.stderr).toBe(0);
    const loadAt = after.transcript.findIndex((entry) => 'send' in entry && entry.send === 'session/load');
    const replayed = after.transcript.slice(loadAt).findIndex((entry) => 'result' in entry);
    expect(updates(after.transcript.slice(loadAt, loadAt + replayed)).map((update) => update.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'agent_message_chunk',
    ]);
    const log = events({ dir: workspace.dir, logPath: join(workspace.dir, '.hookbox', 'sessions', `${sessionId}.jsonl`), dispose: () => {} });
    expect(log.filter((event) => event.type === 'session/start').map((event) => event.type === 'session/start' && event.source)).toEqual([
      'startup',
      'resume',
    ]);
    golden('resumed-session', [...before.transcript, ...after.transcript], [sessionId]);
  });
});
