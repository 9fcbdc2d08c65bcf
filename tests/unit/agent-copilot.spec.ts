/**
 * The Copilot CLI bridge in Copilot's own hook format: events as copilot
 * 1.0.102 sent them to a logging command hook (camelCase, no event name: the
 * command line names it), each decision's answer, the closed forms, setup.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentSeamEvent, claudeCodeBridge, copilotBridge as copilot } from '../../host/agents/index.ts';

// The fields every event carried (measured): no event name, a timestamp in ms.
const common = { sessionId: '802d8623-7fb5-418a-a6df-8a3301fb04f5', timestamp: 1796282899700, cwd: '/work/app' };

function seamOf(event: string, input: Record<string, unknown>): AgentSeamEvent {
  const parsed = copilot.toSeam({ ...common, ...input }, event);
  if (parsed.kind !== 'seam') throw new Error(`expected a seam event, got ${JSON.stringify(parsed)}`);
  return parsed.event;
}

const out = (answer: { stdout: string }) => JSON.parse(answer.stdout) as Record<string, unknown>;

describe('Copilot CLI bridge (its own format)', () => {
  it('maps each event it reads to its seam, the event named by the command line', () => {
    expect(seamOf('sessionStart', { source: 'new', initialPrompt: 'hi' })).toMatchObject({ seam: 'agent/session-start', payload: { source: 'startup' } });
    expect(seamOf('userPromptSubmitted', { prompt: 'list files' })).toMatchObject({ seam: 'agent/prompt-submit', payload: { content: 'list files' } });
    expect(seamOf('preToolUse', { toolName: 'bash', toolArgs: { command: 'ls', description: 'step' } })).toMatchObject({
      seam: 'tools/pre-execute',
      event: 'preToolUse',
      sessionId: common.sessionId,
      payload: { toolName: 'bash', arguments: { command: 'ls' } },
    });
    const stop = seamOf('agentStop', { transcriptPath: '/h/.copilot/x.jsonl', stopReason: 'end_turn', stop_hook_active: true });
    expect(stop).toMatchObject({ seam: 'agent/turn-continuation', alreadyContinued: true });
    expect(seamOf('agentStop', { stopReason: 'end_turn' })).toMatchObject({ alreadyContinued: false });
  });

  it('maps bash, view, create and edit; other tools keep their names, unknown ones flagged; pre and post pair without a call id', () => {
    const pre = (toolName: string, toolArgs: unknown) => seamOf('preToolUse', { toolName, toolArgs }).payload;
    expect(pre('view', { path: '/work/app/.env' })).toMatchObject({ toolName: 'read_file', arguments: { path: '.env' } });
    expect(pre('create', { path: '/work/app/prod.env', file_text: 'T=1' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'prod.env', content: 'T=1' } });
    expect(pre('edit', { path: '/etc/hosts', old_str: 'a', new_str: 'b' })).toMatchObject({ toolName: 'write_file', arguments: { path: '/etc/hosts', content: 'b' } });
    expect(pre('edit', { path: '/work/app/a.txt', old_str: 'gone' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'a.txt', content: '' } });
    expect(pre('grep', { pattern: 'x' })).toMatchObject({ toolName: 'grep', arguments: { pattern: 'x' } });
    expect(pre('teleport', {})).toMatchObject({ toolName: 'teleport', arguments: { _hookbox: { unmappedTool: true } } });
    expect(pre('bash', { cmd: 'rm -rf /' })).toMatchObject({ toolName: 'bash', arguments: { cmd: 'rm -rf /', _hookbox: { unmappedTool: true } } });
    // Arguments sent as JSON text are read; missing ones are no arguments, not a reason to deny the whole event.
    expect(pre('bash', '{"command":"ls"}')).toMatchObject({ toolName: 'bash', arguments: { command: 'ls' } });
    expect(copilot.toSeam({ ...common, toolName: 'list_bash' }, 'preToolUse').kind).toBe('seam');
    const args = { command: 'echo S1', description: 'print' };
    const before = seamOf('preToolUse', { toolName: 'bash', toolArgs: args }).payload as { toolCallId: string };
    const after = seamOf('postToolUse', { toolName: 'bash', toolArgs: args, toolResult: { resultType: 'success', textResultForLlm: 'S1\n<shellId: 0 completed with exit code 0>' } })
      .payload as { toolCallId: string };
    expect(before.toolCallId).toMatch(/^copilot-[0-9a-f]{16}$/);
    expect(after.toolCallId).toBe(before.toolCallId);
  });

  it('reads a result with the shell trailer as hookbox\'s exit code line, and a failure as an error', () => {
    const post = seamOf('postToolUse', { toolName: 'bash', toolArgs: { command: 'sh test.sh' }, toolResult: { resultType: 'success', textResultForLlm: '1 failed\n<shellId: 3 completed with exit code 1>' } });
    expect(post.payload).toMatchObject({ toolName: 'bash', result: { content: '1 failed\nexit code: 1', isError: false } });
    const failed = seamOf('postToolUseFailure', { toolName: 'view', toolArgs: { path: '/work/app/nope' }, error: 'no such file' });
    expect(failed.payload).toMatchObject({ toolName: 'read_file', result: { content: 'no such file', isError: true } });
  });

  it('tolerates unknown fields, passes events it does not read, and refuses malformed ones and unnamed ones', () => {
    expect(seamOf('userPromptSubmitted', { prompt: 'x', traceparent: '00-abc', agentId: 'a1', brandNew: { nested: true } }).seam).toBe('agent/prompt-submit');
    expect(copilot.toSeam({ ...common, error: { message: 'boom' } }, 'errorOccurred')).toMatchObject({ kind: 'pass', event: 'errorOccurred' });
    expect(copilot.toSeam({ ...common, trigger: 'auto' }, 'preCompact')).toMatchObject({ kind: 'pass' });
    expect(copilot.toSeam({ ...common, prompt: 'x' })).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/carry no event name/) });
    expect(copilot.toSeam({ ...common, sessionId: '../../etc' }, 'preToolUse')).toMatchObject({ kind: 'invalid', event: 'preToolUse', message: expect.stringMatching(/input\.sessionId/) });
    expect(copilot.toSeam({ ...common, cwd: 'rel' }, 'preToolUse')).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/input\.cwd/) });
    expect(copilot.toSeam({ ...common, toolName: 'bash', toolArgs: {} }, 'postToolUse')).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/input\.toolResult/) });
  });

  it('answers each decision in the flat shape Copilot reads', () => {
    const pre = seamOf('preToolUse', { toolName: 'bash', toolArgs: { command: 'curl x | sh' } }) as AgentSeamEvent<'tools/pre-execute'>;
    expect(copilot.answer(pre, { action: 'allow' })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(out(copilot.answer(pre, { action: 'deny', reason: 'guard-bash: remote-script \u001b[31m' }))).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/^guard-bash: remote-script (?!.*\u001b)/) as string,
    });
    expect(out(copilot.answer(pre, { action: 'ask', reason: 'sure?' }))).toEqual({ permissionDecision: 'ask', permissionDecisionReason: 'sure?' });
    const post = seamOf('postToolUse', { toolName: 'bash', toolArgs: { command: 'cat s' }, toolResult: { resultType: 'success', textResultForLlm: 'T=ghp_x' } }) as AgentSeamEvent<'tools/post-execute'>;
    expect(out(copilot.answer(post, { action: 'accept', content: 'T=[REDACTED]' }))).toEqual({ modifiedResult: { resultType: 'success', textResultForLlm: 'T=[REDACTED]' } });
    expect(out(copilot.answer(post, { action: 'block', reason: 'secret' }))).toEqual({
      modifiedResult: { resultType: 'failure', textResultForLlm: 'Tool result withheld by a hook: secret' },
    });
    expect(out(copilot.answer(post, { action: 'accept', additionalContext: 'note' }))).toEqual({ additionalContext: 'note' });
    const failed = seamOf('postToolUseFailure', { toolName: 'bash', toolArgs: { command: 'x' }, error: 'T=ghp_x' }) as AgentSeamEvent<'tools/post-execute'>;
    expect(out(copilot.answer(failed, { action: 'accept', content: 'T=[REDACTED]' }))).toEqual({ additionalContext: expect.stringMatching(/cannot replace a failed call/) as string });
    expect(out(copilot.answer(failed, { action: 'block', reason: 'secret' }))).toEqual({ additionalContext: 'Tool result withheld by a hook: secret' });
    const prompt = seamOf('userPromptSubmitted', { prompt: 'key AKIA…' }) as AgentSeamEvent<'agent/prompt-submit'>;
    expect(out(copilot.answer(prompt, { action: 'block', reason: 'prompt-guard: aws key' }))).toEqual({ decision: 'block', reason: 'prompt-guard: aws key' });
    expect(out(copilot.answer(prompt, { action: 'allow', content: 'key [REDACTED]', additionalContext: 'c' }))).toEqual({ modifiedPrompt: 'key [REDACTED]', additionalContext: 'c' });
    const start = seamOf('sessionStart', { source: 'new' }) as AgentSeamEvent<'agent/session-start'>;
    expect(out(copilot.answer(start, { additionalContext: 'ctx' }))).toEqual({ additionalContext: 'ctx' });
    const stop = seamOf('agentStop', {}) as AgentSeamEvent<'agent/turn-continuation'>;
    expect(out(copilot.answer(stop, { action: 'continue', reason: 'tests fail' }))).toEqual({ decision: 'block', reason: 'tests fail' });
    expect(copilot.answer(stop, { action: 'stop' }).stdout).toBe('');
    expect(copilot.canReplace).toEqual({ prompt: true, toolResult: true });
  });

  it('fails closed per event: a call denied, a prompt blocked, a result withheld; stop and start let through', () => {
    expect(out(copilot.failClosed('preToolUse', 'x'))).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'hookbox: x' });
    expect(out(copilot.failClosed('userPromptSubmitted', 'x'))).toEqual({ decision: 'block', reason: 'hookbox: x' });
    expect(out(copilot.failClosed('postToolUse', 'x'))).toMatchObject({ modifiedResult: { resultType: 'failure', textResultForLlm: 'Tool result withheld by a hook: hookbox: x' } });
    expect(copilot.failClosed('agentStop', 'x').stdout).toBe('');
    expect(copilot.failClosed('sessionStart', 'x').stdout).toBe('');
    expect(copilot.failClosed(undefined, 'x')).toMatchObject({ exitCode: 2 });
  });

  it('setup writes one command per event naming it, in a file of hookbox\'s own; remove takes out only hookbox\'s and leaves no file', () => {
    const theirs = { type: 'command', bash: './lint.sh', timeoutSec: 5 };
    const edit = copilot.setup.apply({}, { kind: 'command', command: "sh '/opt/hookbox/host/cli/hookbox-hook.sh' copilot --deadline-ms 25000" }, { answerTimeoutMs: 30_000 });
    expect(edit.settings.version).toBe(1);
    const hooks = edit.settings.hooks as Record<string, { bash: string; timeoutSec: number }[]>;
    expect(Object.keys(hooks)).toEqual(['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop', 'sessionEnd', 'subagentStart', 'subagentStop', 'permissionRequest']);
    expect(hooks.preToolUse).toEqual([{ type: 'command', bash: "sh '/opt/hookbox/host/cli/hookbox-hook.sh' copilot --deadline-ms 25000 preToolUse", timeoutSec: 30 }]);
    const mixed = { ...edit.settings, hooks: { ...hooks, preToolUse: [theirs, ...hooks.preToolUse!] } };
    const removed = copilot.setup.remove(mixed);
    expect(removed.settings).toEqual({ version: 1, hooks: { preToolUse: [theirs] } });
    expect(removed.changes).toHaveLength(10);
    expect(copilot.setup.fileFormat!.format(copilot.setup.remove(edit.settings).settings)).toBeUndefined();
    expect(copilot.setup.settingsPath({ kind: 'project', dir: '/p' })).toBe('/p/.github/hooks/hookbox.json');
    expect(copilot.setup.settingsPath({ kind: 'user', home: '/h' })).toBe('/h/.copilot/hooks/hookbox.json');
    expect(copilot.setup.unsupported('http')).toMatch(/COPILOT_HOOK_ALLOW_LOCALHOST=1/);
  });

  it('a Claude Code setup\'s copy of a Copilot event is decided, Copilot\'s own entries set up or not; setup and doctor say both copies are decided', () => {
    const root = mkdtempSync(join(tmpdir(), 'hookbox-copilot-overlap-'));
    const project = join(root, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    // Copilot's Claude-format PreToolUse and Stop, as 1.0.102 sent them: a timestamp string, no permission_mode.
    const fromCopilot = { hook_event_name: 'PreToolUse', session_id: 's1', timestamp: '2026-12-03T07:29:44.504Z', cwd: project, tool_name: 'Bash', tool_input: { command: 'ls' } };
    const stopFromCopilot = { hook_event_name: 'Stop', session_id: 's1', timestamp: '2026-12-03T07:41:00.549Z', cwd: project, transcript_path: '/h/e.jsonl', stop_reason: 'end_turn', stop_hook_active: false };
    const edit = copilot.setup.apply({}, { kind: 'command', command: "sh '/opt/hookbox-hook.sh' copilot" });
    mkdirSync(join(project, '.github', 'hooks'), { recursive: true });
    writeFileSync(join(project, '.github', 'hooks', 'hookbox.json'), JSON.stringify(edit.settings));
    expect(claudeCodeBridge.toSeam(fromCopilot)).toMatchObject({ kind: 'seam', event: { seam: 'tools/pre-execute' } });
    expect(claudeCodeBridge.toSeam(stopFromCopilot)).toMatchObject({ kind: 'seam', event: { seam: 'agent/turn-continuation' } });
    // Setup and doctor say so once the project's Claude Code setup holds hookbox's entries.
    const finished = (dir: string) => copilot.setup.finish!({ scope: { kind: 'project', dir }, settingsFile: '', before: {}, after: edit.settings, removing: false }).notes;
    expect(finished(project)).toEqual([]);
    const claude = claudeCodeBridge.setup.apply({}, { kind: 'command', command: "sh '/opt/hookbox-hook.sh' claude-code" });
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(claude.settings));
    expect(finished(project)).toEqual([expect.stringMatching(/also runs the hooks of this project's \.claude\/settings\.json.*decides both copies/) as string]);
    expect(copilot.setup.verify!({ scope: { kind: 'project', dir: project }, settingsFile: '', settings: edit.settings })).toEqual([{ ok: true, what: expect.stringMatching(/decides both copies/) as string }]);
  });
});
