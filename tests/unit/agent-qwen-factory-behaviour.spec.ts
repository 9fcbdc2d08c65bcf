/**
 * Qwen Code and Factory Droid (agents of the Claude hook format) through
 * their real API, compared whole: each tool row, each tool response →
 * hookbox's result, what each says when it cannot take a replaced output,
 * the doctor probe, and `hookbox setup qwen|factory` writing the agent's
 * settings into a real temp project (idempotent, `--remove` exact, a user's
 * entry kept).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentSeamEvent } from '../../host/agents/agent-bridge.ts';
import { hookClientDeadlineMs } from '../../host/agents/answer-deadline.ts';
import { factoryBridge as factory } from '../../host/agents/factory/bridge.ts';
import { fromFactoryTool, fromFactoryToolResponse } from '../../host/agents/factory/tools.ts';
import { qwenBridge as qwen } from '../../host/agents/qwen/bridge.ts';
import { fromQwenTool, fromQwenToolResponse } from '../../host/agents/qwen/tools.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { doctorProbe, doctorProbeSeam } from '../helpers/claude-events.ts';

const CWD = '/work/app';
const FLAG = { _hookbox: { unmappedTool: true } };

describe('Qwen Code tool calls → hookbox tool calls', () => {
  it.each([
    ['read_file', { file_path: `${CWD}/a`, offset: 1 }, { toolName: 'read_file', arguments: { path: 'a' } }],
    // read_file and write_file are hookbox's names too: of another shape they pass as sent, flagged.
    ['read_file', { path: `${CWD}/a` }, { toolName: 'read_file', arguments: { path: `${CWD}/a`, ...FLAG } }],
    ['write_file', { file_path: `${CWD}/a`, new_string: 'x' }, { toolName: 'write_file', arguments: { file_path: `${CWD}/a`, new_string: 'x', ...FLAG } }],
    ['edit', { file_path: `${CWD}/a`, content: 'x' }, { toolName: 'edit', arguments: { file_path: `${CWD}/a`, content: 'x', ...FLAG } }],
    ['edit', { new_string: 'x' }, { toolName: 'edit', arguments: { new_string: 'x', ...FLAG } }],
    ['run_shell_command', { command: 1 }, { toolName: 'run_shell_command', arguments: { command: 1, ...FLAG } }],
    ['glob', { pattern: '*', _hookbox: { mcpServer: 'spoofed' } }, { toolName: 'glob', arguments: { pattern: '*' } }],
    ['notebook_edit', { cell: 1 }, { toolName: 'notebook_edit', arguments: { cell: 1 } }],
    ['teleport', { to: 'x' }, { toolName: 'teleport', arguments: { to: 'x', ...FLAG } }],
  ])('%s %j', (tool, input, expected) => {
    expect(fromQwenTool(tool, input, CWD)).toStrictEqual(expected);
  });

  it.each([
    ['a string as it is', 'run_shell_command', 'Exit Code: 1', { content: 'Exit Code: 1', isError: false }],
    ['a number as JSON', 'read_file', 5, { content: '5', isError: false }],
    ['null as JSON', 'read_file', null, { content: 'null', isError: false }],
    ['nothing as empty text', 'read_file', undefined, { content: '', isError: false }],
    ['llmContent that is no text: the response as JSON', 'read_file', { llmContent: 5 }, { content: '{"llmContent":5}', isError: false }],
    ['another tool gets no exit line', 'read_file', { llmContent: 'Exit Code: 1' }, { content: 'Exit Code: 1', isError: false }],
    ['the exit line first', 'run_shell_command', { llmContent: 'Exit Code: 2\nSignal: (none)' }, { content: 'Exit Code: 2\nSignal: (none)\nexit code: 2', isError: false }],
    ['the exit line last', 'run_shell_command', { llmContent: 'Output: x\nExit Code: 127' }, { content: 'Output: x\nExit Code: 127\nexit code: 127', isError: false }],
    ['a negative exit code', 'run_shell_command', { llmContent: 'Output: x\nExit Code: -1\n' }, { content: 'Output: x\nExit Code: -1\n\nexit code: -1', isError: false }],
    ['no exit line', 'run_shell_command', { llmContent: 'Output: x Exit Code: 1' }, { content: 'Output: x Exit Code: 1', isError: false }],
  ])('Qwen tool_response: %s', (_name, tool, response, expected) => {
    expect(fromQwenToolResponse(tool, response)).toStrictEqual(expected);
  });
});

describe('Factory Droid tool calls → hookbox tool calls', () => {
  it.each([
    ['LS', { directory_path: `${CWD}/src` }, { toolName: 'list_dir', arguments: { path: 'src' } }],
    ['LS', { directory_path: 5 }, { toolName: 'LS', arguments: { directory_path: 5, ...FLAG } }],
    ['Read', { file_path: `${CWD}/.env`, offset: 1 }, { toolName: 'read_file', arguments: { path: '.env' } }],
    ['Read', {}, { toolName: 'Read', arguments: { ...FLAG } }],
    ['Create', { file_path: `${CWD}/.env` }, { toolName: 'Create', arguments: { file_path: `${CWD}/.env`, ...FLAG } }],
    ['Create', { file_path: `${CWD}/.env`, new_str: 'x' }, { toolName: 'Create', arguments: { file_path: `${CWD}/.env`, new_str: 'x', ...FLAG } }],
    ['Edit', { file_path: `${CWD}/.env`, content: 'x' }, { toolName: 'Edit', arguments: { file_path: `${CWD}/.env`, content: 'x', ...FLAG } }],
    ['Edit', { file_path: `${CWD}/.env`, old_str: 'a', new_str: 'b' }, { toolName: 'write_file', arguments: { path: '.env', content: 'b' } }],
    ['Grep', { pattern: 'x', _hookbox: { mcpServer: 'spoofed' } }, { toolName: 'Grep', arguments: { pattern: 'x' } }],
    ['Task', { prompt: 'p' }, { toolName: 'Task', arguments: { prompt: 'p' } }],
    ['Teleport', {}, { toolName: 'Teleport', arguments: { ...FLAG } }],
  ])('%s %j', (tool, input, expected) => {
    expect(fromFactoryTool(tool, input, CWD)).toStrictEqual(expected);
  });

  it.each([
    ['anything but text as JSON', 'Execute', { a: 1 }, { content: '{"a":1}', isError: false }],
    ['nothing as empty text', 'Execute', undefined, { content: '', isError: false }],
    ['a trailer right after the output', 'Execute', 'x[Process exited with code 1]', { content: 'x\nexit code: 1', isError: false }],
    ['a trailer with whitespace after it', 'Execute', 'x\n\n[Process exited with code 2]\n  ', { content: 'x\nexit code: 2', isError: false }],
    ['a three-digit code', 'Execute', 'x\n[Process exited with code 127]', { content: 'x\nexit code: 127', isError: false }],
    ['a trailer followed by more output is output', 'Execute', 'a\n[Process exited with code 1]\nmore', { content: 'a\n[Process exited with code 1]\nmore', isError: false }],
    ['another tool keeps the text', 'Read', 'x\n[Process exited with code 1]', { content: 'x\n[Process exited with code 1]', isError: false }],
  ])('Factory tool_response: %s', (_name, tool, response, expected) => {
    expect(fromFactoryToolResponse(tool, response)).toStrictEqual(expected);
  });
});

describe('the bridges: a replaced output withheld in the agent\'s name; the doctor probe', () => {
  const withheld = (label: string) => {
    const reason = `a hookbox hook replaced this tool output and ${label} cannot take it for this tool`;
    return { exitCode: 0, stdout: `${JSON.stringify({ continue: false, stopReason: reason, decision: 'block', reason })}\n`, stderr: '' };
  };
  const common = { session_id: 's-1', transcript_path: '/t.jsonl', cwd: CWD, permission_mode: 'default', hook_event_name: 'PostToolUse', tool_input: { command: 'cat .env' } };

  it.each([
    ['Qwen Code', qwen, { ...common, tool_name: 'run_shell_command', tool_use_id: 't', tool_response: { llmContent: 'K=1' } }],
    ['Factory Droid', factory, { ...common, tool_name: 'Execute', tool_response: 'K=1' }],
  ])('%s', (label, bridge, input) => {
    const parsed = bridge.toSeam(input);
    if (parsed.kind !== 'seam') throw new Error(`expected a seam call, got ${JSON.stringify(parsed)}`);
    expect(bridge.answer(parsed.event as AgentSeamEvent<'tools/post-execute'>, { action: 'accept', content: 'K=[REDACTED]' })).toStrictEqual(withheld(label));
    expect(bridge.label).toBe(label);
  });

  it('Qwen\'s probe: a PreToolUse of run_shell_command running `true`', () => {
    const probe = qwen.probe.event('/p');
    expect(probe).toStrictEqual(doctorProbe('run_shell_command', { command: 'true' }));
    expect(qwen.toSeam(probe)).toStrictEqual(doctorProbeSeam('run_shell_command'));
  });

  it('Factory\'s probe: a PreToolUse of Execute running `true`, without tool_use_id', () => {
    const probe = factory.probe.event('/p');
    expect(probe).toStrictEqual(doctorProbe('Execute', { command: 'true', summary: 'Check hookbox answers' }, false));
    expect(factory.toSeam(probe)).toMatchObject({ kind: 'seam', event: { seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: { command: 'true' } } } });
  });
});

describe.each([
  // The lifecycle events (#51) each agent's binary names: Qwen all six, Factory four.
  ['qwen', 'Qwen Code', '.qwen', 'QWEN_PROJECT_DIR', ['SessionEnd', 'PreCompact', 'SubagentStart', 'SubagentStop', 'PermissionRequest', 'Notification']],
  ['factory', 'Factory Droid', '.factory', 'FACTORY_PROJECT_DIR', ['SessionEnd', 'PreCompact', 'SubagentStop', 'Notification']],
])('hookbox setup %s in a real project', (agent, label, folder, variable, lifecycle) => {
  let workspace: TestWorkspace;
  let project: string;
  beforeEach(() => {
    workspace = makeWorkspace(`hookbox-${agent}-setup-`);
    project = join(workspace.dir, 'proj');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'hookbox'));
    writeFileSync(join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [] }));
  });
  afterEach(() => workspace.dispose());

  it('writes command hooks behind the agent\'s project variable, a user hook kept; unchanged the second time; --remove gives the file back', () => {
    const settingsFile = join(project, folder, 'settings.json');
    const user = { model: 'm', hooks: { Stop: [{ hooks: [{ type: 'command', command: './mine.sh' }] }] } };
    mkdirSync(dirname(settingsFile));
    writeFileSync(settingsFile, JSON.stringify(user));
    const out: string[] = [];
    setupCommand(agent, { project, transport: 'command', client: 'sh' }, (text) => out.push(text));
    const command = `sh "$${variable}/node_modules/hookbox/host/cli/hookbox-hook.sh" '${agent}' '--socket' '.hookbox/run/serve.sock' '--config' 'hookbox.config.json' '--deadline-ms' '${hookClientDeadlineMs({ hooks: [] })}'`;
    const handler = { type: 'command', command, timeout: 30 };
    const written = readFileSync(settingsFile, 'utf8');
    expect(JSON.parse(written)).toStrictEqual({
      model: 'm',
      hooks: {
        Stop: [user.hooks.Stop[0], { hooks: [handler] }],
        SessionStart: [{ hooks: [handler] }],
        UserPromptSubmit: [{ hooks: [handler] }],
        PreToolUse: [{ matcher: '*', hooks: [handler] }],
        PostToolUse: [{ matcher: '*', hooks: [handler] }],
        PostToolUseFailure: [{ matcher: '*', hooks: [handler] }],
        ...Object.fromEntries(lifecycle.map((event) => [event, [{ ...(event === 'PermissionRequest' && { matcher: '*' }), hooks: [handler] }]])),
      },
    });
    expect(out[0]).toBe(`${label} settings ${settingsFile}: updated\n`);
    const again: string[] = [];
    setupCommand(agent, { project, transport: 'command', client: 'sh' }, (text) => again.push(text));
    expect(again[0]).toBe(`${label} settings ${settingsFile}: unchanged\n`);
    expect(readFileSync(settingsFile, 'utf8')).toBe(written);
    setupCommand(agent, { project, remove: true }, () => {});
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toStrictEqual(user);
  });

  it('refuses the plugin transport, naming the agent', () => {
    expect(() => setupCommand(agent, { project, transport: 'plugin' }, () => {})).toThrow(`--transport plugin: ${label} has no plugin hooks (it runs command hooks); use --transport command`);
  });
});
