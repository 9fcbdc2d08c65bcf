/**
 * The ACP agent in-process: the SDK's client app connected straight to
 * `AcpAgent`'s app (no transport), real loop, real wasm hooks. Covers what
 * the golden transcripts do not: permission degradation (no handler, no
 * answer, cancelled), cancellation, error and max-steps settlement, bad
 * requests, post-tool replacement, hook log routing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ClientApp,
  type ClientContext,
  PROTOCOL_VERSION,
  RequestError,
  type RequestPermissionResponse,
  type SessionUpdate,
  client,
} from '@agentclientprotocol/sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AcpAgent, STOP_REASONS, promptResponseFor, promptText } from '../../host/acp/index.ts';
import { type HookSet, openHookSet } from '../../host/cli/hook-set.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { type Script, ScriptedProvider } from '../../host/providers/scripted.ts';
import { builtinTools } from '../../host/tools/index.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import { shownWords } from '../helpers/markdown.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { waitFor } from '../helpers/wait-for.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

let hooks: HookSet;
let hooksDir: string;
let agent: AcpAgent | undefined;
beforeAll(async () => {
  hooksDir = mkdtempSync(join(tmpdir(), 'hookbox-acp-hooks-'));
  const config = writeExampleConfig(hooksDir, [{ name: 'audit-trail' }, { name: 'guard-bash' }, { name: 'secret-redactor' }]);
  hooks = await openHookSet(config, (entry) => agent?.recordHookLog(entry));
});
afterAll(async () => {
  await hooks?.close();
  rmSync(hooksDir, { recursive: true, force: true });
});

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-acp-');
});
afterEach(() => {
  agent = undefined;
  workspace.dispose();
});

interface Harness {
  readonly acp: ClientContext;
  readonly sessionId: string;
  readonly updates: SessionUpdate[];
  prompt(text: string): Promise<unknown>;
}

/** Runs `op` against a fresh agent with `script`, through a client app `setup` may extend. */
async function withAgent(
  script: Script,
  options: {
    askTimeoutMs?: number;
    maxSteps?: number;
    onCancelled?: (sessionId: string) => void;
    setup?: (app: ClientApp) => ClientApp;
  },
  op: (harness: Harness) => Promise<void>,
): Promise<void> {
  const current = new AcpAgent({
    createProvider: () => new ScriptedProvider(script),
    hooks: hooks.listeners,
    createTools: builtinTools,
    ...(options.askTimeoutMs !== undefined && { askTimeoutMs: options.askTimeoutMs }),
    ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
    ...(options.onCancelled !== undefined && { onCancelled: options.onCancelled }),
  });
  agent = current;
  const updates: SessionUpdate[] = [];
  let app = client({ name: 'acp-spec' }).onNotification('session/update', ({ params }) => {
    updates.push(params.update);
  });
  if (options.setup !== undefined) app = options.setup(app);
  try {
    await app.connectWith(current.app, async (acp) => {
      await acp.request('initialize', { protocolVersion: PROTOCOL_VERSION });
      const { sessionId } = await acp.request('session/new', { cwd: workspace.dir, mcpServers: [] });
      await op({
        acp,
        sessionId,
        updates,
        prompt: (text) => acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }),
      });
    });
  } finally {
    await current.close();
  }
}

const bash = (id: string, command: string) => ({ id, name: 'bash', arguments: { command } });
// GIT_DIR points nowhere, so even a workspace inside a real repository cannot push.
const PUSH = 'GIT_DIR=/nonexistent git push origin feature 2>/dev/null || echo skipped';

async function rejection(promise: Promise<unknown>): Promise<RequestError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
}

/** What the editor shows of a tool call's content: its text rendered as Markdown, as an editor does. */
function shownContent(update: SessionUpdate | undefined): string {
  const content = update !== undefined && 'content' in update && Array.isArray(update.content) ? update.content : [];
  return content.map((item) => (item.type === 'content' && item.content.type === 'text' ? shownWords(item.content.text) : '')).join(' ');
}

function failedResult(updates: readonly SessionUpdate[], toolCallId: string): string {
  const update = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === toolCallId && u.status === 'failed');
  expect(update, `a failed tool_call_update for ${toolCallId}`).toBeDefined();
  return shownContent(update);
}

describe('permission requests degrade to deny', () => {
  it('when the client does not implement session/request_permission', async () => {
    await withAgent({ steps: [{ toolCalls: [bash('p1', PUSH)] }, { text: 'ok' }] }, {}, async ({ prompt, updates }) => {
      expect(await prompt('push')).toMatchObject({ stopReason: 'end_turn' });
      expect(failedResult(updates, 'p1')).toContain(
        'guard-bash: git-push: pushes to a remote (ask degraded to deny: prompter failed: the ACP client does not implement session/request_permission)',
      );
    });
  });

  it('when the client does not answer in time, and the request is cancelled on the wire', async () => {
    let requestSignal: AbortSignal | undefined;
    const setup = (app: ClientApp) =>
      app.onRequest('session/request_permission', ({ signal }) => {
        requestSignal = signal;
        return new Promise<RequestPermissionResponse>(() => {});
      });
    const started = Date.now();
    await withAgent({ steps: [{ toolCalls: [bash('p1', PUSH)] }, { text: 'ok' }] }, { askTimeoutMs: 200, setup }, async ({ prompt, updates }) => {
      expect(await prompt('push')).toMatchObject({ stopReason: 'end_turn' });
      expect(failedResult(updates, 'p1')).toContain('(ask degraded to deny: no answer within 200 ms)');
    });
    // Not left waiting for an answer that never comes: the agent's start included, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(requestSignal?.aborted).toBe(true);
  });

  it('when the user cancels the turn: the client answers cancelled and the prompt ends cancelled', async () => {
    let cancelTurn: (() => void) | undefined;
    const setup = (app: ClientApp) =>
      app.onRequest('session/request_permission', () => new Promise<RequestPermissionResponse>((resolve) => {
        cancelTurn = () => resolve({ outcome: { outcome: 'cancelled' } });
      }));
    await withAgent({ steps: [{ toolCalls: [bash('p1', PUSH)] }, { text: 'never reached' }] }, { setup }, async ({ acp, sessionId, prompt, updates }) => {
      const pending = prompt('push');
      await waitFor(() => cancelTurn !== undefined, 'the permission request');
      await acp.notify('session/cancel', { sessionId });
      cancelTurn?.();
      expect(await pending).toMatchObject({ stopReason: 'cancelled', _meta: { hookbox: { reason: 'cancelled' } } });
      expect(failedResult(updates, 'p1')).toContain('(denied by the user)');
      expect(JSON.stringify(updates)).not.toContain('never reached');
    });
  });
});

describe('cancellation wins over a late allow', () => {
  it('a tool allowed after the turn was cancelled does not run', async () => {
    let allowLate: (() => void) | undefined;
    const setup = (app: ClientApp) =>
      app.onRequest('session/request_permission', () => new Promise<RequestPermissionResponse>((resolve) => {
        allowLate = () => resolve({ outcome: { outcome: 'selected', optionId: 'allow' } });
      }));
    const marker = join(workspace.dir, 'pushed');
    const script = { steps: [{ toolCalls: [bash('p1', `GIT_DIR=/nonexistent git push origin main 2>/dev/null; touch ${marker}`)] }, { text: 'never reached' }] };
    let cancelLanded!: (sessionId: string) => void;
    const cancelled = new Promise<string>((resolve) => (cancelLanded = resolve));
    await withAgent(script, { setup, onCancelled: (id) => cancelLanded(id) }, async ({ acp, sessionId, prompt, updates }) => {
      const pending = prompt('push');
      await waitFor(() => allowLate !== undefined, 'the permission request');
      await acp.notify('session/cancel', { sessionId });
      // The allow is sent only once the agent has applied the cancel.
      expect(await cancelled).toBe(sessionId);
      allowLate?.();
      expect(await pending).toMatchObject({ stopReason: 'cancelled' });
      expect(failedResult(updates, 'p1')).toContain('bash was not run: the turn was cancelled');
    });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('prompt settlement', () => {
  it('session/cancel stops a running tool and the prompt ends cancelled', async () => {
    await withAgent({ steps: [{ toolCalls: [bash('s1', 'sleep 20')] }, { text: 'next turn' }] }, {}, async ({ acp, sessionId, prompt, updates }) => {
      const started = Date.now();
      const pending = prompt('wait');
      await waitFor(() => updates.some((u) => u.sessionUpdate === 'tool_call'), 'the tool_call update');
      await acp.notify('session/cancel', { sessionId });
      expect(await pending).toMatchObject({ stopReason: 'cancelled' });
      // Well before the 20 s the `sleep` would take had it not been stopped, even on a loaded machine.
      expect(Date.now() - started).toBeLessThan(18_000);
      expect(failedResult(updates, 's1')).toMatch(/exit code: 128|was not run: the turn was cancelled/u);
      // The session stays usable after a cancelled turn.
      expect(await prompt('again')).toMatchObject({ stopReason: 'end_turn' });
    });
  });

  it('a turn that fails is an error response carrying its message', async () => {
    await withAgent({ steps: [] }, {}, async ({ prompt }) => {
      const error = await rejection(prompt('hi'));
      expect(error.code).toBe(-32603);
      expect(error.message).toContain('script exhausted: model call #1');
      expect(error.data).toMatchObject({ hookbox: { reason: 'error', turn: 1 } });
    });
  });

  it('max-steps ends with max_turn_requests', async () => {
    await withAgent({ steps: [{ toolCalls: [bash('e1', 'echo one')] }, { text: 'unreached' }] }, { maxSteps: 1 }, async ({ prompt }) => {
      expect(await prompt('go')).toMatchObject({ stopReason: 'max_turn_requests', _meta: { hookbox: { reason: 'max-steps' } } });
    });
  });

  it('a second prompt while one runs is refused; the first still settles', async () => {
    await withAgent({ steps: [{ toolCalls: [bash('s1', 'sleep 20')] }] }, {}, async ({ acp, sessionId, prompt, updates }) => {
      const first = prompt('wait');
      await waitFor(() => updates.some((u) => u.sessionUpdate === 'tool_call'), 'the tool_call update');
      expect((await rejection(prompt('meanwhile'))).code).toBe(-32600);
      await acp.notify('session/cancel', { sessionId });
      expect(await first).toMatchObject({ stopReason: 'cancelled' });
    });
  });

  it('maps every turn end reason (rejected settles as cancelled)', () => {
    expect(STOP_REASONS).toEqual({ completed: 'end_turn', 'max-steps': 'max_turn_requests', cancelled: 'cancelled', rejected: 'cancelled' });
    expect(promptResponseFor({ turn: 3, reason: 'rejected', steps: 0, message: 'blocked' })).toEqual({
      stopReason: 'cancelled',
      _meta: { hookbox: { turn: 3, reason: 'rejected', steps: 0, message: 'blocked' } },
    });
    expect(() => promptResponseFor({ turn: 1, reason: 'error', steps: 1, message: 'boom' })).toThrow('Internal error: boom');
  });

  it('a rejected turn\'s message (the hooks\' block reasons) reaches _meta printable, not Markdown-escaped (programs read it)', () => {
    const response = promptResponseFor({ turn: 2, reason: 'rejected', steps: 0, message: 'guard: ![x](https://collector.example/p)\x1b]0;t\x07' });
    expect(response._meta).toEqual({ hookbox: { turn: 2, reason: 'rejected', steps: 0, message: 'guard: ![x](https://collector.example/p)\\x1b]0;t\\x07' } });
  });
});

describe('hook effects and bad requests', () => {
  it('a post-tool replacement shows the replaced content; hook log lines land in the session log', async () => {
    writeFileSync(join(workspace.dir, 'app.env'), 'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ0123\n');
    let id = '';
    await withAgent({ steps: [{ toolCalls: [bash('r1', 'cat app.env')] }, { text: 'done' }] }, {}, async ({ prompt, updates, sessionId }) => {
      id = sessionId;
      expect(await prompt('show the env')).toMatchObject({ stopReason: 'end_turn' });
      const result = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'r1');
      expect(result).toMatchObject({ status: 'completed', _meta: { hookbox: { hookEffect: 'replaced' } } });
      expect(shownContent(result)).toBe('GITHUB_TOKEN=[REDACTED:github-token] exit code: 0');
      expect(JSON.stringify(updates)).not.toContain('ghp_0123');
      const thoughts = updates.flatMap((u) => (u.sessionUpdate === 'agent_thought_chunk' && u.content.type === 'text' ? [shownWords(u.content.text)] : []));
      expect(thoughts).toContainEqual(expect.stringContaining('Context from a post-tool hook: secret-redactor: redacted 1'));
    });
    const { events } = readSessionLog(join(workspace.dir, '.hookbox', 'sessions', `${id}.jsonl`));
    expect(events.some((event) => event.type === 'hook/log' && event.hook === 'audit-trail')).toBe(true);
  });

  it('unknown sessions, unsafe ids and relative paths are refused with the matching JSON-RPC errors', async () => {
    await withAgent({ steps: [] }, {}, async ({ acp }) => {
      expect((await rejection(acp.request('session/prompt', { sessionId: 'nope', prompt: [] }))).code).toBe(-32002);
      expect((await rejection(acp.request('session/load', { sessionId: 'nope', cwd: workspace.dir, mcpServers: [] }))).code).toBe(-32002);
      expect((await rejection(acp.request('session/load', { sessionId: '../x', cwd: workspace.dir, mcpServers: [] }))).code).toBe(-32602);
      expect((await rejection(acp.request('session/new', { cwd: 'relative/dir', mcpServers: [] }))).code).toBe(-32602);
      mkdirSync(join(workspace.dir, '.hookbox', 'sessions'), { recursive: true });
      writeFileSync(join(workspace.dir, '.hookbox', 'sessions', 'damaged.jsonl'), 'not json\n');
      const damaged = await rejection(acp.request('session/load', { sessionId: 'damaged', cwd: workspace.dir, mcpServers: [] }));
      expect(damaged.message).toMatch(/damaged\.jsonl:1: not a JSON object/u);
    });
  });

  it('prompt blocks become one prompt text', () => {
    expect(
      promptText([
        { type: 'text', text: 'look at' },
        { type: 'resource_link', name: 'a.ts', uri: 'file:///w/a.ts' },
        { type: 'resource', resource: { uri: 'file:///w/b.txt', text: 'hello' } },
        { type: 'image', data: '', mimeType: 'image/png' },
      ]),
    ).toBe('look at\n[a.ts](file:///w/a.ts)\nContents of file:///w/b.txt:\nhello\n[image omitted: hookbox does not accept images]');
  });
});

describe('hookbox acp (CLI)', () => {
  it('--help describes the command; missing provider flags fail before serving, exit 2', () => {
    const help = spawnSync(process.execPath, [BIN, 'acp', '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: hookbox acp');
    expect(help.stdout).toContain('--sessions-dir');
    const bad = spawnSync(process.execPath, [BIN, 'acp'], { encoding: 'utf8', input: '', timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('the scripted provider needs --script FILE');
    expect(bad.stdout).toBe('');
  });
});
