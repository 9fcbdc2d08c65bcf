/**
 * The small shared modules of host/agents, through their own API: the common
 * event fields and how a malformed event is reported (event-input,
 * bridge-parts), the call id of an event that has none, agent detection on
 * real folders and a real PATH, the tool-table metadata, the answer deadline
 * and the registry's refusal.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { HOOK_CLIENT_DEFAULT_DEADLINE_MS, agentAnswerTimeoutMs, hookClientDeadlineMs } from '../../host/agents/answer-deadline.ts';
import { CommonEventSchema, eventNameOf, firstEvents, toolCallIdFromCall } from '../../host/agents/bridge-parts.ts';
import { detectAgents, onPath } from '../../host/agents/detect.ts';
import { invalidEvent, safeContext, safeText } from '../../host/agents/event-input.ts';
import { pluginSeamAnswers } from '../../host/agents/plugin-answers.ts';
import { AGENT_BRIDGES, agentBridge } from '../../host/agents/registry.ts';
import { TOOL_META_KEY, isUnmappedCall, listedTools, mcpToolName } from '../../host/agents/tool-table.ts';
import { ConfigError } from '../../host/errors.ts';
import { makeWorkspace, type TestWorkspace } from '../helpers/session.ts';

describe('event input', () => {
  const invalid = (schema: z.ZodType, input: unknown, event?: string) => {
    const parsed = schema.safeParse(input);
    if (parsed.success) throw new Error('expected the input to be refused');
    return invalidEvent(parsed.error, event);
  };

  it('names the JSON path and what was expected, for the first three issues', () => {
    const common = { hook_event_name: 'PreToolUse', session_id: 's1', cwd: '/work' };
    expect(invalid(CommonEventSchema, { ...common, session_id: 'ok/../etc', cwd: 'work' }, 'PreToolUse')).toStrictEqual({
      kind: 'invalid',
      event: 'PreToolUse',
      message: 'input.session_id: a session id of letters, digits, ".", "_" or "-" (at most 128); input.cwd: an absolute path',
    });
    const deep = z.object({ tool: z.object({ input: z.object({ path: z.string() }) }), a: z.string(), b: z.string(), c: z.string() });
    expect(invalid(deep, { tool: { input: {} } })).toStrictEqual({
      kind: 'invalid',
      message: 'input.tool.input.path: Invalid input: expected string, received undefined; input.a: Invalid input: expected string, received undefined; input.b: Invalid input: expected string, received undefined',
    });
    expect(invalid(CommonEventSchema, 'text', 'x'.repeat(100))).toStrictEqual({
      kind: 'invalid',
      event: 'x'.repeat(64),
      message: 'input.(root): Invalid input: expected object, received string',
    });
  });

  it('the event name of unparsed input is read only when it is a string', () => {
    expect(eventNameOf({ hook_event_name: 'Stop' })).toBe('Stop');
    expect(eventNameOf({ hook_event_name: 5 })).toBeUndefined();
    expect(eventNameOf(null)).toBeUndefined();
  });

  it('a reason is capped at 4,000 characters, a context at 4,000 a line and 200 lines', () => {
    expect(safeText('a'.repeat(3000))).toBe('a'.repeat(3000));
    expect(safeText('a'.repeat(4001))).toBe(`${'a'.repeat(3999)}…`);
    const lines = Array.from({ length: 150 }, (_, i) => `line ${i} ${'b'.repeat(2000)}`);
    expect(safeContext(lines.join('\n'))).toBe(lines.join('\n'));
    const many = Array.from({ length: 250 }, (_, i) => `line ${i}`);
    expect(safeContext(many.join('\n'))).toBe([...many.slice(0, 199), '… (51 more lines)'].join('\n'));
  });
});

describe('bridge parts', () => {
  it('the call id of an event without one: the same call the same id, another call another', () => {
    // Pinned: an id must not change between hookbox versions while a session's log pairs pre and post.
    expect(toolCallIdFromCall('gemini', 'run_shell_command', { command: 'ls' })).toBe('gemini-12bd01c87797eafc');
    expect(toolCallIdFromCall('gemini', 'x', undefined)).toBe('gemini-14f825b2bbc32dd8');
    expect(toolCallIdFromCall('gemini', 'x1', 2)).not.toBe(toolCallIdFromCall('gemini', 'x', 12));
  });

  it('the seam → event direction of a protocol table is each seam’s first row', () => {
    const table = {
      'agent/session-start': [
        { event: 'SessionStart', answers: 'context' },
        { event: 'Resume', answers: 'context' },
      ],
      'tools/pre-execute': [{ event: 'BeforeTool', answers: 'deny' }],
    } as const;
    expect(firstEvents(table)).toStrictEqual({ 'agent/session-start': 'SessionStart', 'tools/pre-execute': 'BeforeTool' });
  });

  it('a plugin agent is told that an output a hook emptied was withheld', () => {
    const answers = pluginSeamAnswers('pi');
    expect(answers['tools/post-execute']({ action: 'accept', content: '' }, {} as never)).toStrictEqual({
      exitCode: 0,
      stdout: '{"content":"(output withheld by a hookbox hook)"}\n',
      stderr: '',
    });
  });
});

describe('detection', () => {
  let workspace: TestWorkspace;
  beforeEach(() => {
    workspace = makeWorkspace('hookbox-detect-');
  });
  afterEach(() => {
    workspace.dispose();
  });

  const executable = (dir: string, name: string) => {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, name);
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
    return file;
  };

  it('the first executable file of that name on PATH; folders, non-executables, relative and empty entries are not evidence', () => {
    const bin = path.join(workspace.dir, 'bin');
    const relativeBin = executable(path.join(workspace.dir, 'rel'), 'claude');
    mkdirSync(path.join(workspace.dir, 'dir', 'claude'), { recursive: true });
    mkdirSync(path.join(workspace.dir, 'plain'), { recursive: true });
    writeFileSync(path.join(workspace.dir, 'plain', 'claude'), 'not executable\n');
    const found = executable(bin, 'claude');
    const pathVariable = ['', path.relative(process.cwd(), path.dirname(relativeBin)), path.join(workspace.dir, 'dir'), path.join(workspace.dir, 'plain'), bin].join(path.delimiter);
    expect(onPath('claude', pathVariable)).toBe(found);
    expect(onPath('claude', [path.relative(process.cwd(), path.dirname(relativeBin)), path.join(workspace.dir, 'dir')].join(path.delimiter))).toBeUndefined();
  });

  it('a user’s agents by their folders in the home folder, else by their commands on PATH', () => {
    const home = path.join(workspace.dir, 'home');
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    const bin = path.join(workspace.dir, 'bin');
    const codex = executable(bin, 'codex');
    expect(detectAgents({ kind: 'user', home }, bin)).toStrictEqual([
      { name: 'claude-code', why: `.claude/ in ${home}` },
      { name: 'codex', why: `codex on PATH (${codex})` },
    ]);
    expect(detectAgents({ kind: 'project', dir: path.join(workspace.dir, 'none') }, '')).toStrictEqual([]);
  });
});

describe('tool table', () => {
  it('an MCP tool name splits at the first "__" after the server; anything else is not one', () => {
    expect(mcpToolName('mcp__github__create__issue')).toStrictEqual({ server: 'github', tool: 'create__issue' });
    expect(mcpToolName('xmcp__github__create')).toBeUndefined();
    expect(mcpToolName('mcp__github__create\nrm')).toBeUndefined();
    expect(mcpToolName('mcp__github')).toBeUndefined();
  });

  it('a call is unmapped only when its metadata says so', () => {
    expect(isUnmappedCall({ arguments: { [TOOL_META_KEY]: { unmappedTool: true } } })).toBe(true);
    expect(isUnmappedCall({ arguments: { [TOOL_META_KEY]: { mcpServer: 'github', mcpTool: 'x' } } })).toBe(false);
    expect(isUnmappedCall({ arguments: { [TOOL_META_KEY]: null } })).toBe(false);
    expect(isUnmappedCall({ arguments: { [TOOL_META_KEY]: 'unmappedTool' } })).toBe(false);
    expect(isUnmappedCall({ arguments: {} })).toBe(false);
  });

  it('the listed tools are the table’s tool names, mapped or passed', () => {
    expect(
      listedTools([
        { tool: 'Bash', as: 'bash', how: 'command' },
        { tool: 'Agent', as: 'Agent', how: 'passed' },
      ]),
    ).toStrictEqual(new Set(['Bash', 'Agent']));
  });
});

describe('answer deadline', () => {
  it('sums each hook’s deadline (a shell hook’s default is ten minutes, a wasm hook’s one second) on top of the start', () => {
    expect(hookClientDeadlineMs({ hooks: [] })).toBe(HOOK_CLIENT_DEFAULT_DEADLINE_MS);
    expect(hookClientDeadlineMs({ hooks: [{ limits: {}, command: 'sh x' }] })).toBe(15_000 + 600_000);
    expect(hookClientDeadlineMs({ hooks: [{ limits: {} }, { limits: { timeoutMs: 20_000 } }] })).toBe(15_000 + 1_000 + 20_000);
    expect(agentAnswerTimeoutMs({ hooks: [{ limits: { timeoutMs: 20_000 }, command: 'sh x' }] })).toBe(15_000 + 20_000 + 5_000);
  });
});

describe('registry', () => {
  it('an unknown agent name is refused with the names there are', () => {
    expect(agentBridge('codex')).toBe(AGENT_BRIDGES.codex);
    expect(() => agentBridge('cursor')).toThrow(new ConfigError('unknown agent "cursor" (expected one of: claude-code, codex, gemini, qwen, factory, pi, opencode, kilo, copilot, cline)'));
  });
});
