/**
 * Codex tool calls → hookbox tool calls at their edges (write_stdin, a shell
 * call without a usable command, argv quoting, the apply_patch input keys),
 * the bridge's PostToolUse/ask/replaced-output answers, and doctor's probe
 * event, each compared whole.
 */
import { describe, expect, it } from 'vitest';
import type { AgentSeamEvent } from '../../host/agents/agent-bridge.ts';
import { WITHHELD_OUTPUT } from '../../host/agents/bridge-parts.ts';
import { codexBridge } from '../../host/agents/codex/bridge.ts';
import { codexProbe } from '../../host/agents/codex/probe.ts';
import { fromCodexTool } from '../../host/agents/codex/tools.ts';
import { answerJsonOf, seamCall } from '../helpers/agent-bridge-calls.ts';

const CWD = '/work/project';
const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n';
const turn = {
  session_id: '01a23041-b8e2-7e41-8317-a22b12890507',
  transcript_path: '/home/u/.codex/sessions/rollout.jsonl',
  cwd: CWD,
  model: 'gpt-5.5',
  permission_mode: 'default',
  turn_id: 't1',
};

describe('Codex tool calls at their edges', () => {
  it('write_stdin: typed text is a command line; an empty poll passes as write_stdin', () => {
    expect(fromCodexTool('write_stdin', { session_id: 3, chars: 'ls\n' }, CWD)).toStrictEqual([{ toolName: 'bash', arguments: { command: 'ls\n' } }]);
    expect(fromCodexTool('write_stdin', { session_id: 3, chars: '' }, CWD)).toStrictEqual([{ toolName: 'write_stdin', arguments: { session_id: 3, chars: '' } }]);
  });

  it('a shell call without a usable command passes under its own name, flagged unmapped', () => {
    for (const input of [{ timeout: 5 }, { command: [] }, { command: ['ls', 1] }, { command: 7 }]) {
      expect(fromCodexTool('shell', input, CWD)).toStrictEqual([{ toolName: 'shell', arguments: { ...input, _hookbox: { unmappedTool: true } } }]);
    }
  });

  it('quotes each argv word that is not plain', () => {
    expect(fromCodexTool('local_shell', { command: ['echo', 'hi there', 'a/b.c', "it's"] }, CWD)).toStrictEqual([
      { toolName: 'bash', arguments: { command: `echo 'hi there' a/b.c 'it'\\''s'` } },
    ]);
  });

  it('a shell call that applies a patch is bash and its writes, resolved from a cd', () => {
    expect(fromCodexTool('exec_command', { cmd: `cd sub && apply_patch <<'EOF'\n${PATCH}EOF\n` }, CWD)).toStrictEqual([
      { toolName: 'bash', arguments: { command: `cd sub && apply_patch <<'EOF'\n${PATCH}EOF\n` } },
      { toolName: 'write_file', arguments: { path: 'sub/a.txt', content: 'hi\n' } },
    ]);
  });

  it("a patch after a cd that is not at the script's start lands where the cd leads: ../.env from src is the project's .env", () => {
    const cmd = `echo x; cd src && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ../.env\n+K=1\n*** End Patch\nEOF\n`;
    expect(fromCodexTool('exec_command', { cmd }, CWD)).toStrictEqual([
      { toolName: 'bash', arguments: { command: cmd } },
      { toolName: 'write_file', arguments: { path: '.env', content: 'K=1\n' } },
    ]);
  });

  it('a patch after a cd only the shell can follow: each write is flagged workdirUnknown, its path read from the cwd', () => {
    const cmd = `cd "$PKG" && apply_patch <<'EOF'\n${PATCH}EOF\n`;
    expect(fromCodexTool('exec_command', { cmd }, CWD)).toStrictEqual([
      { toolName: 'bash', arguments: { command: cmd } },
      { toolName: 'write_file', arguments: { path: 'a.txt', content: 'hi\n', _hookbox: { workdirUnknown: true } } },
    ]);
  });

  it('apply_patch takes its patch from command, input or patch (the first text), else passes', () => {
    const write = [{ toolName: 'write_file', arguments: { path: 'a.txt', content: 'hi\n' } }];
    expect(fromCodexTool('apply_patch', { input: PATCH }, CWD)).toStrictEqual(write);
    expect(fromCodexTool('apply_patch', { patch: PATCH }, CWD)).toStrictEqual(write);
    expect(fromCodexTool('apply_patch', { command: 5, patch: PATCH }, CWD)).toStrictEqual(write);
    expect(fromCodexTool('apply_patch', { command: 5 }, CWD)).toStrictEqual([{ toolName: 'apply_patch', arguments: { command: 5 } }]);
  });

  it('only apply_patch is read as a patch: another tool with a patch argument passes', () => {
    expect(fromCodexTool('mcp__fs__run', { command: PATCH }, CWD)).toStrictEqual([
      { toolName: 'mcp__fs__run', arguments: { command: PATCH, _hookbox: { mcpServer: 'fs', mcpTool: 'run' } } },
    ]);
  });
});

describe('the Codex bridge', () => {
  const post = (response: unknown) =>
    seamCall(codexBridge, { ...turn, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'make' }, tool_response: response, tool_use_id: 'c1' });

  it('PostToolUse: a shell result object is its stdout and stderr', () => {
    expect(post({ stdout: 'out', stderr: 'err', interrupted: false }).event.payload).toStrictEqual({
      toolCallId: 'c1',
      toolName: 'bash',
      arguments: { command: 'make' },
      result: { content: 'out\nerr', isError: false },
    });
  });

  it('answers ask with a deny that says why, an emptied output as withheld', () => {
    const pre = seamCall(codexBridge, { ...turn, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'x' }, tool_use_id: 'c' }).event as AgentSeamEvent<'tools/pre-execute'>;
    expect(answerJsonOf(codexBridge, pre, { action: 'ask', reason: 'sure?' })).toStrictEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'a hookbox hook asks for confirmation, which Codex hooks cannot request, so the call is denied: sure?',
      },
    });
    const after = post('secret').event as AgentSeamEvent<'tools/post-execute'>;
    expect(answerJsonOf(codexBridge, after, { action: 'accept', content: '' })).toStrictEqual({ decision: 'block', reason: WITHHELD_OUTPUT });
  });

  it('names itself Codex and replaces tool results, never prompts', () => {
    expect(codexBridge.label).toBe('Codex');
    expect(codexBridge.canReplace).toStrictEqual({ prompt: false, toolResult: true });
  });
});

describe("doctor's probe", () => {
  it('is a PreToolUse for Bash running true, timeouts in seconds', () => {
    expect(codexProbe.event('/p')).toStrictEqual({
      session_id: 'hookbox-doctor-probe',
      transcript_path: null,
      cwd: '/p',
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      model: 'probe',
      turn_id: 'probe',
      tool_name: 'Bash',
      tool_input: { command: 'true' },
      tool_use_id: 'hookbox-doctor-probe',
    });
    expect(codexProbe.timeoutUnitMs).toBe(1000);
  });
});
