/**
 * The hook client's own deadline (`hookbox hook`, the node and the sh client): a server that
 * does not decide in time, and a config whose hooks do not load and run in time in-process,
 * are answered closed in the agent's own format on exit 0. Real listeners, a real wasm hook
 * that spins to its timeout, the real clients as child processes.
 *
 * Not in the `serve` mutation group (scripts/mutate-groups.mjs): it tests the client, and the
 * server's work on each abandoned request outlives the test that sent it, which Stryker would
 * count as code no test covers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DecisionServer, loadServedHooks } from '../../host/serve/index.ts';
import { claudeEvent, postBash, preBash, promptSubmit, writeHookConfig } from '../helpers/claude-events.ts';
import { HOOK_CLIENTS } from '../helpers/command-hook.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

describe('hookbox hook (the node and the sh client): its own deadline answers closed in the agent format', () => {
  let dir: string;
  let server: DecisionServer;
  let socket: string;
  let slowConfig: string;

  let opening: Promise<void> | undefined;
  beforeEach(() => (opening ??= open()), 60_000);
  async function open(): Promise<void> {
    dir = mkdtempSync(join(tmpdir(), 'hookbox-deadline-'));
    const spin = await writeCorpusWasm('infinite-loop', join(dir, 'wasm'));
    // A hook that spins to its 20 s deadline on every seam the client is asked about.
    slowConfig = writeHookConfig(dir, [
      { name: 'spin', wasm: spin, seams: ['tools/pre-execute', 'tools/post-execute', 'agent/prompt-submit'], timeoutMs: 20_000 },
    ]);
    socket = join(dir, 'run', 'serve.sock');
    server = new DecisionServer({ hooks: await loadServedHooks(slowConfig), socket, log: () => {} });
    await server.listen();
  }

  afterAll(async () => {
    await server?.close();
  });

  for (const client of HOOK_CLIENTS) {
    const cases: readonly [string, string, (stdout: string) => void][] = [
      ['pre-tool', 'pre', (out) => expect(JSON.parse(out).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no decision within 1500 ms') })],
      // Claude Code: the JSON a block uses (exit 2 on PostToolUse would show the model the output).
      ['post-tool', 'post', (out) => expect(JSON.parse(out)).toMatchObject({ continue: false, decision: 'block', reason: expect.stringContaining('no decision within') })],
      ['prompt', 'prompt', (out) => expect(JSON.parse(out)).toMatchObject({ decision: 'block', reason: expect.stringContaining('no decision within') })],
    ];
    for (const [label, kind, check] of cases) {
      it(`${client.name} client, claude-code ${label}: a server slower than the deadline → the closed answer on exit 0`, async () => {
        const cwd = join(dir, 'p');
        const input = kind === 'pre' ? preBash(cwd, `s-${kind}-${client.name}`, 'ls') : kind === 'post' ? postBash(cwd, `s-${kind}-${client.name}`, 'AWS_SECRET=x') : promptSubmit(cwd, `s-${kind}-${client.name}`, 'hi');
        const run = await client.run('claude-code', ['--socket', socket, '--config', slowConfig, '--deadline-ms', '1500'], input);
        expect(run.code, run.stderr).toBe(0);
        check(run.stdout);
      }, 60_000);
    }

    it(`${client.name} client, codex and gemini: the same give-up answers their own closed forms`, async () => {
      const cwd = join(dir, 'p');
      const codex = await client.run('codex', ['--socket', socket, '--deadline-ms', '1500'], claudeEvent(cwd, `s-codex-${client.name}`, { hook_event_name: 'PostToolUse', model: 'm', turn_id: 't', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'x', tool_use_id: 'c1' }));
      expect(JSON.parse(codex.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('no decision within 1500 ms') });
      const gemini = await client.run('gemini', ['--socket', socket, '--deadline-ms', '1500'], claudeEvent(cwd, `s-gem-${client.name}`, { hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(), tool_name: 'run_shell_command', tool_input: { command: 'ls' } }));
      expect(JSON.parse(gemini.stdout)).toMatchObject({ decision: 'deny', reason: expect.stringContaining('no decision within 1500 ms') });
    }, 60_000);

    it(`${client.name} client, in-process (no server): the deadline covers loading and running the hooks too`, async () => {
      const run = await client.run('claude-code', ['--socket', join(dir, 'nobody.sock'), '--config', slowConfig, '--deadline-ms', '4000'], preBash(join(dir, 'p'), `s-inproc-${client.name}`, 'ls'));
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('no decision within 4000 ms') });
    }, 60_000);

    it(`${client.name} client: a bad argument is answered closed for the event, not with an exit code the agent ignores`, async () => {
      const run = await client.run('claude-code', ['--socket', socket, '--bogus'], postBash(join(dir, 'p'), 's-bad', 'x'));
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ continue: false, reason: expect.stringContaining('unknown option --bogus') });
    });
  }
});
