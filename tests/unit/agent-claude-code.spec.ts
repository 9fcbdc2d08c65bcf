import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_EVENTS, type AgentSeamEvent, claudeCodeBridge as cc } from '../../host/agents/index.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';

const common = { session_id: 'sess-1', transcript_path: '/home/u/.claude/projects/x.jsonl', cwd: '/work/app', permission_mode: 'default' };

function seamOf(input: Record<string, unknown>): AgentSeamEvent {
  const parsed = cc.toSeam({ ...common, ...input });
  if (parsed.kind !== 'seam') throw new Error(`expected a seam event, got ${JSON.stringify(parsed)}`);
  return parsed.event;
}

function answer<S extends SeamId>(input: Record<string, unknown>, decision: DecisionOf<S>): unknown {
  const out = cc.answer(seamOf(input) as AgentSeamEvent<S>, decision);
  expect(out.exitCode).toBe(0);
  return out.stdout === '' ? '' : JSON.parse(out.stdout);
}

describe('Claude Code bridge: events → seams, tools → hookbox tools', () => {
  it('maps Bash, Read, Write, Edit and LS to bash, read_file, write_file, list_dir; other tools keep their names', () => {
    const pre = (tool_name: string, tool_input: Record<string, unknown>) =>
      seamOf({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 'toolu_1' }).payload;
    expect(pre('Bash', { command: 'ls -la', description: 'list', timeout: 5000 })).toEqual({ toolCallId: 'toolu_1', toolName: 'bash', arguments: { command: 'ls -la', timeoutMs: 5000 } });
    expect(pre('Read', { file_path: '/work/app/src/a.ts' })).toMatchObject({ toolName: 'read_file', arguments: { path: 'src/a.ts' } });
    expect(pre('Read', { file_path: '/etc/passwd' })).toMatchObject({ toolName: 'read_file', arguments: { path: '/etc/passwd' } });
    expect(pre('Write', { file_path: '/work/app/b.js', content: 'x' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'b.js', content: 'x' } });
    expect(pre('LS', { path: '/work/app' })).toMatchObject({ toolName: 'list_dir', arguments: { path: '/work/app' } });
    expect(pre('Edit', { file_path: '/work/app/b.js', old_string: 'a', new_string: 'b' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'b.js', content: 'b' } });
    expect(pre('mcp__gh__create_issue', { title: 't' })).toMatchObject({ toolName: 'mcp__gh__create_issue', arguments: { title: 't' } });
  });

  it('decides a Claude-format event without tool_use_id (Copilot CLI, Factory Droid reading a Claude Code setup) on what it carries', () => {
    // As Copilot CLI 1.0.102 sends it: no tool_use_id, transcript_path or permission_mode.
    const bare = { session_id: 'copilot-1', cwd: '/work/app' };
    const pre = cc.toSeam({ ...bare, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    const post = cc.toSeam({ ...bare, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_response: { stdout: '', stderr: '' } });
    const other = cc.toSeam({ ...bare, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    if (pre.kind !== 'seam' || post.kind !== 'seam' || other.kind !== 'seam') throw new Error(`expected seam events: ${JSON.stringify([pre, post, other])}`);
    expect(pre.event.payload).toMatchObject({ toolName: 'bash', arguments: { command: 'rm -rf /' } });
    const id = (event: AgentSeamEvent) => (event.payload as { toolCallId: string }).toolCallId;
    expect(id(pre.event)).toMatch(/^claude-code-[0-9a-f]{16}$/);
    expect(id(post.event)).toBe(id(pre.event)); // pre and post of one call pair up in the session log
    expect(id(other.event)).not.toBe(id(pre.event));
  });

  it('reads Copilot CLI\'s Claude-format events (1.0.102, as logged from the real binary): its file tools\' arguments, tool_result, SessionStart source "new"', () => {
    const bare = { session_id: 'edcb6963-c88c-49a1-babb-57b1d012ad47', cwd: '/work/app', timestamp: '2026-12-02T17:08:31.330Z' };
    const seam = (input: Record<string, unknown>) => {
      const parsed = cc.toSeam({ ...bare, ...input });
      if (parsed.kind !== 'seam') throw new Error(`expected a seam event, got ${JSON.stringify(parsed)}`);
      return parsed.event;
    };
    expect(seam({ hook_event_name: 'SessionStart', source: 'new', initial_prompt: 'do it' })).toMatchObject({ seam: 'agent/session-start', payload: { source: 'startup' } });
    expect(seam({ hook_event_name: 'SessionStart' })).toMatchObject({ payload: { source: 'startup' } });
    const pre = (tool_name: string, tool_input: Record<string, unknown>) => seam({ hook_event_name: 'PreToolUse', tool_name, tool_input }).payload;
    expect(pre('Read', { path: 'a.txt' })).toMatchObject({ toolName: 'read_file', arguments: { path: 'a.txt' } });
    expect(pre('Read', { path: '/work/app/src/a.ts' })).toMatchObject({ toolName: 'read_file', arguments: { path: 'src/a.ts' } });
    expect(pre('Write', { path: 'prod.env', file_text: 'TOKEN=1\n' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'prod.env', content: 'TOKEN=1\n' } });
    expect(pre('Edit', { path: 'a.txt', old_str: 'hi', new_str: 'bye' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'a.txt', content: 'bye' } });
    // A Claude key is never overwritten by a Copilot one.
    expect(pre('Write', { file_path: '/work/app/x', content: 'c', path: '/etc/passwd' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'x', content: 'c' } });
    // Copilot's own tools keep their names, flagged: no guard was written with them in mind.
    expect(pre('read_bash', { shellId: '0' })).toMatchObject({ toolName: 'read_bash', arguments: { shellId: '0', _hookbox: { unmappedTool: true } } });

    const post = (tool_name: string, tool_input: Record<string, unknown>, tool_result: unknown) => seam({ hook_event_name: 'PostToolUse', tool_name, tool_input, tool_result }).payload;
    expect(post('Bash', { command: 'ls' }, { result_type: 'success', text_result_for_llm: 'a.txt\n<shellId: 0 completed with exit code 0>' })).toMatchObject({
      toolName: 'bash',
      result: { content: 'a.txt\nexit code: 0', isError: false },
    });
    expect(post('Bash', { command: 'sh test.sh' }, { result_type: 'success', text_result_for_llm: '1 failed\n<shellId: 3 completed with exit code 1>' })).toMatchObject({
      result: { content: '1 failed\nexit code: 1' },
    });
    expect(post('Read', { path: 'a.txt' }, { result_type: 'success', text_result_for_llm: 'hi\n' })).toMatchObject({ result: { content: 'hi\n', isError: false } });
    expect(post('Bash', { command: 'x' }, { result_type: 'failure', text_result_for_llm: 'boom' })).toMatchObject({ result: { content: 'boom', isError: true } });
    // Neither result field, or a tool_result of the wrong shape: not an event to decide on (it fails closed).
    expect(cc.toSeam({ ...bare, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'x' } })).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/tool_response/) });
    expect(cc.toSeam({ ...bare, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'x' }, tool_result: { text: 1 } })).toMatchObject({ kind: 'invalid' });
  });

  it('turns tool_response and PostToolUseFailure into hookbox tool results', () => {
    const post = seamOf({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 't', tool_response: { stdout: 'ok', stderr: 'warn', interrupted: false, isImage: false } });
    expect(post.payload).toMatchObject({ toolName: 'bash', result: { content: 'ok\nwarn', isError: false } });
    const read = seamOf({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/work/app/.env' }, tool_use_id: 't', tool_response: { type: 'text', file: { filePath: '/work/app/.env', content: 'A=1' } } });
    expect(read.payload).toMatchObject({ toolName: 'read_file', arguments: { path: '.env' }, result: { content: 'A=1', isError: false } });
    const failed = seamOf({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 't', error: 'Exit code 1\nFAIL' });
    expect(failed).toMatchObject({ seam: 'tools/post-execute', payload: { result: { content: 'Exit code 1\nFAIL', isError: true } } });
  });

  it('maps SessionStart, UserPromptSubmit and Stop (stop_hook_active → alreadyContinued)', () => {
    expect(seamOf({ hook_event_name: 'SessionStart', source: 'resume' })).toMatchObject({ seam: 'agent/session-start', payload: { source: 'resume' } });
    expect(seamOf({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' })).toMatchObject({ seam: 'agent/prompt-submit', payload: { content: 'hi' } });
    expect(seamOf({ hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'done' })).toMatchObject({
      seam: 'agent/turn-continuation',
      payload: { continuations: 0, lastAssistantText: 'done' },
      alreadyContinued: true,
    });
  });

  it('refuses a session id that could leave the sessions folder, and a relative cwd, naming the field', () => {
    for (const [field, value] of [['session_id', '../x'], ['session_id', 'a/b'], ['cwd', 'rel/dir']] as const) {
      const parsed = cc.toSeam({ ...common, hook_event_name: 'UserPromptSubmit', prompt: 'x', [field]: value });
      expect(parsed.kind).toBe('invalid');
      if (parsed.kind === 'invalid') expect(parsed.message).toContain(`input.${field}`);
    }
  });

  it('passes events it has no seam for with no opinion', () => {
    expect(cc.toSeam({ ...common, hook_event_name: 'PostCompact', trigger: 'auto' })).toMatchObject({ kind: 'pass', answer: { exitCode: 0, stdout: '' } });
  });
});

describe('Claude Code bridge: decisions → answers', () => {
  const preInput = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'x' }, tool_use_id: 't' };
  it('deny / ask → permissionDecision with the reason; allow → no answer', () => {
    expect(answer(preInput, { action: 'deny', reason: 'no' })).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    expect(answer(preInput, { action: 'ask', reason: 'sure?' })).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'sure?' } });
    expect(answer(preInput, { action: 'allow', reason: 'fine' })).toBe('');
  });

  it('prompt block → decision block; context → additionalContext', () => {
    const prompt = { hook_event_name: 'UserPromptSubmit', prompt: 'p' };
    expect(answer(prompt, { action: 'block', reason: 'secret' })).toEqual({ decision: 'block', reason: 'secret' });
    expect(answer(prompt, { action: 'allow', additionalContext: 'rules' })).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'rules' } });
  });

  it('a blocked tool result ends the turn (continue: false): decision "block" alone would still show the model the output', () => {
    const post = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat .env' }, tool_use_id: 't', tool_response: { stdout: 'A=1' } };
    expect(answer(post, { action: 'block', reason: 'secret' })).toEqual({ continue: false, stopReason: 'secret', decision: 'block', reason: 'secret' });
    expect(answer(post, { action: 'accept', additionalContext: 'note' })).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'note' } });
  });

  it('a replaced Bash or Read result → updatedToolOutput in the tool\'s own shape; other tools cannot take one', () => {
    const bash = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat .env' }, tool_use_id: 't', tool_response: { stdout: 'K=ghp_x' } };
    expect(answer(bash, { action: 'accept', content: 'K=[REDACTED]', additionalContext: 'redacted 1' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: 'K=[REDACTED]', stderr: '', interrupted: false, isImage: false }, additionalContext: 'redacted 1' },
      modifiedResult: { textResultForLlm: 'K=[REDACTED]', resultType: 'success' },
    });
    const read = { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/work/app/.env' }, tool_use_id: 't', tool_response: { type: 'text', file: { filePath: '/work/app/.env', content: 'K=ghp_x' } } };
    expect(answer(read, { action: 'accept', content: 'K=[REDACTED]\nL=2' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { type: 'text', file: { filePath: '/work/app/.env', content: 'K=[REDACTED]\nL=2', numLines: 2, startLine: 1, totalLines: 2 } } },
      modifiedResult: { textResultForLlm: 'K=[REDACTED]\nL=2', resultType: 'success' },
    });
    const replaceable = cc.canReplace.toolResult as (toolName: string) => boolean;
    expect(['bash', 'read_file', 'write_file', 'Agent'].map(replaceable)).toEqual([true, true, false, false]);
  });

  it('Stop: continue → decision block with the reason; stop → no answer', () => {
    const stop = { hook_event_name: 'Stop', stop_hook_active: false };
    expect(answer(stop, { action: 'continue', reason: 'tests fail' })).toEqual({ decision: 'block', reason: 'tests fail' });
    expect(answer(stop, { action: 'stop' })).toBe('');
  });

  it('fails closed per event: deny, block, end the turn; never forces a Stop on', () => {
    expect(JSON.parse(cc.failClosed('PreToolUse', 'x').stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(JSON.parse(cc.failClosed('UserPromptSubmit', 'x').stdout).decision).toBe('block');
    expect(JSON.parse(cc.failClosed('PostToolUse', 'x').stdout).continue).toBe(false);
    expect(cc.failClosed('Stop', 'x')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it.each(['docs/guides/agents.md', 'host/agents/README.md'])('the mapping table in %s is the one in code', (file) => {
    const readme = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    for (const row of CLAUDE_CODE_EVENTS) expect(readme).toContain(`| \`${row.event}\` | \`${row.seam}\` | ${row.answers} |`);
  });
});
