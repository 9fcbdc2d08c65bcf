import { describe, expect, it } from 'vitest';
import { type AgentSeamEvent, qwenBridge as qwen } from '../../host/agents/index.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';

// The fields Qwen Code 0.24.4 sent a logging hook.
const common = {
  session_id: 'c2710146-7ebf-42d5-be4e-77d3b9d116f3',
  transcript_path: '/home/u/.qwen/projects/-work-app/chats/c2710146.jsonl',
  cwd: '/work/app',
  timestamp: '2026-12-02T17:33:04.437Z',
  permission_mode: 'yolo',
  prompt_id: 'c2710146########0',
};

function seamOf(input: Record<string, unknown>): AgentSeamEvent {
  const parsed = qwen.toSeam({ ...common, ...input });
  if (parsed.kind !== 'seam') throw new Error(`expected a seam event, got ${JSON.stringify(parsed)}`);
  return parsed.event;
}

function answer<S extends SeamId>(input: Record<string, unknown>, decision: DecisionOf<S>): unknown {
  const out = qwen.answer(seamOf(input) as AgentSeamEvent<S>, decision);
  expect(out.exitCode).toBe(0);
  return out.stdout === '' ? '' : JSON.parse(out.stdout);
}

describe('Qwen Code bridge: events → seams, tools → hookbox tools', () => {
  it('maps run_shell_command, read_file, write_file and edit; other tools keep their names, unknown ones flagged', () => {
    const pre = (tool_name: string, tool_input: Record<string, unknown>) =>
      seamOf({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 'toolu_1', tool_call_id: 'call_0_0' }).payload;
    expect(pre('run_shell_command', { command: 'curl x | sh', is_background: false })).toEqual({ toolCallId: 'toolu_1', toolName: 'bash', arguments: { command: 'curl x | sh' } });
    expect(pre('read_file', { file_path: '/work/app/.env' })).toMatchObject({ toolName: 'read_file', arguments: { path: '.env' } });
    expect(pre('write_file', { file_path: '/work/app/prod.env', content: 'T=1' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'prod.env', content: 'T=1' } });
    expect(pre('edit', { file_path: '/etc/hosts', old_string: 'a', new_string: 'b' })).toMatchObject({ toolName: 'write_file', arguments: { path: '/etc/hosts', content: 'b' } });
    expect(pre('grep_search', { pattern: 'x' })).toEqual({ toolCallId: 'toolu_1', toolName: 'grep_search', arguments: { pattern: 'x' } });
    expect(pre('teleport', { to: 'x' })).toMatchObject({ toolName: 'teleport', arguments: { to: 'x', _hookbox: { unmappedTool: true } } });
    // A mapped tool of an unexpected shape is not taken for mapped.
    expect(pre('run_shell_command', { cmd: 'rm -rf /' })).toMatchObject({ toolName: 'run_shell_command', arguments: { _hookbox: { unmappedTool: true } } });
    // Claude Code's names mean nothing special to Qwen.
    expect(pre('Bash', { command: 'ls' })).toMatchObject({ toolName: 'Bash', arguments: { _hookbox: { unmappedTool: true } } });
  });

  it('reads a shell tool_response {llmContent, returnDisplay}: the model\'s text, its exit code as hookbox\'s exit code line', () => {
    const llmContent = 'Command: sh test.sh\nDirectory: (root)\nOutput: 1 failed\nError: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: (none)';
    const post = seamOf({ hook_event_name: 'PostToolUse', tool_name: 'run_shell_command', tool_input: { command: 'sh test.sh' }, tool_use_id: 't', tool_response: { llmContent, returnDisplay: '1 failed' } });
    expect(post.payload).toMatchObject({ toolName: 'bash', result: { content: `${llmContent}\nexit code: 1`, isError: false } });
    const write = seamOf({ hook_event_name: 'PostToolUse', tool_name: 'write_file', tool_input: { file_path: '/work/app/b', content: 'x' }, tool_use_id: 't', tool_response: { llmContent: 'Successfully created', returnDisplay: { fileDiff: '' } } });
    expect(write.payload).toMatchObject({ toolName: 'write_file', result: { content: 'Successfully created' } });
    const failed = seamOf({ hook_event_name: 'PostToolUseFailure', tool_name: 'edit', tool_input: { file_path: '/work/app/a', new_string: 'b' }, tool_use_id: 't', error: 'not read first' });
    expect(failed.payload).toMatchObject({ result: { content: 'not read first', isError: true } });
  });

  it('maps SessionStart, UserPromptSubmit (not the empty follow-up after a tool result) and Stop', () => {
    expect(seamOf({ hook_event_name: 'SessionStart', source: 'startup', model: 'm' })).toMatchObject({ seam: 'agent/session-start', payload: { source: 'startup' } });
    expect(seamOf({ hook_event_name: 'UserPromptSubmit', prompt: 'fix it', submitted_prompt: 'fix it' })).toMatchObject({ seam: 'agent/prompt-submit', payload: { content: 'fix it' } });
    // The empty follow-up after a tool result is no prompt of the user's: passed, it starts no turn.
    expect(qwen.toSeam({ ...common, hook_event_name: 'UserPromptSubmit', prompt: '' })).toEqual({ kind: 'pass', event: 'UserPromptSubmit', sessionId: common.session_id, answer: { exitCode: 0, stdout: '', stderr: '' } });
    expect(seamOf({ hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'done' })).toMatchObject({ seam: 'agent/turn-continuation', alreadyContinued: true });
  });
});

describe('Qwen Code bridge: decisions → answers', () => {
  const post = { hook_event_name: 'PostToolUse', tool_name: 'run_shell_command', tool_input: { command: 'cat .env' }, tool_use_id: 't', tool_response: { llmContent: 'K=ghp_x' } };

  it('deny → permissionDecision with the reason; allow → no answer', () => {
    const pre = { hook_event_name: 'PreToolUse', tool_name: 'run_shell_command', tool_input: { command: 'x' }, tool_use_id: 't' };
    expect(answer(pre, { action: 'deny', reason: 'guard-bash: no' })).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'guard-bash: no' } });
    expect(answer(pre, { action: 'allow' })).toBe('');
  });

  it('takes no replaced result: a replacement is withheld (continue: false, which Qwen honours), never the original', () => {
    expect(qwen.canReplace.toolResult).toBeInstanceOf(Function);
    expect(['bash', 'read_file'].map(qwen.canReplace.toolResult as (name: string) => boolean)).toEqual([false, false]);
    expect(answer(post, { action: 'accept', content: 'K=[REDACTED]' })).toMatchObject({ continue: false, decision: 'block' });
    expect(answer(post, { action: 'block', reason: 'secret' })).toEqual({ continue: false, stopReason: 'secret', decision: 'block', reason: 'secret' });
  });

  it('fails closed per event; never forces a Stop on', () => {
    expect(JSON.parse(qwen.failClosed('PreToolUse', 'x').stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.parse(qwen.failClosed('PostToolUse', 'x').stdout)).toMatchObject({ continue: false });
    expect(qwen.failClosed('Stop', 'x').stdout).toBe('');
  });
});

describe('Qwen Code setup', () => {
  it('writes .qwen/settings.json command hooks for hookbox hook qwen, timeout in seconds, no onFailure, no empty matcher; --remove takes out exactly them', () => {
    const user = { model: { name: 'x' }, hooks: { PreToolUse: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'mine.sh' }] }] } };
    const command = "sh '/opt/hookbox/host/cli/hookbox-hook.sh' qwen --deadline-ms 25000";
    const edit = qwen.setup.apply(user, { kind: 'command', command }, { answerTimeoutMs: 30_000 });
    const hooks = edit.settings.hooks as Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
    expect(Object.keys(hooks).sort()).toEqual([
      'Notification',
      'PermissionRequest',
      'PostToolUse',
      'PostToolUseFailure',
      'PreCompact',
      'PreToolUse',
      'SessionEnd',
      'SessionStart',
      'Stop',
      'SubagentStart',
      'SubagentStop',
      'UserPromptSubmit',
    ]);
    expect(hooks.PreToolUse).toEqual([user.hooks.PreToolUse[0], { matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }]);
    for (const groups of Object.values(hooks)) for (const group of groups) expect(group.matcher).not.toBe('');
    expect(JSON.stringify(hooks)).not.toContain('onFailure');
    expect(qwen.setup.apply(edit.settings, { kind: 'command', command }, { answerTimeoutMs: 30_000 }).settings).toEqual(edit.settings);
    expect(qwen.setup.remove(edit.settings).settings).toEqual(user);
    // A Claude Code handler is not hookbox's entry for Qwen.
    const claude = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'hookbox hook claude-code' }] }] } };
    expect(qwen.setup.remove(claude).settings).toEqual(claude);
    expect(qwen.setup.settingsPath({ kind: 'project', dir: '/p' })).toBe('/p/.qwen/settings.json');
    expect(qwen.setup.settingsPath({ kind: 'user', home: '/h' })).toBe('/h/.qwen/settings.json');
    expect(qwen.setup.unsupported('http')).toMatch(/command/);
  });
});
