/**
 * The Claude hook format (`claude-format/`) as Claude Code speaks it, compared
 * whole: each tool row (Claude Code's shapes and Copilot CLI's shapes of the
 * same tools) → the hookbox call, each event → its seam call, each decision →
 * the exact answer, the fail-closed answer per event, and setup's merge into
 * `.claude/settings.json` (command and http, idempotent, `--remove` exact, the
 * user's entries kept) — in memory and in a real project folder.
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentSeamEvent } from '../../host/agents/index.ts';
import { CONTINUE_REASON, NO_OPINION, toolCallIdFromCall } from '../../host/agents/bridge-parts.ts';
import { claudeCodeBridge as cc } from '../../host/agents/claude-code/bridge.ts';
import { claudeCodeProbe } from '../../host/agents/claude-code/probe.ts';
import { fromClaudeCodeTool } from '../../host/agents/claude-code/tools.ts';
import { copilotResult, claudeShapedInput } from '../../host/agents/claude-format/copilot-shapes.ts';
import { isHookboxHandlerOf } from '../../host/agents/claude-format/setup.ts';
import { qwenBridge } from '../../host/agents/qwen/bridge.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { doctorProbe, doctorProbeSeam } from '../helpers/claude-events.ts';

const CWD = '/work/app';
const common = { session_id: 'sess-1', transcript_path: '/t.jsonl', cwd: CWD, permission_mode: 'default' };
const FLAG = { _hookbox: { unmappedTool: true } };

function seamOf(input: Record<string, unknown>): AgentSeamEvent {
  const parsed = cc.toSeam({ ...common, ...input });
  if (parsed.kind !== 'seam') throw new Error(`expected a seam event, got ${JSON.stringify(parsed)}`);
  return parsed.event;
}

function answerOf<S extends SeamId>(input: Record<string, unknown>, decision: DecisionOf<S>): unknown {
  const out = cc.answer(seamOf(input) as AgentSeamEvent<S>, decision);
  return out.stdout === '' ? out : { ...out, stdout: JSON.parse(out.stdout) as unknown };
}

const json = (value: unknown) => ({ exitCode: 0, stdout: value, stderr: '' });

describe('Claude Code tools → hookbox calls, row by row (Claude Code\'s and Copilot CLI\'s shapes)', () => {
  it.each([
    ['Monitor with a command is the bash it runs', 'Monitor', { command: 'tail -f log', description: 'watch' }, { toolName: 'bash', arguments: { command: 'tail -f log' } }],
    ['Monitor on a WebSocket is passed as Monitor, unflagged', 'Monitor', { ws: 'wss://x', description: 'd' }, { toolName: 'Monitor', arguments: { ws: 'wss://x', description: 'd' } }],
    ['Monitor with neither is flagged', 'Monitor', { description: 'd' }, { toolName: 'Monitor', arguments: { description: 'd', ...FLAG } }],
    ['Monitor with a command that is no text is flagged', 'Monitor', { command: ['sh'] }, { toolName: 'Monitor', arguments: { command: ['sh'], ...FLAG } }],
    ["Copilot's Read {path}", 'Read', { path: 'src/a.ts', view_range: [1, 2] }, { toolName: 'read_file', arguments: { path: 'src/a.ts' } }],
    ["Copilot's Write {path, file_text}", 'Write', { path: `${CWD}/.env`, file_text: 'K=1' }, { toolName: 'write_file', arguments: { path: '.env', content: 'K=1' } }],
    ["Copilot's Edit {path, old_str, new_str}", 'Edit', { path: 'a.txt', old_str: 'x', new_str: 'y' }, { toolName: 'write_file', arguments: { path: 'a.txt', content: 'y' } }],
    // Renamed, then flagged: the guard sees Claude Code's names for what it got.
    ["Copilot's Edit without new_str", 'Edit', { path: 'a.txt', old_str: 'x' }, { toolName: 'Edit', arguments: { file_path: 'a.txt', old_string: 'x', ...FLAG } }],
    ["Copilot's Write without file_text", 'Write', { path: 'a.txt', mode: 1 }, { toolName: 'Write', arguments: { file_path: 'a.txt', mode: 1, ...FLAG } }],
    ['a path that is no text is not renamed', 'Read', { path: 7 }, { toolName: 'Read', arguments: { path: 7, ...FLAG } }],
    ['a Copilot key never overwrites a Claude one (the Claude key first)', 'Write', { path: 'a', content: 'mine', file_text: 'theirs' }, { toolName: 'write_file', arguments: { path: 'a', content: 'mine' } }],
    ['a Copilot key never overwrites a Claude one (the Copilot key first)', 'Write', { path: 'a', file_text: 'theirs', content: 'mine' }, { toolName: 'write_file', arguments: { path: 'a', content: 'theirs' } }],
    ['Read of a wrong shape is flagged', 'Read', { file_path: 5 }, { toolName: 'Read', arguments: { file_path: 5, ...FLAG } }],
    ['Write without content is flagged', 'Write', { file_path: 'a' }, { toolName: 'Write', arguments: { file_path: 'a', ...FLAG } }],
    ['Bash without a command is flagged', 'Bash', { cmd: 'ls' }, { toolName: 'Bash', arguments: { cmd: 'ls', ...FLAG } }],
    ['Bash with a timeout that is no number drops it', 'Bash', { command: 'ls', timeout: '5' }, { toolName: 'bash', arguments: { command: 'ls' } }],
    ['LS without a path is flagged', 'LS', {}, { toolName: 'LS', arguments: FLAG }],
    ['LS of a folder inside the project is relative', 'LS', { path: `${CWD}/src` }, { toolName: 'list_dir', arguments: { path: 'src' } }],
    ['Edit without a file_path is flagged', 'Edit', { new_string: 'x' }, { toolName: 'Edit', arguments: { new_string: 'x', ...FLAG } }],
    ['NotebookEdit names its file notebook_path, not file_path', 'NotebookEdit', { file_path: 'n.ipynb', new_source: 'x' }, { toolName: 'NotebookEdit', arguments: { file_path: 'n.ipynb', new_source: 'x', ...FLAG } }],
    ['NotebookEdit replacing with no source is flagged', 'NotebookEdit', { notebook_path: 'n.ipynb', edit_mode: 'replace' }, { toolName: 'NotebookEdit', arguments: { notebook_path: 'n.ipynb', edit_mode: 'replace', ...FLAG } }],
    ['MultiEdit whose edits are no list is flagged', 'MultiEdit', { file_path: 'a', edits: 'x' }, { toolName: 'MultiEdit', arguments: { file_path: 'a', edits: 'x', ...FLAG } }],
    ['MultiEdit with a null edit is flagged', 'MultiEdit', { file_path: 'a', edits: [null] }, { toolName: 'MultiEdit', arguments: { file_path: 'a', edits: [null], ...FLAG } }],
    ['MultiEdit of one edit', 'MultiEdit', { file_path: 'a', edits: [{ new_string: 'only' }] }, { toolName: 'write_file', arguments: { path: 'a', content: 'only' } }],
    ['a spoofed _hookbox on a mapped tool is dropped', 'Bash', { command: 'ls', _hookbox: { mcpServer: 'x' } }, { toolName: 'bash', arguments: { command: 'ls' } }],
    ['a spoofed _hookbox on a passed tool is dropped', 'WebFetch', { url: 'u', _hookbox: { unmappedTool: false } }, { toolName: 'WebFetch', arguments: { url: 'u' } }],
  ])('%s', (_name, tool, input, expected) => {
    expect(fromClaudeCodeTool(tool, input, CWD)).toStrictEqual(expected);
  });

  it('renames only the file tools Copilot shapes, and nothing named like an Object built-in', () => {
    expect(claudeShapedInput('Edit', { path: 'a', old_str: 'x', new_str: 'y', extra: 1 })).toStrictEqual({ file_path: 'a', old_string: 'x', new_string: 'y', extra: 1 });
    expect(claudeShapedInput('Read', { path: 'a', file_text: 'x' })).toStrictEqual({ file_path: 'a', file_text: 'x' });
    expect(claudeShapedInput('Write', { file_path: 'a', path: 'b', file_text: 'x' })).toStrictEqual({ file_path: 'a', path: 'b', file_text: 'x' });
    for (const tool of ['LS', 'view', 'constructor', 'toString']) expect(claudeShapedInput(tool, { path: 'a', file_text: 'x' })).toStrictEqual({ path: 'a', file_text: 'x' });
  });
});

describe("Copilot CLI's result text → hookbox's tool result", () => {
  it.each([
    ['success, no trailer', 'success', 'ok\n', { content: 'ok\n', isError: false }],
    ['any other type is an error', 'rejected', 'no', { content: 'no', isError: true }],
    ['the trailer becomes the exit code line', 'success', 'a\n<shellId: 7 completed with exit code 0>', { content: 'a\nexit code: 0', isError: false }],
    ['a negative exit code, blanks after the trailer', 'failure', 'x\n<shellId: s-1 completed with exit code -9>  \n', { content: 'x\nexit code: -9', isError: true }],
    ['a trailer alone', 'success', '<shellId: 0 completed with exit code 3>', { content: '\nexit code: 3', isError: false }],
    ['a trailer that is not last stays text', 'success', '<shellId: 0 completed with exit code 3>\nmore', { content: '<shellId: 0 completed with exit code 3>\nmore', isError: false }],
  ])('%s', (_name, type, text, expected) => {
    expect(copilotResult(type, text)).toStrictEqual(expected);
  });
});

describe('Claude Code events → seam calls, whole', () => {
  it('SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure and Stop', () => {
    expect(seamOf({ hook_event_name: 'SessionStart', source: 'clear' })).toStrictEqual({ event: 'SessionStart', sessionId: 'sess-1', cwd: CWD, seam: 'agent/session-start', payload: { source: 'clear' } });
    expect(seamOf({ hook_event_name: 'SessionStart', source: 42 })).toStrictEqual({ event: 'SessionStart', sessionId: 'sess-1', cwd: CWD, seam: 'agent/session-start', payload: { source: 'startup' } });
    expect(seamOf({ hook_event_name: 'UserPromptSubmit', prompt: '' })).toStrictEqual({ event: 'UserPromptSubmit', sessionId: 'sess-1', cwd: CWD, seam: 'agent/prompt-submit', payload: { content: '', source: 'api' } });
    expect(seamOf({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: 'a', content: 'c' }, tool_use_id: 'toolu_9' })).toStrictEqual({
      event: 'PreToolUse',
      sessionId: 'sess-1',
      cwd: CWD,
      seam: 'tools/pre-execute',
      payload: { toolCallId: 'toolu_9', toolName: 'write_file', arguments: { path: 'a', content: 'c' } },
      // The agent's own call, which a rewrite is mapped back onto (tool-rewrite.ts).
      agentCall: { toolName: 'Write', input: { file_path: 'a', content: 'c' } },
    });
    expect(seamOf({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't', tool_response: { stdout: 'a', stderr: '', interrupted: true } })).toStrictEqual({
      event: 'PostToolUse',
      sessionId: 'sess-1',
      cwd: CWD,
      seam: 'tools/post-execute',
      payload: { toolCallId: 't', toolName: 'bash', arguments: { command: 'ls' }, result: { content: 'a', isError: true } },
    });
    expect(seamOf({ hook_event_name: 'PostToolUseFailure', tool_name: 'Read', tool_input: { file_path: `${CWD}/x` }, tool_use_id: 't', error: 'ENOENT' })).toStrictEqual({
      event: 'PostToolUseFailure',
      sessionId: 'sess-1',
      cwd: CWD,
      seam: 'tools/post-execute',
      payload: { toolCallId: 't', toolName: 'read_file', arguments: { path: 'x' }, result: { content: 'ENOENT', isError: true } },
    });
    expect(seamOf({ hook_event_name: 'Stop', last_assistant_message: '' })).toStrictEqual({
      event: 'Stop',
      sessionId: 'sess-1',
      cwd: CWD,
      seam: 'agent/turn-continuation',
      payload: { continuations: 0 },
      alreadyContinued: false,
    });
  });

  it("an empty tool_use_id is none: the id comes from the call; a Claude Code tool_response wins over Copilot's tool_result", () => {
    const post = seamOf({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: '',
      tool_response: 'from claude',
      tool_result: { result_type: 'failure', text_result_for_llm: 'from copilot' },
    });
    expect(post.payload).toStrictEqual({ toolCallId: toolCallIdFromCall('claude-code', 'Bash', { command: 'ls' }), toolName: 'bash', arguments: { command: 'ls' }, result: { content: 'from claude', isError: false } });
  });

  it('an event it has no seam for passes with no opinion; one whose fields are wrong is invalid, naming them', () => {
    expect(cc.toSeam({ ...common, hook_event_name: 'PostCompact', trigger: 'auto' })).toStrictEqual({ kind: 'pass', event: 'PostCompact', sessionId: 'sess-1', answer: NO_OPINION });
    expect(cc.toSeam({ ...common, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: {} })).toStrictEqual({
      kind: 'invalid',
      event: 'PostToolUseFailure',
      message: 'input.error: Invalid input: expected string, received undefined',
    });
    expect(cc.toSeam({ ...common, hook_event_name: 'PreToolUse', tool_name: '', tool_input: {} })).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^input\.tool_name: /) });
  });

  it("the bridge's own parts: its name, what it can take back, its project variable, its probe", () => {
    expect([cc.name, cc.label, cc.projectDirVariable, cc.canReplace.prompt]).toStrictEqual(['claude-code', 'Claude Code', 'CLAUDE_PROJECT_DIR', false]);
    expect(claudeCodeProbe.timeoutUnitMs).toBe(1000);
    const probe = claudeCodeProbe.event('/p');
    expect(probe).toStrictEqual(doctorProbe('Bash', { command: 'true' }));
    expect(cc.toSeam(probe)).toStrictEqual(doctorProbeSeam('Bash'));
  });
});

describe('Claude Code: decisions → the exact answer', () => {
  const pre = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'x' }, tool_use_id: 't' };
  const bashPost = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'x' }, tool_use_id: 't', tool_response: { stdout: 'o', interrupted: true } };
  const failure = { hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'x' }, tool_use_id: 't', error: 'boom' };
  const withheld = (reason: string) => json({ continue: false, stopReason: reason, decision: 'block', reason });

  it('an ask without a reason gets hookbox\'s own; a reason is made printable', () => {
    expect(answerOf(pre, { action: 'ask' })).toStrictEqual(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'a hookbox hook asks for confirmation' } }));
    expect(answerOf(pre, { action: 'deny', reason: 'a\u001bb' })).toStrictEqual(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'a\\x1bb' } }));
  });

  it('session start: context → additionalContext, none → no answer; a prompt rewrite is never sent (Claude Code cannot take one)', () => {
    const start = { hook_event_name: 'SessionStart', source: 'startup' };
    expect(answerOf(start, { additionalContext: 'rules\n' })).toStrictEqual(json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'rules' } }));
    expect(answerOf(start, {})).toStrictEqual(NO_OPINION);
    const prompt = { hook_event_name: 'UserPromptSubmit', prompt: 'p' };
    expect(answerOf(prompt, { action: 'allow', content: 'rewritten' })).toStrictEqual(NO_OPINION);
    expect(answerOf(prompt, { action: 'block', reason: 'r\u202e' })).toStrictEqual(json({ decision: 'block', reason: 'r\\u{202e}' }));
  });

  it('post-tool: a failed call\'s context names PostToolUseFailure; no context is no answer; a block of a failure withholds too', () => {
    expect(answerOf(failure, { action: 'accept', additionalContext: 'see docs' })).toStrictEqual(json({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'see docs' } }));
    expect(answerOf(failure, { action: 'accept' })).toStrictEqual(NO_OPINION);
    expect(answerOf(bashPost, { action: 'accept' })).toStrictEqual(NO_OPINION);
    expect(answerOf(failure, { action: 'block', reason: 'no' })).toStrictEqual(withheld('no'));
  });

  it('a replaced result: Bash in its own shape, a failure\'s resultType for Copilot; a failed call or a Write cannot take one and is withheld, saying why', () => {
    expect(answerOf(bashPost, { action: 'accept', content: 'clean\n' })).toStrictEqual(
      json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: 'clean', stderr: '', interrupted: false, isImage: false } }, modifiedResult: { textResultForLlm: 'clean', resultType: 'failure' } }),
    );
    const why = 'a hookbox hook replaced this tool output and Claude Code cannot take it for this tool';
    expect(answerOf(failure, { action: 'accept', content: 'clean' })).toStrictEqual(withheld(why));
    const write = { hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: 'a', content: 'c' }, tool_use_id: 't', tool_response: { type: 'create' } };
    expect(answerOf(write, { action: 'accept', content: 'clean' })).toStrictEqual(withheld(why));
    const read = { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'sub/a.txt' }, tool_use_id: 't', tool_response: 'x' };
    expect(answerOf(read, { action: 'accept', content: 'one' })).toStrictEqual(
      json({
        hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { type: 'text', file: { filePath: `${CWD}/sub/a.txt`, content: 'one', numLines: 1, startLine: 1, totalLines: 1 } } },
        modifiedResult: { textResultForLlm: 'one', resultType: 'success' },
      }),
    );
  });

  it("Stop: continue without a reason gets hookbox's continuation reason", () => {
    expect(answerOf({ hook_event_name: 'Stop' }, { action: 'continue' })).toStrictEqual(json({ decision: 'block', reason: CONTINUE_REASON }));
  });

  it('fails closed per event, whole; an event it does not know gets exit 2', () => {
    expect(cc.failClosed('PreToolUse', 'down')).toStrictEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'hookbox: down' } })}\n`,
      stderr: '',
    });
    expect(cc.failClosed('UserPromptSubmit', 'down')).toStrictEqual({ exitCode: 0, stdout: '{"decision":"block","reason":"hookbox: down"}\n', stderr: '' });
    for (const event of ['PostToolUse', 'PostToolUseFailure']) {
      expect(cc.failClosed(event, 'down')).toStrictEqual({ exitCode: 0, stdout: '{"continue":false,"stopReason":"hookbox: down","decision":"block","reason":"hookbox: down"}\n', stderr: '' });
    }
    expect(cc.failClosed('SessionStart', 'down')).toStrictEqual(NO_OPINION);
    expect(cc.failClosed('PermissionRequest', 'down')).toStrictEqual({
      exitCode: 0,
      stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'hookbox: down' } } })}\n`,
      stderr: '',
    });
    for (const event of ['SessionEnd', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Notification']) expect(cc.failClosed(event, 'down')).toStrictEqual(NO_OPINION);
    expect(cc.failClosed('PostCompact', 'down')).toStrictEqual({ exitCode: 2, stdout: '', stderr: 'hookbox: down\n' });
  });
});

describe('Claude-format setup: the settings it merges', () => {
  const setup = cc.setup;
  const command = { kind: 'command', command: 'node "$CLAUDE_PROJECT_DIR/node_modules/hookbox/host/cli/hookbox-hook.cjs" claude-code' } as const;
  const http = { kind: 'http', url: 'http://localhost:47100/hooks/claude-code', headers: { Authorization: 'Bearer t' } } as const;

  it('command: every event, hookbox last, onFailure where the closed form is a block, the timeout in seconds above the client\'s deadline', () => {
    const user = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }] };
    const { settings, changes } = setup.apply({ hooks: user }, command, { answerTimeoutMs: 45_001 });
    const ours = (extra: object = {}) => ({ type: 'command', command: command.command, timeout: 46, ...extra });
    expect(settings).toStrictEqual({
      hooks: {
        PreToolUse: [user.PreToolUse[0], { matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        SessionStart: [{ hooks: [ours()] }],
        UserPromptSubmit: [{ hooks: [ours({ onFailure: 'block' })] }],
        PostToolUse: [{ matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        PostToolUseFailure: [{ matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        Stop: [{ hooks: [ours()] }],
        // The lifecycle events (#51); PermissionRequest is a gate like PreToolUse.
        SessionEnd: [{ hooks: [ours()] }],
        PreCompact: [{ hooks: [ours()] }],
        SubagentStart: [{ hooks: [ours()] }],
        SubagentStop: [{ hooks: [ours()] }],
        PermissionRequest: [{ matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        Notification: [{ hooks: [ours()] }],
      },
    });
    const what = `command ${command.command}`;
    const lifecycle = ['SessionEnd', 'PreCompact', 'SubagentStart', 'SubagentStop', 'PermissionRequest', 'Notification'];
    expect(changes).toStrictEqual([
      { action: 'added', where: 'hooks.SessionStart[0]', what },
      { action: 'added', where: 'hooks.UserPromptSubmit[0]', what },
      { action: 'added', where: 'hooks.PreToolUse[1]', what },
      { action: 'added', where: 'hooks.PostToolUse[0]', what },
      { action: 'added', where: 'hooks.PostToolUseFailure[0]', what },
      { action: 'added', where: 'hooks.Stop[0]', what },
      ...lifecycle.map((event) => ({ action: 'added', where: `hooks.${event}[0]`, what })),
    ]);
    expect(setup.remove(settings)).toStrictEqual({
      // In the file's order of events.
      settings: { hooks: user },
      changes: ['PreToolUse', 'SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', ...lifecycle].map((event) => ({
        action: 'removed',
        where: `hooks.${event}[${event === 'PreToolUse' ? 1 : 0}]`,
        what,
      })),
    });
  });

  it('http over a command setup: SessionStart taken out, the rest replaced, the headers a copy', () => {
    const once = setup.apply({}, command).settings;
    const { settings, changes } = setup.apply(once, http);
    const ours = (extra: object = {}) => ({ type: 'http', url: http.url, headers: { Authorization: 'Bearer t' }, timeout: 30, ...extra });
    expect(settings).toStrictEqual({
      hooks: {
        UserPromptSubmit: [{ hooks: [ours({ onFailure: 'block' })] }],
        PreToolUse: [{ matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        PostToolUse: [{ matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        PostToolUseFailure: [{ matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        Stop: [{ hooks: [ours()] }],
        SessionEnd: [{ hooks: [ours()] }],
        PreCompact: [{ hooks: [ours()] }],
        SubagentStart: [{ hooks: [ours()] }],
        SubagentStop: [{ hooks: [ours()] }],
        PermissionRequest: [{ matcher: '*', hooks: [ours({ onFailure: 'block' })] }],
        Notification: [{ hooks: [ours()] }],
      },
    });
    expect(changes[0]).toStrictEqual({ action: 'removed', where: 'hooks.SessionStart[0]', what: `command ${command.command}` });
    expect(changes.slice(1).map((change) => [change.action, change.what])).toStrictEqual(Array.from({ length: 11 }, () => ['replaced', `http ${http.url}`]));
    expect((settings.hooks as Record<string, { hooks: { headers: object }[] }[]>).Stop![0]!.hooks[0]!.headers).not.toBe(http.headers);
  });

  it('where it writes, what shows the agent is used, the transports it refuses and why', () => {
    expect(setup.settingsPath({ kind: 'project', dir: '/p' })).toBe('/p/.claude/settings.json');
    expect(setup.settingsPath({ kind: 'user', home: '/h' })).toBe('/h/.claude/settings.json');
    expect(setup.localSettingsPath?.({ kind: 'project', dir: '/p' })).toBe('/p/.claude/settings.local.json');
    expect(setup.localSettingsPath?.({ kind: 'user', home: '/h' })).toBeUndefined();
    expect(setup.detect).toStrictEqual({ folders: ['.claude'], commands: ['claude'] });
    expect(['command', 'http', 'plugin'].map((kind) => setup.unsupported(kind as 'command'))).toStrictEqual([undefined, undefined, 'Claude Code has no plugin hooks (it runs command hooks); use --transport command']);
    expect(() => setup.apply({}, { kind: 'plugin', module: 'm', options: { socket: 's', config: 'c', deadlineMs: 1 } })).toThrow(new TypeError('Claude Code runs command hooks only'));
    expect(setup.tradeOff('command')).toMatch(/^command transport: Claude Code runs `hookbox hook claude-code` per event/);
    expect(setup.tradeOff('http')).toMatch(/^http transport: faster/);
    // An agent of the format without http hooks (Qwen Code): refused with its reason; no local settings file.
    expect(qwenBridge.setup.unsupported('http')).toBe('Qwen Code has no http hooks hookbox writes (not measured here); use --transport command');
    expect(() => qwenBridge.setup.apply({}, { ...http, url: 'http://localhost:1/hooks/qwen' })).toThrow(new TypeError('Qwen Code runs command hooks only'));
    expect(qwenBridge.setup.localSettingsPath).toBeUndefined();
  });

  it.each([
    [{ type: 'command', command: 'hookbox hook claude-code' }, true],
    [{ type: 'command', command: 'npx hookbox hook claude-code --socket s' }, true],
    [{ type: 'command', command: 'hookbox hook claude-codex' }, false],
    [{ type: 'command', command: 'hookbox hook qwen' }, false],
    [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/node_modules/hookbox/host/cli/hookbox-hook.cjs" claude-code --deadline-ms 1' }, true],
    [{ type: 'command', command: "sh '/opt/hookbox/host/cli/hookbox-hook.sh' 'claude-code'" }, true],
    [{ type: 'command', command: '/opt/x/hookbox-hook.js claude-code' }, false],
    [{ type: 'command', command: '/opt/x/hookbox-hook.cjs claude-code-x' }, false],
    [{ type: 'command', command: 42 }, false],
    [{ type: 'http', command: 'hookbox hook claude-code' }, false],
    [{ type: 'http', url: 'http://[::1]:1/hooks/claude-code' }, true],
    [{ type: 'http', url: 'http://localhost:47100/hooks/claude-code' }, true],
    [{ type: 'http', url: 'http://127.0.0.1/hooks/claude-code' }, false],
    [{ type: 'http', url: 'http://127.0.0.1:1/hooks/claude-code/x' }, false],
    [{ type: 'http', url: 'http://evil.example/?http://127.0.0.1:1/hooks/claude-code' }, false],
    [{ type: 'http', url: 7 }, false],
    [{ type: 'command', url: 'http://127.0.0.1:1/hooks/claude-code' }, false],
    [null, false],
    ['hookbox hook claude-code', false],
  ])('a handler %j is hookbox\'s: %s', (handler, ours) => {
    expect(isHookboxHandlerOf('claude-code', handler)).toBe(ours);
  });
});

describe('hookbox setup claude-code in a real project', () => {
  let project: TestWorkspace;
  let config: string;
  beforeEach(() => {
    project = makeWorkspace('hookbox-claude-format-');
    config = writeExampleConfig(project.dir, [{ name: 'guard-bash' }]);
  });
  afterEach(() => project.dispose());

  it("merges into the user's .claude/settings.json, keeps every key and hook of theirs, and --remove gives their file's settings back", () => {
    const file = join(project.dir, '.claude', 'settings.json');
    const theirs = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] }, env: { A: '1' } };
    mkdirSync(join(project.dir, '.claude'));
    writeFileSync(file, JSON.stringify(theirs));
    setupCommand('claude-code', { project: project.dir, config, transport: 'command' }, () => {});
    const written = JSON.parse(readFileSync(file, 'utf8')) as typeof theirs;
    expect(Object.keys(written)).toStrictEqual(['model', 'hooks', 'env']);
    expect(written.hooks.Stop).toHaveLength(2);
    expect(written.hooks.Stop[0]).toStrictEqual(theirs.hooks.Stop[0]);
    const out: string[] = [];
    setupCommand('claude-code', { project: project.dir, remove: true }, (text) => out.push(text));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toStrictEqual(theirs);
    expect(out[0]).toBe(`Claude Code settings ${file}: updated\n`);
    expect(out.filter((line) => line.startsWith('  removed hooks.'))).toHaveLength(12);
    expect(existsSync(join(project.dir, '.claude', 'settings.local.json'))).toBe(false);
  });
});
