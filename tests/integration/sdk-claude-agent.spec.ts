/**
 * The Claude Agent SDK adapter with the real `@anthropic-ai/claude-agent-sdk`
 * (and the Claude Code binary it ships) against the Anthropic API mock on
 * loopback: real wasm hooks behind the SDK's hook callbacks, real Bash tool
 * calls in a scratch project, and what the model receives next read off the
 * wire.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CanUseTool, type Options, type SDKMessage, type SDKResultMessage, query } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readSessionLog } from '../../host/log/index.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { type ClaudeAgentSdkHookbox, type HookInput, hookboxHooks } from '../../host/sdk/claude-agent-sdk.ts';
import { AWS_KEY, GITHUB_TOKEN, writeTrapConfig } from '../helpers/agent-project.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import type { MockReply } from '../helpers/mock-anthropic.ts';
import { startAnthropicMock, useMock } from '../helpers/mock-model/lifecycle.ts';
import { type OtlpReceiver, startOtlpReceiver } from '../helpers/otlp-receiver.ts';
import { skipUnless } from '../helpers/skips.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';
import { claudeAgentSdkUnavailable } from '../helpers/claude-agent-sdk.ts';

const TIMEOUT = 240_000;
const SUITE = 'Claude Agent SDK adapter (real SDK)';
const runnable = !skipUnless(SUITE, claudeAgentSdkUnavailable(), { required: '@anthropic-ai/claude-agent-sdk' });

let dir: string;
const mock = useMock(() => startAnthropicMock());
let hookbox: ClaudeAgentSdkHookbox | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-claude-sdk-'));
});
afterEach(async () => {
  await hookbox?.close();
  hookbox = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const bash = (command: string): MockReply => ({ text: 'Running it.', toolUses: [{ name: 'Bash', input: { command, description: 'run' } }] });

/** A fresh project and HOME for one query. */
function workspace(name: string): { project: string; home: string } {
  const project = join(dir, name, 'project');
  const home = join(dir, name, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { project, home };
}

/**
 * One `query` to the end against the mock with `hooks`; every byte stays on
 * loopback. Bypass mode lets Bash run with no one to ask, so only hookbox
 * stands between the model and the tool (as root Claude Code needs
 * IS_SANDBOX=1 for that mode).
 */
async function run(hooks: ClaudeAgentSdkHookbox['hooks'], project: string, home: string, script: readonly MockReply[], prompt = 'Do the task.', extra: Partial<Options> = {}): Promise<SDKResultMessage | undefined> {
  mock().script([...script, { text: 'Done.' }]);
  let result: SDKResultMessage | undefined;
  const messages = query({
    prompt,
    options: {
      cwd: project,
      model: 'claude-sonnet-4-5',
      hooks,
      maxTurns: 4,
      settingSources: [],
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        IS_SANDBOX: '1',
        ANTHROPIC_BASE_URL: mock().url,
        ANTHROPIC_API_KEY: 'sk-hookbox-test',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
      ...extra,
    },
  });
  for await (const message of messages as AsyncIterable<SDKMessage>) if (message.type === 'result') result = message;
  return result;
}

async function gated(config: string, name: string, script: readonly MockReply[], prompt?: string): Promise<{ project: string; result: SDKResultMessage | undefined }> {
  const { project, home } = workspace(name);
  hookbox = await hookboxHooks({ config, logDir: join(dir, name, 'logs') });
  const result = await run(hookbox.hooks, project, home, script, prompt);
  return { project, result };
}

describe.runIf(runnable)('hookboxHooks (Claude Agent SDK)', () => {
  it('guard-bash denies rm -rf /: the command never runs and the model reads the denial', async () => {
    const { project, result } = await gated(writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard.json'), 'guard', [bash('rm -rf / ; touch ran.txt')]);
    expect(result?.subtype).toBe('success');
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
    expect(mock().shown()).toContain('guard-bash: recursive-delete');
  }, TIMEOUT);

  it('a harmless command runs through the same hooks', async () => {
    const { project, result } = await gated(writeExampleConfig(dir, [{ name: 'guard-bash' }], 'guard-ok.json'), 'allowed', [bash('touch ran.txt && echo made-it')]);
    expect(result?.subtype).toBe('success');
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
    expect(mock().shown()).toContain('made-it');
    // One hookbox session for the SDK's session, under its id, with the SDK's cwd, turn and step.
    const { events } = readSessionLog(join(dir, 'allowed', 'logs', `claude-agent-sdk-${String(result?.session_id)}.jsonl`));
    const call = events.find((event) => event.type === 'tool/call');
    expect(call).toMatchObject({ turn: 1, step: 1, toolName: 'bash', arguments: { command: 'touch ran.txt && echo made-it' } });
    expect(events.find((event) => event.type === 'session/start')).toMatchObject({ cwd: project });
  }, TIMEOUT);

  it('a wasm rewriter turns `echo A > out.txt` into `echo B > out.txt` (updatedInput): the file holds B; an Edit whose content it rewrites is denied with the reason the model reads', async () => {
    await buildHook({ entry: fileURLToPath(new URL('../pdk/fixtures/rewrite/rewriter.ts', import.meta.url)), outFile: join(dir, 'rewriter', 'hook.wasm') });
    const config = join(dir, 'rewrite.json');
    const hook = { name: 'a-to-b', manifest: join(dir, 'rewriter', 'hook.json'), config: { mode: 'replace', from: 'echo A', to: 'echo B' }, timeoutMs: 5000 };
    writeFileSync(config, JSON.stringify({ hooks: [hook] }));
    const { project, home } = workspace('rewrite');
    writeFileSync(join(project, 'notes.txt'), 'old line\n');
    hookbox = await hookboxHooks({ config, logDir: join(dir, 'rewrite', 'logs') });
    const result = await run(hookbox.hooks, project, home, [
      bash('echo A > out.txt'),
      { toolUses: [{ name: 'Read', input: { file_path: join(project, 'notes.txt') } }] },
      { toolUses: [{ name: 'Edit', input: { file_path: join(project, 'notes.txt'), old_string: 'old line', new_string: 'echo A again' } }] },
    ]);
    expect(result?.subtype).toBe('success');
    expect(readFileSync(join(project, 'out.txt'), 'utf8'), 'the rewritten command ran').toBe('B\n');
    expect(readFileSync(join(project, 'notes.txt'), 'utf8'), 'the denied Edit did not run').toBe('old line\n');
    expect(mock().shown()).toContain('could not be applied in the Claude Agent SDK (Edit: Edit takes old and new strings');
  }, TIMEOUT);

  it("a hook's ask goes to the app's canUseTool; with none the call is refused", async () => {
    const config = writeExampleConfig(dir, [{ name: 'guard-bash' }], 'ask.json');
    const refused = await gated(config, 'ask-none', [bash('git push origin main')]);
    expect(JSON.stringify(refused.result?.permission_denials)).toContain('git push origin main');
    await hookbox?.close();
    const asked: string[] = [];
    const approver: CanUseTool = async (toolName, input) => {
      asked.push(`${toolName} ${String(input.command)}`);
      return { behavior: 'deny', message: 'the approver said no' };
    };
    const { project, home } = workspace('ask-app');
    hookbox = await hookboxHooks({ config, logDir: join(dir, 'ask-app', 'logs') });
    await run(hookbox.hooks, project, home, [bash('git push origin main')], 'Push it.', { canUseTool: approver });
    expect(asked).toEqual(['Bash git push origin main']);
    expect(mock().shown()).toContain('the approver said no');
  }, TIMEOUT);

  it("a redactor's replacement is what the model receives next (updatedToolOutput)", async () => {
    const { project, home } = workspace('redact');
    writeFileSync(join(project, 'token.txt'), `GITHUB_TOKEN=${GITHUB_TOKEN}\n`);
    hookbox = await hookboxHooks({ config: writeExampleConfig(dir, [{ name: 'secret-redactor' }], 'redact.json'), logDir: join(dir, 'redact', 'logs') });
    await run(hookbox.hooks, project, home, [bash('cat token.txt')]);
    expect(mock().shown()).toContain('GITHUB_TOKEN=[REDACTED:');
    expect(mock().everything()).not.toContain(GITHUB_TOKEN);
  }, TIMEOUT);

  it('a blocked prompt never reaches the model', async () => {
    const { result } = await gated(writeExampleConfig(dir, [{ name: 'prompt-guard' }], 'prompt.json'), 'prompt', [bash('touch ran.txt')], `deploy with ${AWS_KEY}`);
    expect(mock().requests.filter((request) => request.withTools)).toHaveLength(0);
    expect(mock().everything()).not.toContain(AWS_KEY);
    // The app is told why (Claude Code quotes the app's own prompt back to it).
    expect(result?.subtype === 'success' ? result.result : '').toContain('prompt-guard');
  }, TIMEOUT);

  it('a hook that traps, or runs to its deadline, fails closed: neither command runs', async () => {
    const trapped = await gated(await writeTrapConfig(dir), 'trap', [bash('touch trapped.txt')]);
    expect(existsSync(join(trapped.project, 'trapped.txt'))).toBe(false);
    expect(mock().shown()).toContain('failed (trap)');
    await hookbox?.close();
    const spin = join(dir, 'spin.config.json');
    writeFileSync(spin, JSON.stringify({ hooks: [{ name: 'slow', wasm: await writeCorpusWasm('infinite-loop', dir), seams: ['tools/pre-execute'], timeoutMs: 500 }] }));
    const spun = await gated(spin, 'spin', [bash('touch spun.txt')]);
    expect(existsSync(join(spun.project, 'spun.txt'))).toBe(false);
    expect(mock().shown()).toContain('failed (timeout)');
  }, TIMEOUT);

  it('a post-tool hook that traps withholds the output: the turn ends before the model sees it', async () => {
    const config = join(dir, 'post-trap.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'trap', wasm: await writeCorpusWasm('trap', dir), seams: ['tools/post-execute'] }] }));
    const { project, result } = await gated(config, 'post-trap', [bash("touch ran.txt && printf 'MARK-%s' 77")]);
    expect(existsSync(join(project, 'ran.txt'))).toBe(true);
    expect(mock().everything()).not.toContain('MARK-77');
    expect(mock().requests.filter((request) => request.withTools)).toHaveLength(1);
    expect(JSON.stringify(result ?? {})).not.toContain('MARK-77');
  }, TIMEOUT);

  it("hookbox's own failure (its runner gone) denies instead of running the tool", async () => {
    const { project, home } = workspace('closed');
    const closed = await hookboxHooks({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'closed.json'), logDir: join(dir, 'closed', 'logs') });
    await closed.close();
    await run(closed.hooks, project, home, [bash('touch ran.txt')]);
    expect(existsSync(join(project, 'ran.txt'))).toBe(false);
    expect(mock().shown()).toContain('guard-bash\\" failed');
  }, TIMEOUT);
});

describe('hookboxHooks callbacks, called as the SDK calls them', () => {
  const call = async (box: ClaudeAgentSdkHookbox, input: unknown): Promise<unknown> => {
    const event = (input as { hook_event_name: 'PreToolUse' }).hook_event_name;
    const callback = box.hooks[event]?.[0]?.hooks[0];
    if (callback === undefined) throw new Error(`no callback for ${event}`);
    return callback(input as HookInput, undefined, { signal: new AbortController().signal });
  };
  const base = (cwd: string) => ({ session_id: 'sdk-session-1', transcript_path: join(cwd, 't.jsonl'), cwd });

  it('registers every event of the claude-code table, each blocking on its own failure', async () => {
    hookbox = await hookboxHooks({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'events.json'), logDir: join(dir, 'events-logs') });
    expect(Object.keys(hookbox.hooks).sort()).toEqual(['Notification', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'PreCompact', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'SubagentStart', 'SubagentStop', 'UserPromptSubmit']);
    for (const matchers of Object.values(hookbox.hooks)) expect(matchers.map((matcher) => matcher.onFailure)).toEqual(['block']);
  }, TIMEOUT);

  it('the sessionId option puts every SDK session under one hookbox session', async () => {
    const logDir = join(dir, 'one-session-logs');
    hookbox = await hookboxHooks({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'one.json'), logDir, sessionId: 'app-run-1' });
    const pre = (session: string, id: string) => ({ ...base(dir), session_id: session, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: id });
    expect(await call(hookbox, pre('sdk-a', 'toolu_a'))).toEqual({});
    expect(await call(hookbox, pre('sdk-b', 'toolu_b'))).toEqual({});
    await hookbox.close();
    hookbox = undefined;
    expect(readdirSync(logDir)).toEqual(['claude-agent-sdk-app-run-1.jsonl']);
    const calls = readSessionLog(join(logDir, 'claude-agent-sdk-app-run-1.jsonl')).events.filter((event) => event.type === 'tool/call');
    expect(calls.map((event) => (event as { toolCallId: string }).toolCallId)).toEqual(['toolu_a', 'toolu_b']);
  }, TIMEOUT);

  it('an unreadable event, a closed runner and an aborted callback each deny; nothing throws', async () => {
    const config = writeExampleConfig(dir, [{ name: 'guard-bash' }, { name: 'prompt-guard' }, { name: 'secret-redactor' }], 'direct.json');
    hookbox = await hookboxHooks({ config, logDir: join(dir, 'direct-logs') });
    const pre = { ...base(dir), hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };
    expect(await call(hookbox, pre)).toEqual({});
    const denied = { hookSpecificOutput: expect.objectContaining({ hookEventName: 'PreToolUse', permissionDecision: 'deny' }) };
    expect(await call(hookbox, { ...pre, tool_input: 'not an object' })).toEqual(denied);
    const aborter = new AbortController();
    aborter.abort();
    const callback = hookbox.hooks.PreToolUse?.[0]?.hooks[0];
    expect(await callback?.(pre as HookInput, 'toolu_1', { signal: aborter.signal })).toEqual(denied);
    await hookbox.close();
    expect(await call(hookbox, pre)).toEqual(denied);
    expect(await call(hookbox, { ...base(dir), hook_event_name: 'UserPromptSubmit', prompt: 'hi' })).toEqual(expect.objectContaining({ decision: 'block' }));
    expect(await call(hookbox, { ...base(dir), hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'x' }, tool_use_id: 'toolu_2' })).toEqual(
      expect.objectContaining({ continue: false }),
    );
    hookbox = undefined;
  }, TIMEOUT);
});

describe.runIf(runnable)('hookboxHooks (Claude Agent SDK) telemetry', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('each decision is a dispatch span', async () => {
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_EXPORTER: 'otlp', OTEL_METRICS_EXPORTER: 'none' });
    const { project, home } = workspace('otel');
    try {
      hookbox = await hookboxHooks({ config: writeExampleConfig(dir, [{ name: 'guard-bash' }], 'otel.json'), logDir: join(dir, 'otel', 'logs') });
      await run(hookbox.hooks, project, home, [bash('echo hi')]);
      await hookbox.close();
      hookbox = undefined;
    } finally {
      for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER']) Reflect.deleteProperty(process.env, name);
    }
    const seams = receiver.spans.filter((span) => span.name === 'hookbox.dispatch').map((span) => span.attributes['hookbox.seam']);
    expect(seams).toEqual(expect.arrayContaining(['agent/prompt-submit', 'tools/pre-execute', 'tools/post-execute']));
  }, TIMEOUT);
});
