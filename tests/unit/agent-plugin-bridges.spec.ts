/**
 * pi, OpenCode and Kilo CLI bridges compared whole: each tool row → the
 * hookbox call, each event → its seam call, each decision → the exact answer
 * in the plugin vocabulary (with the agent's own name where it says who
 * cannot ask), the fail-closed answer per event, and the plugin file setup
 * writes (where, what it says, idempotent, `--remove` exact, a foreign file
 * refused) — in memory and in a real project folder.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentBridge, AgentSeamEvent } from '../../host/agents/index.ts';
import { CONTINUE_REASON, NO_OPINION, WITHHELD_OUTPUT } from '../../host/agents/bridge-parts.ts';
import { kiloBridge } from '../../host/agents/kilo/bridge.ts';
import { fromKiloTool } from '../../host/agents/kilo/tools.ts';
import { openCodeBridge } from '../../host/agents/opencode/bridge.ts';
import { xdgConfigDir } from '../../host/agents/opencode/setup.ts';
import { fromOpenCodeTool, fromOpenCodeToolOutput } from '../../host/agents/opencode/tools.ts';
import { piBridge } from '../../host/agents/pi/bridge.ts';
import { piAgentDir } from '../../host/agents/pi/setup.ts';
import { fromPiTool, fromPiToolResult } from '../../host/agents/pi/tools.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

const CWD = '/work/project';
const FLAG = { _hookbox: { unmappedTool: true } };
const json = (value: unknown) => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });

function seamOf(bridge: AgentBridge, input: Record<string, unknown>): AgentSeamEvent {
  const parsed = bridge.toSeam({ session_id: 's-1', cwd: CWD, ...input });
  if (parsed.kind !== 'seam') throw new Error(`expected a seam call, got ${JSON.stringify(parsed)}`);
  return parsed.event;
}

const seam = (event: string, seamId: SeamId, payload: unknown, extra: object = {}) => ({ event, sessionId: 's-1', cwd: CWD, seam: seamId, payload, ...extra });

describe('pi tools → hookbox calls, row by row', () => {
  it.each([
    ['bash', { command: 'ls', timeout: 5 }, { toolName: 'bash', arguments: { command: 'ls' } }],
    ['bash', { command: 5 }, { toolName: 'bash', arguments: { command: 5, ...FLAG } }],
    ['read', { path: `${CWD}/src/a.ts`, offset: 2 }, { toolName: 'read_file', arguments: { path: 'src/a.ts' } }],
    ['read', { path: '/etc/passwd' }, { toolName: 'read_file', arguments: { path: '/etc/passwd' } }],
    ['read', { file: 'a' }, { toolName: 'read', arguments: { file: 'a', ...FLAG } }],
    ['write', { path: 'a.txt', content: '' }, { toolName: 'write_file', arguments: { path: 'a.txt', content: '' } }],
    ['write', { path: 'a.txt' }, { toolName: 'write', arguments: { path: 'a.txt', ...FLAG } }],
    ['write', { content: 'x' }, { toolName: 'write', arguments: { content: 'x', ...FLAG } }],
    ['edit', { path: 'a', oldText: 'x', newText: 'y' }, { toolName: 'write_file', arguments: { path: 'a', content: 'y' } }],
    ['edit', { path: 'a', edits: [{ oldText: 'x', newText: 'y' }], newText: 'z' }, { toolName: 'write_file', arguments: { path: 'a', content: 'y\nz' } }],
    ['edit', { path: 'a', edits: [] }, { toolName: 'edit', arguments: { path: 'a', edits: [], ...FLAG } }],
    ['edit', { path: 'a', edits: [{ newText: 'y' }, null] }, { toolName: 'edit', arguments: { path: 'a', edits: [{ newText: 'y' }, null], ...FLAG } }],
    ['edit', { path: 'a', edits: [{ newText: 1 }] }, { toolName: 'edit', arguments: { path: 'a', edits: [{ newText: 1 }], ...FLAG } }],
    ['edit', { path: 'a', edits: 'y' }, { toolName: 'edit', arguments: { path: 'a', edits: 'y', ...FLAG } }],
    ['edit', { edits: [{ newText: 'y' }] }, { toolName: 'edit', arguments: { edits: [{ newText: 'y' }], ...FLAG } }],
    ['ls', {}, { toolName: 'list_dir', arguments: { path: CWD } }],
    ['ls', { path: 'src' }, { toolName: 'list_dir', arguments: { path: 'src' } }],
    ['ls', { path: 5 }, { toolName: 'ls', arguments: { path: 5, ...FLAG } }],
    ['grep', { pattern: 'x', _hookbox: { spoof: 1 } }, { toolName: 'grep', arguments: { pattern: 'x' } }],
    ['find', { pattern: '*.ts' }, { toolName: 'find', arguments: { pattern: '*.ts' } }],
    ['mcp__db__query', { sql: 'x' }, { toolName: 'mcp__db__query', arguments: { sql: 'x', _hookbox: { mcpServer: 'db', mcpTool: 'query' } } }],
    ['deploy', { to: 'prod' }, { toolName: 'deploy', arguments: { to: 'prod', ...FLAG } }],
  ])('%s %j', (tool, input, expected) => {
    expect(fromPiTool(tool, input, CWD)).toStrictEqual(expected);
  });

  it.each([
    ['read', [{ type: 'text', text: 'a' }, { type: 'image', data: 'x' }, { type: 'text', text: 'b' }], false, { content: 'a\n[image content]\nb', isError: false }],
    ['read', [{ type: 'text', text: 'Command exited with code 1' }], true, { content: 'Command exited with code 1', isError: true }],
    ['bash', [], false, { content: '\nexit code: 0', isError: false }],
    ['bash', [{ type: 'text', text: 'killed' }], true, { content: 'killed', isError: true }],
    ['bash', [{ type: 'text', text: 'x\nCommand exited with code -2 \n' }], true, { content: 'x\nCommand exited with code -2 \n\nexit code: -2', isError: true }],
    ['bash', [{ type: 'text', text: 'Command exited with code 3 then more' }], false, { content: 'Command exited with code 3 then more\nexit code: 0', isError: false }],
  ])('a %s result %j (error %s)', (tool, content, isError, expected) => {
    expect(fromPiToolResult(tool, content, isError)).toStrictEqual(expected);
  });
});

describe('OpenCode and Kilo CLI tools → hookbox calls, row by row', () => {
  it.each([
    ['bash', { command: 'ls', workdir: '/x', timeout: 1 }, { toolName: 'bash', arguments: { command: 'ls' } }],
    ['bash', { cmd: 'ls' }, { toolName: 'bash', arguments: { cmd: 'ls', ...FLAG } }],
    ['read', { filePath: `${CWD}/a`, limit: 1 }, { toolName: 'read_file', arguments: { path: 'a' } }],
    ['read', { path: 'a' }, { toolName: 'read', arguments: { path: 'a', ...FLAG } }],
    ['write', { filePath: `${CWD}/a`, content: 'c' }, { toolName: 'write_file', arguments: { path: 'a', content: 'c' } }],
    ['write', { filePath: 'a' }, { toolName: 'write', arguments: { filePath: 'a', ...FLAG } }],
    ['write', { content: 'c' }, { toolName: 'write', arguments: { content: 'c', ...FLAG } }],
    ['edit', { filePath: 'a', oldString: 'x', newString: 'y', replaceAll: true }, { toolName: 'write_file', arguments: { path: 'a', content: 'y' } }],
    ['edit', { filePath: 'a', oldString: 'x' }, { toolName: 'edit', arguments: { filePath: 'a', oldString: 'x', ...FLAG } }],
    ['edit', { newString: 'y' }, { toolName: 'edit', arguments: { newString: 'y', ...FLAG } }],
    ['glob', { pattern: '*' }, { toolName: 'glob', arguments: { pattern: '*' } }],
    ['todowrite', { todos: [] }, { toolName: 'todowrite', arguments: { todos: [] } }],
    // Kilo's own tools are not OpenCode's: flagged there.
    ['background_process', { action: 'list' }, { toolName: 'background_process', arguments: { action: 'list', ...FLAG } }],
    ['mcp__gh__issue', { n: 1 }, { toolName: 'mcp__gh__issue', arguments: { n: 1, _hookbox: { mcpServer: 'gh', mcpTool: 'issue' } } }],
  ])('OpenCode %s %j', (tool, input, expected) => {
    expect(fromOpenCodeTool(tool, input, CWD)).toStrictEqual(expected);
  });

  it.each([
    ['background_process', { action: 'start', command: 'npm run dev', ready: 'x' }, { toolName: 'bash', arguments: { command: 'npm run dev' } }],
    ['background_process', { action: 'monitor', command: 'tail' }, { toolName: 'bash', arguments: { command: 'tail' } }],
    ['background_process', { action: 'monitor' }, { toolName: 'background_process', arguments: { action: 'monitor', ...FLAG } }],
    ['background_process', { action: 'status', id: 'p' }, { toolName: 'background_process', arguments: { action: 'status', id: 'p' } }],
    ['background_process', { command: 'ls' }, { toolName: 'background_process', arguments: { command: 'ls', ...FLAG } }],
    ['background_process', { action: 3 }, { toolName: 'background_process', arguments: { action: 3, ...FLAG } }],
    ['background_process', { action: 'restart', command: 'ls' }, { toolName: 'background_process', arguments: { action: 'restart', command: 'ls', ...FLAG } }],
    ['read', { filePath: `${CWD}/a` }, { toolName: 'read_file', arguments: { path: 'a' } }],
    ['goal', { text: 'g' }, { toolName: 'goal', arguments: { text: 'g' } }],
    ['teleport', { x: 1 }, { toolName: 'teleport', arguments: { x: 1, ...FLAG } }],
  ])('Kilo %s %j', (tool, input, expected) => {
    expect(fromKiloTool(tool, input, CWD)).toStrictEqual(expected);
  });

  it.each([
    ['read', 'text', 1, { content: 'text', isError: false }],
    ['bash', 'text', undefined, { content: 'text', isError: false }],
    ['bash', 'ok', 0, { content: 'ok\nexit code: 0', isError: false }],
    ['bash', 'no', 127, { content: 'no\nexit code: 127', isError: true }],
  ])('an OpenCode %s output %j, exit %s', (tool, output, exit, expected) => {
    expect(fromOpenCodeToolOutput(tool, output, exit)).toStrictEqual(expected);
  });
});

describe('pi events → seam calls, whole', () => {
  it('each event it reads', () => {
    expect(seamOf(piBridge, { hook_event_name: 'session_start', reason: 'resume' })).toStrictEqual(seam('session_start', 'agent/session-start', { source: 'resume' }));
    expect(seamOf(piBridge, { hook_event_name: 'session_start', reason: 'clear' })).toStrictEqual(seam('session_start', 'agent/session-start', { source: 'startup' }));
    expect(seamOf(piBridge, { hook_event_name: 'input', text: 'hi' })).toStrictEqual(seam('input', 'agent/prompt-submit', { content: 'hi', source: 'api' }));
    expect(seamOf(piBridge, { hook_event_name: 'input', text: 'hi', source: 'rpc' })).toStrictEqual(seam('input', 'agent/prompt-submit', { content: 'hi', source: 'api' }));
    expect(seamOf(piBridge, { hook_event_name: 'input', text: 'hi', source: 'interactive' })).toStrictEqual(seam('input', 'agent/prompt-submit', { content: 'hi', source: 'cli' }));
    expect(seamOf(piBridge, { hook_event_name: 'tool_call', tool_name: 'read', tool_call_id: 'c1', input: { path: 'a' } })).toStrictEqual(
      seam('tool_call', 'tools/pre-execute', { toolCallId: 'c1', toolName: 'read_file', arguments: { path: 'a' } }, { agentCall: { toolName: 'read', input: { path: 'a' } } }),
    );
    expect(seamOf(piBridge, { hook_event_name: 'tool_result', tool_name: 'read', tool_call_id: 'c1', input: { path: 'a' }, content: [{ type: 'text', text: 'x' }], is_error: true })).toStrictEqual(
      seam('tool_result', 'tools/post-execute', { toolCallId: 'c1', toolName: 'read_file', arguments: { path: 'a' }, result: { content: 'x', isError: true } }),
    );
    expect(seamOf(piBridge, { hook_event_name: 'agent_end' })).toStrictEqual(seam('agent_end', 'agent/turn-continuation', { continuations: 0 }, { alreadyContinued: false }));
    expect(seamOf(piBridge, { hook_event_name: 'agent_end', last_assistant_text: 'done', continued: true })).toStrictEqual(
      seam('agent_end', 'agent/turn-continuation', { continuations: 0, lastAssistantText: 'done' }, { alreadyContinued: true }),
    );
  });

  it('a compaction (session_before_compact): manual only with a person\'s instructions, else auto; a block is {block}, an allow (its context pi cannot take) nothing; a fault lets it go ahead', () => {
    expect(seamOf(piBridge, { hook_event_name: 'session_before_compact' })).toStrictEqual(seam('session_before_compact', 'agent/pre-compact', { trigger: 'auto' }));
    expect(seamOf(piBridge, { hook_event_name: 'session_before_compact', custom_instructions: 'keep the API notes' })).toStrictEqual(
      seam('session_before_compact', 'agent/pre-compact', { trigger: 'manual', instructions: 'keep the API notes' }),
    );
    expect(seamOf(piBridge, { hook_event_name: 'session_before_compact', custom_instructions: ' ' })).toStrictEqual(seam('session_before_compact', 'agent/pre-compact', { trigger: 'auto' }));
    expect(piBridge.toSeam({ session_id: 's-1', cwd: CWD, hook_event_name: 'session_before_compact', custom_instructions: 7 })).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^input\.custom_instructions: /) });
    const compact = seamOf(piBridge, { hook_event_name: 'session_before_compact' }) as AgentSeamEvent<'agent/pre-compact'>;
    expect(piBridge.answer(compact, { action: 'block', reason: 'mid-migration \u001b[31m' })).toStrictEqual(json({ block: 'mid-migration \\x1b[31m' }));
    expect(piBridge.answer(compact, { action: 'allow', additionalContext: 'keep the schema' })).toStrictEqual(NO_OPINION);
    expect(piBridge.failClosed('session_before_compact', 'down')).toStrictEqual(NO_OPINION);
  });

  it('an event it does not read passes with no opinion; a malformed one is invalid, naming the field', () => {
    expect(piBridge.toSeam({ session_id: 's-1', cwd: CWD, hook_event_name: 'turn_end' })).toStrictEqual({ kind: 'pass', event: 'turn_end', sessionId: 's-1', answer: NO_OPINION });
    expect(piBridge.toSeam({ session_id: 's-1', cwd: CWD, hook_event_name: 'tool_result', tool_name: 'bash', tool_call_id: 'c', input: {}, content: [] })).toStrictEqual({
      kind: 'invalid',
      event: 'tool_result',
      message: 'input.is_error: Invalid input: expected boolean, received undefined',
    });
    expect(piBridge.toSeam({ session_id: 's-1', cwd: CWD, hook_event_name: 'tool_call', tool_name: 'bash', tool_call_id: 'c'.repeat(257), input: {} })).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^input\.tool_call_id: /) });
  });
});

describe('OpenCode and Kilo CLI events → seam calls, whole', () => {
  it.each([openCodeBridge, kiloBridge])('$name: each event it reads', (bridge) => {
    expect(seamOf(bridge, { hook_event_name: 'session.created' })).toStrictEqual(seam('session.created', 'agent/session-start', { source: 'startup' }));
    expect(seamOf(bridge, { hook_event_name: 'chat.message', text: 'hi' })).toStrictEqual(seam('chat.message', 'agent/prompt-submit', { content: 'hi', source: 'api' }));
    expect(seamOf(bridge, { hook_event_name: 'tool.execute.before', tool_name: 'write', tool_call_id: 'c1', input: { filePath: 'a', content: 'x' } })).toStrictEqual(
      seam('tool.execute.before', 'tools/pre-execute', { toolCallId: 'c1', toolName: 'write_file', arguments: { path: 'a', content: 'x' } }, { agentCall: { toolName: 'write', input: { filePath: 'a', content: 'x' } } }),
    );
    expect(seamOf(bridge, { hook_event_name: 'tool.execute.after', tool_name: 'read', tool_call_id: 'c1', input: { filePath: 'a' }, output: 'text', exit_code: 1 })).toStrictEqual(
      seam('tool.execute.after', 'tools/post-execute', { toolCallId: 'c1', toolName: 'read_file', arguments: { path: 'a' }, result: { content: 'text', isError: false } }),
    );
    expect(seamOf(bridge, { hook_event_name: 'session.idle' })).toStrictEqual(seam('session.idle', 'agent/turn-continuation', { continuations: 0 }, { alreadyContinued: false }));
    expect(seamOf(bridge, { hook_event_name: 'session.idle', continued: true })).toStrictEqual(seam('session.idle', 'agent/turn-continuation', { continuations: 0 }, { alreadyContinued: true }));
    expect(bridge.toSeam({ session_id: 's-1', cwd: CWD, hook_event_name: 'session.error' })).toStrictEqual({ kind: 'pass', event: 'session.error', sessionId: 's-1', answer: NO_OPINION });
  });

  it("Kilo reads its own tools, OpenCode flags them", () => {
    const event = { hook_event_name: 'tool.execute.before', tool_name: 'background_process', tool_call_id: 'c1', input: { action: 'start', command: 'x' } };
    expect(seamOf(kiloBridge, event).payload).toStrictEqual({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'x' } });
    expect(seamOf(openCodeBridge, event).payload).toStrictEqual({ toolCallId: 'c1', toolName: 'background_process', arguments: { action: 'start', command: 'x', ...FLAG } });
  });
});

describe('the plugin bridges: decisions → the exact answer, per agent', () => {
  const pre = (bridge: AgentBridge) => seamOf(bridge, { hook_event_name: bridge.name === 'pi' ? 'tool_call' : 'tool.execute.before', tool_name: 'bash', tool_call_id: 'c', input: { command: 'x' } });
  const post = (bridge: AgentBridge) =>
    seamOf(
      bridge,
      bridge.name === 'pi'
        ? { hook_event_name: 'tool_result', tool_name: 'bash', tool_call_id: 'c', input: { command: 'x' }, content: [], is_error: false }
        : { hook_event_name: 'tool.execute.after', tool_name: 'bash', tool_call_id: 'c', input: { command: 'x' }, output: '' },
    );
  const prompt = (bridge: AgentBridge) => seamOf(bridge, bridge.name === 'pi' ? { hook_event_name: 'input', text: 'hi' } : { hook_event_name: 'chat.message', text: 'hi' });
  const start = (bridge: AgentBridge) => seamOf(bridge, { hook_event_name: bridge.name === 'pi' ? 'session_start' : 'session.created' });
  const end = (bridge: AgentBridge) => seamOf(bridge, { hook_event_name: bridge.name === 'pi' ? 'agent_end' : 'session.idle' });
  const answer = <S extends SeamId>(bridge: AgentBridge, event: AgentSeamEvent, decision: DecisionOf<S>) => bridge.answer(event as AgentSeamEvent<S>, decision);

  it.each([
    [piBridge, 'pi'],
    [openCodeBridge, 'OpenCode'],
    [kiloBridge, 'Kilo CLI'],
  ] as const)('%s', (bridge, label) => {
    expect(bridge.label).toBe(label);
    expect(bridge.canReplace).toStrictEqual({ prompt: true, toolResult: true });
    expect(answer(bridge, pre(bridge), { action: 'ask' })).toStrictEqual(json({ deny: `a hookbox hook asks for confirmation, which a hook in ${label} cannot request, so the call is denied` }));
    expect(answer(bridge, pre(bridge), { action: 'deny', reason: 'no\u0007' })).toStrictEqual(json({ deny: 'no\\x07' }));
    expect(answer(bridge, pre(bridge), { action: 'allow' })).toStrictEqual(NO_OPINION);
    expect(answer(bridge, post(bridge), { action: 'accept', content: '' })).toStrictEqual(json({ content: WITHHELD_OUTPUT }));
    expect(answer(bridge, post(bridge), { action: 'accept', content: 'r\n', additionalContext: 'c' })).toStrictEqual(json({ content: 'r', context: 'c' }));
    expect(answer(bridge, post(bridge), { action: 'accept', additionalContext: 'c' })).toStrictEqual(json({ context: 'c' }));
    expect(answer(bridge, post(bridge), { action: 'accept' })).toStrictEqual(NO_OPINION);
    expect(answer(bridge, prompt(bridge), { action: 'allow', content: 'hi', additionalContext: 'c' })).toStrictEqual(json({ context: 'c' }));
    expect(answer(bridge, prompt(bridge), { action: 'allow', content: 'bye', additionalContext: 'c' })).toStrictEqual(json({ text: 'bye', context: 'c' }));
    expect(answer(bridge, prompt(bridge), { action: 'allow' })).toStrictEqual(NO_OPINION);
    expect(answer(bridge, start(bridge), { additionalContext: 'rules' })).toStrictEqual(json({ context: 'rules' }));
    expect(answer(bridge, start(bridge), {})).toStrictEqual(NO_OPINION);
    expect(answer(bridge, end(bridge), { action: 'continue' })).toStrictEqual(json({ continue: CONTINUE_REASON }));
    expect(answer(bridge, end(bridge), { action: 'continue', reason: 'tests fail' })).toStrictEqual(json({ continue: 'tests fail' }));
    expect(answer(bridge, end(bridge), { action: 'stop' })).toStrictEqual(NO_OPINION);
  });

  it.each([
    [piBridge, 'tool_call', 'tool_result', 'input', 'agent_end', 'session_start'],
    [openCodeBridge, 'tool.execute.before', 'tool.execute.after', 'chat.message', 'session.idle', 'session.created'],
    [kiloBridge, 'tool.execute.before', 'tool.execute.after', 'chat.message', 'session.idle', 'session.created'],
  ] as const)('%s fails closed per event: deny, withhold, block; lets an end or a start through; exit 2 for an event it does not know', (bridge, preTool, postTool, promptEvent, endEvent, startEvent) => {
    expect(bridge.failClosed(preTool, 'down')).toStrictEqual(json({ deny: 'hookbox: down' }));
    expect(bridge.failClosed(postTool, 'down')).toStrictEqual(json({ content: `${WITHHELD_OUTPUT}: hookbox: down`, isError: true }));
    expect(bridge.failClosed(promptEvent, 'down')).toStrictEqual(json({ block: 'hookbox: down' }));
    expect(bridge.failClosed(endEvent, 'down')).toStrictEqual(NO_OPINION);
    expect(bridge.failClosed(startEvent, 'down')).toStrictEqual(NO_OPINION);
    expect(bridge.failClosed('PreToolUse', 'down')).toStrictEqual({ exitCode: 2, stdout: '', stderr: 'hookbox: down\n' });
  });

  it('probes: a bash `true` as each plugin sends it, timed in milliseconds, decided by its bridge', () => {
    for (const [bridge, event] of [
      [piBridge, 'tool_call'],
      [openCodeBridge, 'tool.execute.before'],
      [kiloBridge, 'tool.execute.before'],
    ] as const) {
      expect(bridge.probe.timeoutUnitMs).toBe(1);
      const probe = bridge.probe.event('/p');
      expect(probe).toStrictEqual({ hook_event_name: event, session_id: 'hookbox-doctor-probe', cwd: '/p', tool_name: 'bash', tool_call_id: 'hookbox-doctor-probe', input: { command: 'true' } });
      expect(bridge.toSeam(probe)).toStrictEqual({
        kind: 'seam',
        event: {
          event,
          sessionId: 'hookbox-doctor-probe',
          cwd: '/p',
          seam: 'tools/pre-execute',
          payload: { toolCallId: 'hookbox-doctor-probe', toolName: 'bash', arguments: { command: 'true' } },
          agentCall: { toolName: 'bash', input: { command: 'true' } },
        },
      });
    }
  });
});

describe('the plugin file: where each agent loads it from, and what setup writes', () => {
  const saved = { PI_CODING_AGENT_DIR: process.env.PI_CODING_AGENT_DIR, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  let project: TestWorkspace;
  beforeEach(() => {
    project = makeWorkspace('hookbox-plugin-bridges-');
    delete process.env.PI_CODING_AGENT_DIR;
    delete process.env.XDG_CONFIG_HOME;
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    project.dispose();
  });

  it('user folders: $XDG_CONFIG_HOME (resolved) else ~/.config; $PI_CODING_AGENT_DIR (resolved) else ~/.pi/agent; an empty variable is unset', () => {
    const user = { kind: 'user', home: '/h' } as const;
    expect([piBridge, openCodeBridge, kiloBridge].map((bridge) => bridge.setup.settingsPath(user))).toStrictEqual([
      '/h/.pi/agent/extensions/hookbox.ts',
      '/h/.config/opencode/plugin/hookbox.js',
      '/h/.config/kilo/plugins/hookbox.js',
    ]);
    process.env.XDG_CONFIG_HOME = '';
    process.env.PI_CODING_AGENT_DIR = '';
    expect([xdgConfigDir('/h', 'kilo'), piAgentDir('/h')]).toStrictEqual(['/h/.config/kilo', '/h/.pi/agent']);
    process.env.XDG_CONFIG_HOME = 'rel/xdg';
    process.env.PI_CODING_AGENT_DIR = 'rel/pi';
    expect([xdgConfigDir('/h', 'opencode'), piAgentDir('/h')]).toStrictEqual([resolve('rel/xdg/opencode'), resolve('rel/pi')]);
    expect([piBridge, openCodeBridge, kiloBridge].map((bridge) => bridge.setup.settingsPath(user))).toStrictEqual([
      resolve('rel/pi/extensions/hookbox.ts'),
      resolve('rel/xdg/opencode/plugin/hookbox.js'),
      resolve('rel/xdg/kilo/plugins/hookbox.js'),
    ]);
  });

  it.each([
    [piBridge, '.pi', 'pi', 'host/agents/pi/extension.mjs', '.pi/extensions/hookbox.ts', 'import { hookboxPiExtension } from', 'export default hookboxPiExtension('],
    [openCodeBridge, '.opencode', 'opencode', 'host/agents/opencode/plugin.mjs', '.opencode/plugin/hookbox.js', 'import { hookboxOpenCodePlugin } from', 'export const HookboxPlugin = hookboxOpenCodePlugin('],
    [kiloBridge, '.kilo', 'kilo', 'host/agents/kilo/plugin.mjs', '.kilo/plugins/hookbox.js', 'import { hookboxKiloPlugin } from', 'export const HookboxPlugin = hookboxKiloPlugin('],
  ] as const)('%s: its file, module, detection and refusals; the text it writes parses back to the same settings', (bridge, folder, command, module, file, importLine, exportLine) => {
    const setup = bridge.setup;
    expect(setup.settingsPath({ kind: 'project', dir: '/p' })).toBe(`/p/${file}`);
    expect(setup.detect).toStrictEqual({ folders: [folder], commands: [command] });
    expect(setup.plugin).toStrictEqual({ module });
    expect(setup.unsupported('plugin')).toBeUndefined();
    expect(setup.unsupported('command')).toBe(`${bridge.label} has no command hooks (it loads hookbox as a plugin in its own process); use --transport plugin`);
    expect(setup.tradeOff('plugin')).toMatch(new RegExp(`^${bridge.label} runs hookbox's (plugin|extension) in its own process`));
    const options = { socket: '.hookbox/run/serve.sock', config: 'hookbox.config.json', deadlineMs: 25_000 };
    const { settings, changes } = setup.apply({}, { kind: 'plugin', module: `../../node_modules/hookbox/${module}`, options });
    expect(settings).toStrictEqual({ hookbox: { module: `../../node_modules/hookbox/${module}`, options } });
    expect(changes).toStrictEqual([{ action: 'added', where: 'plugin', what: `plugin ../../node_modules/hookbox/${module} (socket .hookbox/run/serve.sock, config hookbox.config.json, deadline 25000 ms)` }]);
    const text = setup.fileFormat!.format(settings)!;
    expect(text.split('\n')).toStrictEqual([
      `// hookbox: written by \`hookbox setup ${bridge.name}\`; \`hookbox setup ${bridge.name} --remove\` deletes this file. The options are JSON: socket and config`,
      '// relative to the project, deadlineMs the longest one answer may take (past it the plugin answers closed).',
      `${importLine} "../../node_modules/hookbox/${module}";`,
      `${exportLine}${JSON.stringify(options)}, import.meta.url);`,
      '',
    ]);
    expect(setup.fileFormat!.parse(text)).toStrictEqual(settings);
    expect(setup.remove(settings)).toStrictEqual({ settings: {}, changes: [{ action: 'removed', where: 'plugin', what: changes[0]!.what }] });
    expect(setup.fileFormat!.format({})).toBeUndefined();
  });

  it.each(['pi', 'opencode', 'kilo'])('%s in a real project: written, unchanged when run again, gone with --remove; a foreign file is refused and left as it was', (agent) => {
    const config = writeExampleConfig(project.dir, [{ name: 'guard-bash' }]);
    const bridge = { pi: piBridge, opencode: openCodeBridge, kilo: kiloBridge }[agent]!;
    const file = bridge.setup.settingsPath({ kind: 'project', dir: project.dir });
    const out: string[] = [];
    setupCommand(agent, { project: project.dir, config }, (text) => out.push(text));
    const text = readFileSync(file, 'utf8');
    const settings = bridge.setup.fileFormat!.parse(text) as { hookbox: { module: string; options: { socket: string; config: string } } };
    expect(settings.hookbox.options).toMatchObject({ socket: '.hookbox/run/serve.sock', config: 'hookbox.config.json' });
    expect(out).toContain(`${bridge.label} loads ${file} when it starts: restart running ${bridge.label} sessions\n`);
    out.length = 0;
    setupCommand(agent, { project: project.dir, config }, (line) => out.push(line));
    expect(out[0]).toBe(`${bridge.label} settings ${file}: unchanged\n`);
    expect(readFileSync(file, 'utf8')).toBe(text);
    out.length = 0;
    setupCommand(agent, { project: project.dir, remove: true }, (line) => out.push(line));
    expect(existsSync(file)).toBe(false);
    expect(out.filter((line) => line.includes('restart running'))).toStrictEqual([]);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '// mine\n');
    expect(() => setupCommand(agent, { project: project.dir, config }, () => {})).toThrow(/not written by hookbox setup/);
    expect(readFileSync(file, 'utf8')).toBe('// mine\n');
  });
});
