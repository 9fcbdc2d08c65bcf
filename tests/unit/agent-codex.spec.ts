/**
 * The Codex bridge's pure parts: the payloads are the ones the real codex
 * 0.169.0 wrote to a hook's stdin (captured against the mock model), the
 * answers the shapes it was seen to honour.
 */
import { describe, expect, it } from 'vitest';
import type { AgentSeamEvent } from '../../host/agents/agent-bridge.ts';
import { codexBridge } from '../../host/agents/codex/bridge.ts';
import { patchFileChanges } from '../../host/agents/codex/patch.ts';
import { fromCodexTool } from '../../host/agents/codex/tools.ts';
import { canonicalJson, codexHookHash, codexHookKey } from '../../host/agents/codex/trust.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';
import { answerJsonOf, seamCall } from '../helpers/agent-bridge-calls.ts';

const CWD = '/work/project';
const base = {
  session_id: '01a23041-b8e2-7e41-8317-a22b12890507',
  transcript_path: '/home/u/.codex/sessions/2026/12/01/rollout.jsonl',
  cwd: CWD,
  model: 'gpt-5.5',
  permission_mode: 'bypassPermissions',
};
const turn = { ...base, turn_id: '01a23041-b98b-75b2-9b42-a196958d454a' };

const seam = (input: unknown) => seamCall(codexBridge, input);
const answerJson = <S extends SeamId>(event: AgentSeamEvent<S>, decision: DecisionOf<S>): unknown => answerJsonOf(codexBridge, event, decision);

describe('apply_patch envelope → the files it touches', () => {
  it('lists added, updated, deleted and moved paths with what is written to each', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: .env',
      '+TOKEN=1',
      '+MORE=2',
      '*** Update File: src/a.ts',
      '@@',
      '-old',
      '+new',
      '*** Delete File: gone.txt',
      '*** Update File: old/name.ts',
      '*** Move to: new/name.ts',
      '@@',
      '+moved',
      '*** End Patch',
      '',
    ].join('\n');
    expect(patchFileChanges(patch)).toEqual([
      { kind: 'add', path: '.env', content: 'TOKEN=1\nMORE=2\n' },
      { kind: 'update', path: 'src/a.ts', content: 'new' },
      { kind: 'delete', path: 'gone.txt', content: '' },
      { kind: 'move-from', path: 'old/name.ts', content: '' },
      { kind: 'move-to', path: 'new/name.ts', content: 'moved' },
    ]);
  });

  it('reads CRLF patches and finds nothing in text without headers', () => {
    expect(patchFileChanges('*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n')).toEqual([{ kind: 'delete', path: 'x', content: '' }]);
    expect(patchFileChanges('just some text')).toEqual([]);
  });
});

describe('Codex tools → hookbox tools', () => {
  it('maps the shell under every name Codex may use to bash.command', () => {
    expect(fromCodexTool('Bash', { command: 'ls -la' }, CWD)).toEqual([{ toolName: 'bash', arguments: { command: 'ls -la' } }]);
    expect(fromCodexTool('exec_command', { cmd: 'rm -rf /' }, CWD)).toEqual([{ toolName: 'bash', arguments: { command: 'rm -rf /' } }]);
    expect(fromCodexTool('shell', { command: ['bash', '-lc', "echo 'hi there'"] }, CWD)).toEqual([
      { toolName: 'bash', arguments: { command: `bash -lc 'echo '\\''hi there'\\'''` } },
    ]);
  });

  it('maps a patch to one write_file per touched path, relative inside the cwd, absolute outside', () => {
    const patch = `*** Begin Patch\n*** Update File: ${CWD}/.env\n@@\n+X=1\n*** Add File: /etc/passwd\n+root\n*** End Patch\n`;
    expect(fromCodexTool('apply_patch', { command: patch }, CWD)).toEqual([
      { toolName: 'write_file', arguments: { path: '.env', content: 'X=1' } },
      { toolName: 'write_file', arguments: { path: '/etc/passwd', content: 'root\n' } },
    ]);
  });

  it('keeps unknown tools, and a patch without headers, as Codex named them', () => {
    expect(fromCodexTool('view_image', { path: 'a.png' }, CWD)).toEqual([{ toolName: 'view_image', arguments: { path: 'a.png' } }]);
    expect(fromCodexTool('apply_patch', { command: 'nonsense' }, CWD)).toEqual([{ toolName: 'apply_patch', arguments: { command: 'nonsense' } }]);
  });
});

describe('Codex events → seams (payloads as codex 0.169.0 sends them)', () => {
  it('SessionStart, UserPromptSubmit and Stop', () => {
    expect(seam({ ...base, hook_event_name: 'SessionStart', source: 'startup' }).event).toMatchObject({ seam: 'agent/session-start', payload: { source: 'startup' }, cwd: CWD });
    expect(seam({ ...turn, hook_event_name: 'UserPromptSubmit', prompt: 'please clean up' }).event).toMatchObject({
      seam: 'agent/prompt-submit',
      payload: { content: 'please clean up', source: 'api' },
    });
    expect(seam({ ...turn, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'all done' }).event).toMatchObject({
      seam: 'agent/turn-continuation',
      payload: { continuations: 0, lastAssistantText: 'all done' },
      alreadyContinued: true,
    });
  });

  it('PreToolUse Bash → bash; apply_patch → a write per file, decided together', () => {
    const bash = seam({ ...turn, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf victim.txt' }, tool_use_id: 'call_0_0' });
    expect(bash.event.payload).toEqual({ toolCallId: 'call_0_0', toolName: 'bash', arguments: { command: 'rm -rf victim.txt' } });
    expect(bash.more).toBeUndefined();
    const patch = '*** Begin Patch\n*** Add File: notes.md\n+hi\n*** Add File: .env\n+SECRET=1\n*** End Patch\n';
    const both = seam({ ...turn, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch }, tool_use_id: 'call_1_0' });
    expect(both.event.payload).toEqual({ toolCallId: 'call_1_0', toolName: 'write_file', arguments: { path: 'notes.md', content: 'hi\n' } });
    expect(both.more?.map((event) => event.payload)).toEqual([{ toolCallId: 'call_1_0#2', toolName: 'write_file', arguments: { path: '.env', content: 'SECRET=1\n' } }]);
  });

  it('PostToolUse carries the output string as the result', () => {
    const post = seam({ ...turn, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'echo hi' }, tool_response: 'hi\n', tool_use_id: 'call_2_0' });
    expect(post.event.payload).toEqual({ toolCallId: 'call_2_0', toolName: 'bash', arguments: { command: 'echo hi' }, result: { content: 'hi\n', isError: false } });
  });

  it('passes events it has no seam for, and names what is wrong with a malformed one', () => {
    expect(codexBridge.toSeam({ ...turn, hook_event_name: 'PostCompact', trigger: 'auto' })).toMatchObject({ kind: 'pass', answer: { exitCode: 0, stdout: '' } });
    expect(codexBridge.toSeam({ ...turn, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'x' })).toMatchObject({ kind: 'invalid', event: 'PreToolUse', message: expect.stringContaining('input.tool_input') });
    expect(codexBridge.toSeam({ ...turn, session_id: '../../etc', hook_event_name: 'Stop' })).toMatchObject({ kind: 'invalid', message: expect.stringContaining('input.session_id') });
    expect(codexBridge.toSeam({ ...turn, cwd: 'relative', hook_event_name: 'Stop' })).toMatchObject({ kind: 'invalid', message: expect.stringContaining('input.cwd') });
  });
});

describe('seam decisions → Codex answers', () => {
  const pre = seam({ ...turn, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'x' }, tool_use_id: 'c' }).event as AgentSeamEvent<'tools/pre-execute'>;
  const post = seam({ ...turn, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'x' }, tool_response: 'out', tool_use_id: 'c' }).event as AgentSeamEvent<'tools/post-execute'>;
  const prompt = seam({ ...turn, hook_event_name: 'UserPromptSubmit', prompt: 'p' }).event as AgentSeamEvent<'agent/prompt-submit'>;
  const stop = seam({ ...turn, hook_event_name: 'Stop', stop_hook_active: false }).event as AgentSeamEvent<'agent/turn-continuation'>;
  const start = seam({ ...base, hook_event_name: 'SessionStart', source: 'startup' }).event as AgentSeamEvent<'agent/session-start'>;

  it('pre-tool: deny with the reason; ask is never weaker than a deny; allow says nothing', () => {
    expect(answerJson(pre, { action: 'deny', reason: 'no' })).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    expect(answerJson(pre, { action: 'ask', reason: 'sure?' })).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('sure?') } });
    expect(answerJson(pre, { action: 'allow' })).toBeUndefined();
  });

  it('post-tool: block, replaced content (as the blocking reason the model reads), context', () => {
    expect(answerJson(post, { action: 'block', reason: 'hidden' })).toEqual({ decision: 'block', reason: 'hidden' });
    expect(answerJson(post, { action: 'accept', content: 'TOKEN=[REDACTED:github-token]', additionalContext: 'redacted 1' })).toEqual({
      decision: 'block',
      reason: 'TOKEN=[REDACTED:github-token]',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'redacted 1' },
    });
    expect(answerJson(post, { action: 'accept', additionalContext: 'note' })).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'note' } });
    expect(answerJson(post, { action: 'accept' })).toBeUndefined();
  });

  it('prompt, continuation and session start; hook text has its terminal controls escaped', () => {
    expect(answerJson(prompt, { action: 'block', reason: 'secret\u001b[2J' })).toEqual({ decision: 'block', reason: 'secret\\x1b[2J' });
    expect(answerJson(prompt, { action: 'allow', additionalContext: 'conventions' })).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'conventions' } });
    expect(answerJson(stop, { action: 'continue', reason: 'tests fail' })).toEqual({ decision: 'block', reason: 'tests fail' });
    expect(answerJson(stop, { action: 'stop' })).toBeUndefined();
    expect(answerJson(start, { additionalContext: 'rules' })).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'rules' } });
  });

  it('fails closed: a tool call denied, a prompt or result blocked, a turn never forced on, an unreadable event exit 2', () => {
    expect(JSON.parse(codexBridge.failClosed('PreToolUse', 'boom').stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.parse(codexBridge.failClosed('UserPromptSubmit', 'boom').stdout)).toMatchObject({ decision: 'block' });
    expect(JSON.parse(codexBridge.failClosed('PostToolUse', 'boom').stdout)).toMatchObject({ decision: 'block' });
    expect(codexBridge.failClosed('Stop', 'boom')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(codexBridge.failClosed(undefined, 'boom')).toMatchObject({ exitCode: 2, stderr: 'hookbox: boom\n' });
  });
});

describe("Codex's hook trust", () => {
  it('keys a handler by file, event label and position', () => {
    expect(codexHookKey('/p/.codex/hooks.json', 'PreToolUse', 1, 0)).toBe('/p/.codex/hooks.json:pre_tool_use:1:0');
    expect(codexHookKey('/h/hooks.json', 'UserPromptSubmit', 0, 2)).toBe('/h/hooks.json:user_prompt_submit:0:2');
  });

  it('hashes the normalized identity: sorted compact JSON, timeout defaulted, no matcher on Stop/UserPromptSubmit', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
    expect(codexHookHash('Stop', '.*', { command: 'x' })).toBe(codexHookHash('Stop', undefined, { command: 'x', timeout: 600 }));
    expect(codexHookHash('PreToolUse', '.*', { command: 'x' })).not.toBe(codexHookHash('PreToolUse', undefined, { command: 'x' }));
    expect(codexHookHash('PreToolUse', undefined, { command: 'x', timeout: 30 })).not.toBe(codexHookHash('PreToolUse', undefined, { command: 'x', timeout: 31 }));
    // A value Codex 0.169.0 accepted (the real-binary suite runs hooks trusted this way, no bypass flag).
    expect(codexHookHash('SessionStart', undefined, { command: 'true', timeout: 5 })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
