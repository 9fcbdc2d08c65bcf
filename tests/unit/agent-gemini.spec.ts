/**
 * The Gemini CLI bridge's pure parts: payloads as the real gemini 0.61.0
 * wrote them to a hook's stdin (captured against the mock model), answers
 * in the shapes it was seen to honour.
 */
import { describe, expect, it } from 'vitest';
import type { AgentSeamEvent } from '../../host/agents/agent-bridge.ts';
import { geminiBridge } from '../../host/agents/gemini/bridge.ts';
import { fromGeminiTool, fromGeminiToolResponse } from '../../host/agents/gemini/tools.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';
import { answerJsonOf, seamCall } from '../helpers/agent-bridge-calls.ts';

const CWD = '/tmp/agx/gemproj-rHjSSP';
const base = { session_id: '9cfeda0f-0d63-4946-bf94-2f71c365f07d', transcript_path: '/h/.gemini/tmp/x/chats/session.json', cwd: CWD, timestamp: '2026-12-01T06:32:53.469Z' };

const seam = (input: unknown) => seamCall(geminiBridge, input).event;
const answerJson = <S extends SeamId>(event: AgentSeamEvent<S>, decision: DecisionOf<S>): unknown => answerJsonOf(geminiBridge, event, decision);

describe('Gemini CLI tools → hookbox tools', () => {
  it('maps the shell and the file tools (replace is a write to its file)', () => {
    expect(fromGeminiTool('run_shell_command', { command: 'rm -rf /', description: 'clean' }, CWD)).toEqual({ toolName: 'bash', arguments: { command: 'rm -rf /' } });
    expect(fromGeminiTool('read_file', { file_path: `${CWD}/src/a.ts` }, CWD)).toEqual({ toolName: 'read_file', arguments: { path: 'src/a.ts' } });
    expect(fromGeminiTool('write_file', { file_path: `${CWD}/.env`, content: 'X=1' }, CWD)).toEqual({ toolName: 'write_file', arguments: { path: '.env', content: 'X=1' } });
    expect(fromGeminiTool('replace', { file_path: '/etc/hosts', old_string: 'a', new_string: 'b', instruction: 'swap' }, CWD)).toEqual({
      toolName: 'write_file',
      arguments: { path: '/etc/hosts', content: 'b' },
    });
    expect(fromGeminiTool('list_directory', { dir_path: CWD }, CWD)).toEqual({ toolName: 'list_dir', arguments: { path: CWD } });
    expect(fromGeminiTool('google_web_search', { query: 'x' }, CWD)).toEqual({ toolName: 'google_web_search', arguments: { query: 'x' } });
    expect(fromGeminiTool('write_file', { file_path: 'a' }, CWD)).toEqual({ toolName: 'write_file', arguments: { file_path: 'a', _hookbox: { unmappedTool: true } } });
  });

  it("gives a shell result hookbox's `exit code: N` ending from Gemini's `Exit Code:` line (none = 0)", () => {
    const ok = { llmContent: '<untrusted_context>\nOutput: hi\nProcess Group PGID: 5968\n</untrusted_context>', returnDisplay: 'hi' };
    expect(fromGeminiToolResponse('run_shell_command', ok)).toEqual({ content: `${ok.llmContent}\nexit code: 0`, isError: false });
    const failed = { llmContent: 'Output: 1 failed\nExit Code: 1\nProcess Group PGID: 7', returnDisplay: '' };
    expect(fromGeminiToolResponse('run_shell_command', failed)).toEqual({ content: `${failed.llmContent}\nexit code: 1`, isError: true });
    expect(fromGeminiToolResponse('run_shell_command', { llmContent: 'Output: \nSignal: 9' })).toEqual({ content: 'Output: \nSignal: 9', isError: false });
    expect(fromGeminiToolResponse('read_file', { llmContent: 'text', error: { message: 'x' } })).toEqual({ content: 'text', isError: true });
  });
});

describe('Gemini CLI events → seams', () => {
  it('maps the five events, with one tool call id for a call before and after', () => {
    expect(seam({ ...base, hook_event_name: 'SessionStart', source: 'startup' })).toMatchObject({ seam: 'agent/session-start', payload: { source: 'startup' } });
    expect(seam({ ...base, hook_event_name: 'BeforeAgent', prompt: 'go' })).toMatchObject({ seam: 'agent/prompt-submit', payload: { content: 'go', source: 'api' } });
    const before = seam({ ...base, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'echo SECRETOUT' } });
    const after = seam({
      ...base,
      hook_event_name: 'AfterTool',
      tool_name: 'run_shell_command',
      tool_input: { command: 'echo SECRETOUT' },
      tool_response: { llmContent: 'Output: SECRETOUT', returnDisplay: 'SECRETOUT' },
    });
    expect(before).toMatchObject({ seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: { command: 'echo SECRETOUT' } } });
    expect(after).toMatchObject({ seam: 'tools/post-execute', payload: { toolName: 'bash', result: { content: 'Output: SECRETOUT\nexit code: 0', isError: false } } });
    expect((after.payload as { toolCallId: string }).toolCallId).toBe((before.payload as { toolCallId: string }).toolCallId);
    expect(seam({ ...base, hook_event_name: 'AfterAgent', prompt: 'go', prompt_response: 'first done\nsecond done', stop_hook_active: true })).toMatchObject({
      seam: 'agent/turn-continuation',
      payload: { continuations: 0, lastAssistantText: 'first done\nsecond done' },
      alreadyContinued: true,
    });
  });

  it('passes other events; names what is wrong with a malformed one', () => {
    expect(geminiBridge.toSeam({ ...base, hook_event_name: 'BeforeModel', llm_request: {} })).toMatchObject({ kind: 'pass' });
    expect(geminiBridge.toSeam({ ...base, hook_event_name: 'BeforeTool', tool_name: 'x' })).toMatchObject({ kind: 'invalid', message: expect.stringContaining('input.tool_input') });
  });
});

describe('seam decisions → Gemini CLI answers', () => {
  const pre = seam({ ...base, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'x' } }) as AgentSeamEvent<'tools/pre-execute'>;
  const post = seam({ ...base, hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: 'x' }, tool_response: { llmContent: 'o' } }) as AgentSeamEvent<'tools/post-execute'>;
  const prompt = seam({ ...base, hook_event_name: 'BeforeAgent', prompt: 'p' }) as AgentSeamEvent<'agent/prompt-submit'>;
  const stop = seam({ ...base, hook_event_name: 'AfterAgent', prompt_response: 'r' }) as AgentSeamEvent<'agent/turn-continuation'>;

  it('deny, and ask as a deny; allow says nothing', () => {
    expect(answerJson(pre, { action: 'deny', reason: 'no' })).toEqual({ decision: 'deny', reason: 'no' });
    expect(answerJson(pre, { action: 'ask' })).toMatchObject({ decision: 'deny' });
    expect(answerJson(pre, { action: 'allow', reason: 'fine' })).toBeUndefined();
  });

  it('post-tool: block; replaced content as the deny reason, context riding along; context alone', () => {
    expect(answerJson(post, { action: 'block', reason: 'hidden' })).toEqual({ decision: 'deny', reason: 'hidden' });
    expect(answerJson(post, { action: 'accept', content: '[REDACTED:github-token]', additionalContext: 'redacted 1' })).toEqual({ decision: 'deny', reason: '[REDACTED:github-token]\n\nredacted 1' });
    expect(answerJson(post, { action: 'accept', additionalContext: 'note' })).toEqual({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'note' } });
  });

  it('prompt block and context; continuation as an AfterAgent deny', () => {
    expect(answerJson(prompt, { action: 'block', reason: 'secret' })).toEqual({ decision: 'deny', reason: 'secret' });
    expect(answerJson(prompt, { action: 'allow', additionalContext: 'c' })).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'c' } });
    expect(answerJson(stop, { action: 'continue', reason: 'tests fail' })).toEqual({ decision: 'deny', reason: 'tests fail' });
    expect(answerJson(stop, { action: 'stop' })).toBeUndefined();
  });

  it('fails closed on tools and prompts, never forces a retry', () => {
    for (const event of ['BeforeTool', 'BeforeAgent', 'AfterTool']) expect(JSON.parse(geminiBridge.failClosed(event, 'x').stdout)).toMatchObject({ decision: 'deny' });
    expect(geminiBridge.failClosed('AfterAgent', 'x').stdout).toBe('');
    expect(geminiBridge.failClosed(undefined, 'x').exitCode).toBe(2);
  });
});
