/**
 * The way back of a pre-tool rewrite (host/agents/tool-rewrite.ts and the
 * agents' tables): exact or deny. Through the real bridges: an agent event is
 * read by `toSeam`, hookbox's rewritten arguments are mapped back by
 * `rewriteBack`, and the answer carries the agent's own input.
 */
import { describe, expect, it } from 'vitest';
import type { AgentBridge, AgentSeamEvent } from '../../host/agents/index.ts';
import { claudeCodeBridge } from '../../host/agents/claude-code/bridge.ts';
import { codexBridge } from '../../host/agents/codex/bridge.ts';
import { argvOf } from '../../host/agents/codex/rewrites.ts';
import { quoteWord } from '../../host/agents/codex/tools.ts';
import { qwenBridge } from '../../host/agents/qwen/bridge.ts';

const CWD = '/work/project';

function preTool(bridge: AgentBridge, toolName: string, toolInput: Record<string, unknown>): AgentSeamEvent<'tools/pre-execute'> {
  const parsed = bridge.toSeam({ hook_event_name: 'PreToolUse', session_id: 's1', cwd: CWD, tool_name: toolName, tool_input: toolInput, tool_use_id: 't1' });
  if (parsed.kind !== 'seam') throw new Error(`not a seam call: ${JSON.stringify(parsed)}`);
  return parsed.event as AgentSeamEvent<'tools/pre-execute'>;
}

function back(bridge: AgentBridge, toolName: string, toolInput: Record<string, unknown>, rewrite: (args: Record<string, unknown>) => Record<string, unknown>) {
  const event = preTool(bridge, toolName, toolInput);
  return bridge.rewriteBack!(event, rewrite({ ...event.payload.arguments }));
}

describe('Claude Code: a rewrite maps back exactly, or is a deny', () => {
  it('Bash keeps description and run_in_background, takes the new command and timeout', () => {
    const input = { command: 'echo A > out.txt', description: 'write A', timeout: 5000, run_in_background: false };
    expect(back(claudeCodeBridge, 'Bash', input, (args) => ({ ...args, command: 'echo B > out.txt', timeoutMs: 9000 }))).toStrictEqual({
      kind: 'input',
      input: { command: 'echo B > out.txt', description: 'write A', timeout: 9000, run_in_background: false },
    });
    // A dropped timeoutMs drops the agent's timeout; a key bash does not take is a deny.
    expect(back(claudeCodeBridge, 'Bash', input, () => ({ command: 'ls' }))).toStrictEqual({ kind: 'input', input: { command: 'ls', description: 'write A', run_in_background: false } });
    expect(back(claudeCodeBridge, 'Bash', input, (args) => ({ ...args, cwd: '/' }))).toMatchObject({ kind: 'deny', why: expect.stringContaining('"cwd"') });
  });

  it('Read and Write: the path (absolute, as the agent takes it) and content; offset and limit kept', () => {
    expect(back(claudeCodeBridge, 'Read', { file_path: `${CWD}/a.txt`, offset: 2 }, () => ({ path: 'b.txt' }))).toStrictEqual({ kind: 'input', input: { file_path: `${CWD}/b.txt`, offset: 2 } });
    expect(back(claudeCodeBridge, 'Write', { file_path: `${CWD}/a.txt`, content: 'x' }, (args) => ({ ...args, content: 'y' }))).toStrictEqual({
      kind: 'input',
      input: { file_path: `${CWD}/a.txt`, content: 'y' },
    });
  });

  it('Edit: a changed path is exact, changed content is a deny; Agent and MCP tools are a deny', () => {
    const edit = { file_path: `${CWD}/a.txt`, old_string: 'old', new_string: 'new' };
    expect(back(claudeCodeBridge, 'Edit', edit, (args) => ({ ...args, path: 'b.txt' }))).toStrictEqual({ kind: 'input', input: { ...edit, file_path: `${CWD}/b.txt` } });
    expect(back(claudeCodeBridge, 'Edit', edit, (args) => ({ ...args, content: 'newer' }))).toMatchObject({ kind: 'deny', why: expect.stringContaining('Edit takes old and new strings') });
    expect(back(claudeCodeBridge, 'Agent', { prompt: 'go' }, (args) => ({ ...args, prompt: 'stop' }))).toMatchObject({ kind: 'deny', why: expect.stringMatching(/^Agent: it starts a subagent/) });
    expect(back(claudeCodeBridge, 'mcp__srv__do', { a: 1 }, (args) => ({ ...args, a: 2 }))).toMatchObject({ kind: 'deny', why: expect.stringContaining('no way back for the tool "mcp__srv__do"') });
  });

  it('the answer to a rewritten allow is permissionDecision allow with updatedInput and the model\'s note', () => {
    const event = preTool(claudeCodeBridge, 'Bash', { command: 'echo A > out.txt', description: 'd' });
    const answer = JSON.parse(claudeCodeBridge.answer(event, { action: 'allow', arguments: { command: 'echo B > out.txt' } }).stdout);
    expect(answer.hookSpecificOutput).toMatchObject({ permissionDecision: 'allow', updatedInput: { command: 'echo B > out.txt', description: 'd' } });
    expect(answer.hookSpecificOutput.additionalContext).toContain('it ran with arguments {"command":"echo B > out.txt"}');
  });

  it('Qwen Code (not measured to apply updatedInput) denies every rewrite', () => {
    expect(back(qwenBridge, 'run_shell_command', { command: 'echo A' }, () => ({ command: 'echo B' }))).toMatchObject({ kind: 'deny', why: expect.stringContaining('not measured') });
  });
});

describe('Codex: shell calls in the original\'s form; apply_patch denies', () => {
  it('Bash {command} and exec_command {cmd} take the new command string', () => {
    expect(back(codexBridge, 'Bash', { command: 'echo A' }, () => ({ command: 'echo B' }))).toStrictEqual({ kind: 'input', input: { command: 'echo B' } });
    expect(back(codexBridge, 'exec_command', { cmd: 'echo A', yield_time_ms: 10 }, () => ({ command: 'echo B' }))).toStrictEqual({ kind: 'input', input: { cmd: 'echo B', yield_time_ms: 10 } });
  });

  it('shell with argv gets argv back, split exactly as hookbox joined it; a line that does not split exactly is a deny', () => {
    const input = { command: ['bash', '-lc', 'echo A > out.txt'], workdir: CWD };
    expect(back(codexBridge, 'shell', input, () => ({ command: "bash -lc 'echo B > out.txt'" }))).toStrictEqual({ kind: 'input', input: { ...input, command: ['bash', '-lc', 'echo B > out.txt'] } });
    expect(back(codexBridge, 'shell', input, () => ({ command: 'bash -lc "echo B"' }))).toMatchObject({ kind: 'deny' });
    for (const argv of [['a'], ['it\'s', 'two words', ''], ["'"], ['x y', '$HOME']]) expect(argvOf(argv.map(quoteWord).join(' '))).toStrictEqual(argv);
  });

  it('apply_patch and a shell call that also applies a patch are denies', () => {
    const patch = '*** Begin Patch\n*** Add File: a.md\n+hi\n*** End Patch\n';
    expect(back(codexBridge, 'apply_patch', { command: patch }, (args) => ({ ...args, content: 'bye\n' }))).toMatchObject({ kind: 'deny', why: expect.stringMatching(/^apply_patch: /) });
    expect(back(codexBridge, 'shell', { command: ['apply_patch', patch] }, () => ({ command: 'true' }))).toMatchObject({ kind: 'deny', why: expect.stringContaining('also applies a patch') });
  });
});
