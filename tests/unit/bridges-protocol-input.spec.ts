/**
 * The JSON a Claude Code / Codex hook reads on stdin for each seam call
 * (host/bridges/protocol-input.ts), one row per event of the README's
 * "Events and seams" table and per tool shape, each compared whole for both
 * protocols: the common fields, Codex's additions (`model`, `turn_id`,
 * `last_assistant_message`), `transcript_path`, and the `tool_input` /
 * `tool_response` shapes with paths as the model wrote them. Then the
 * event ↔ seam tables of host/bridges/protocol.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  EVENT_FOR_SEAM,
  PROTOCOL_LABEL,
  SEAM_FOR_EVENT,
  SESSION_START_SOURCES,
  TOOL_DEFAULT_TIMEOUT_MS,
  isToolEventName,
} from '../../host/bridges/protocol.ts';
import { protocolInput } from '../../host/bridges/protocol-input.ts';
import type { SeamCall } from '../../host/events/index.ts';
import type { DecisionOf, PayloadOf, SeamId } from '../../host/seams/index.ts';

const SESSION = { id: 's-1', turn: 3, step: 1, cwd: '/work/project' } as const;
const NEXT: { [S in SeamId]: DecisionOf<S> | null } = {
  'agent/session-start': null,
  'agent/prompt-submit': { action: 'allow' },
  'tools/pre-execute': { action: 'allow' },
  'tools/post-execute': { action: 'accept' },
  'agent/turn-continuation': { action: 'stop' },
  'tools/permission-request': { action: 'ask' },
  'agent/subagent-start': null,
  'agent/subagent-stop': { action: 'stop' },
  'agent/notification': null,
  'agent/pre-compact': { action: 'allow' },
  'agent/session-end': null,
};
const call = <S extends SeamId>(seam: S, payload: PayloadOf<S>): SeamCall<S> => ({ seam, payload, next: NEXT[seam], session: SESSION });

/** The fields every event carries, per protocol (Codex's `turn_id` only at turn scope). */
const common = (event: string) => ({
  cc: { session_id: 's-1', transcript_path: null, cwd: '/work/project', permission_mode: 'default', hook_event_name: event },
  codex: { session_id: 's-1', transcript_path: null, cwd: '/work/project', model: 'hookbox', permission_mode: 'default', hook_event_name: event },
});
const turnScope = (event: string) => ({ cc: common(event).cc, codex: { ...common(event).codex, turn_id: 'turn-3' } });

interface Row {
  readonly name: string;
  readonly call: SeamCall<SeamId>;
  readonly cc: Record<string, unknown>;
  readonly codex: Record<string, unknown>;
}

/** A tool seam's row: the same tool fields on pre-execute, plus `tool_response` on post-execute. */
function toolRow(
  name: string,
  seam: 'tools/pre-execute' | 'tools/post-execute',
  payload: PayloadOf<'tools/post-execute'>,
  cc: Record<string, unknown>,
  codex: Record<string, unknown>,
): Row {
  const event = seam === 'tools/pre-execute' ? 'PreToolUse' : 'PostToolUse';
  const base = turnScope(event);
  const { result: _result, ...preTool } = payload;
  return {
    name,
    call: seam === 'tools/pre-execute' ? call(seam, preTool) : call(seam, payload),
    cc: { ...base.cc, ...cc, tool_use_id: payload.toolCallId },
    codex: { ...base.codex, ...codex, tool_use_id: payload.toolCallId },
  };
}

const bash = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf build', timeoutMs: 5000 } };
const done = (content: string, isError = false) => ({ content, isError });

const ROWS: readonly Row[] = [
  {
    name: 'SessionStart: source, no turn_id',
    call: call('agent/session-start', { source: 'resume' }),
    cc: { ...common('SessionStart').cc, source: 'resume' },
    codex: { ...common('SessionStart').codex, source: 'resume' },
  },
  {
    name: 'UserPromptSubmit: prompt',
    call: call('agent/prompt-submit', { content: 'fix the failing test', source: 'cli' }),
    cc: { ...turnScope('UserPromptSubmit').cc, prompt: 'fix the failing test' },
    codex: { ...turnScope('UserPromptSubmit').codex, prompt: 'fix the failing test' },
  },
  {
    name: 'Stop, first time: stop_hook_active false; Codex adds the last assistant message',
    call: call('agent/turn-continuation', { continuations: 0, lastAssistantText: 'done' }),
    cc: { ...turnScope('Stop').cc, stop_hook_active: false },
    codex: { ...turnScope('Stop').codex, stop_hook_active: false, last_assistant_message: 'done' },
  },
  {
    name: 'Stop, continued once: stop_hook_active true; no last message is null',
    call: call('agent/turn-continuation', { continuations: 1 }),
    cc: { ...turnScope('Stop').cc, stop_hook_active: true },
    codex: { ...turnScope('Stop').codex, stop_hook_active: true, last_assistant_message: null },
  },
  toolRow(
    'PreToolUse bash: Bash {command, timeout} (Codex: no timeout)',
    'tools/pre-execute',
    { ...bash, result: done('') },
    { tool_name: 'Bash', tool_input: { command: 'rm -rf build', timeout: 5000 } },
    { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
  ),
  toolRow(
    'PreToolUse bash without a timeout',
    'tools/pre-execute',
    { toolCallId: 'c2', toolName: 'bash', arguments: { command: 'ls' }, result: done('') },
    { tool_name: 'Bash', tool_input: { command: 'ls' } },
    { tool_name: 'Bash', tool_input: { command: 'ls' } },
  ),
  toolRow(
    'PreToolUse read_file, relative: behind the cwd, `..` kept (Codex: as the model wrote it)',
    'tools/pre-execute',
    { toolCallId: 'c3', toolName: 'read_file', arguments: { path: '../secrets/a.txt' }, result: done('') },
    { tool_name: 'Read', tool_input: { file_path: '/work/project/../secrets/a.txt' } },
    { tool_name: 'read_file', tool_input: { path: '../secrets/a.txt' } },
  ),
  toolRow(
    'PreToolUse read_file, absolute: unchanged',
    'tools/pre-execute',
    { toolCallId: 'c4', toolName: 'read_file', arguments: { path: '/etc/passwd' }, result: done('') },
    { tool_name: 'Read', tool_input: { file_path: '/etc/passwd' } },
    { tool_name: 'read_file', tool_input: { path: '/etc/passwd' } },
  ),
  toolRow(
    'PreToolUse write_file: Write {file_path, content}; Codex: an apply_patch Add File',
    'tools/pre-execute',
    { toolCallId: 'c5', toolName: 'write_file', arguments: { path: 'notes.md', content: 'a\nb\n' }, result: done('') },
    { tool_name: 'Write', tool_input: { file_path: '/work/project/notes.md', content: 'a\nb\n' } },
    { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: notes.md\n+a\n+b\n*** End Patch' } },
  ),
  toolRow(
    'PreToolUse list_dir ".": LS {path: the cwd}',
    'tools/pre-execute',
    { toolCallId: 'c6', toolName: 'list_dir', arguments: { path: '.' }, result: done('') },
    { tool_name: 'LS', tool_input: { path: '/work/project' } },
    { tool_name: 'list_dir', tool_input: { path: '.' } },
  ),
  toolRow(
    'PreToolUse of another tool: passes through',
    'tools/pre-execute',
    { toolCallId: 'c7', toolName: 'mcp__db__query', arguments: { sql: 'select 1' }, result: done('') },
    { tool_name: 'mcp__db__query', tool_input: { sql: 'select 1' } },
    { tool_name: 'mcp__db__query', tool_input: { sql: 'select 1' } },
  ),
  toolRow(
    'PostToolUse bash: the exit code line taken into exit_code (Codex: the content)',
    'tools/post-execute',
    { ...bash, result: done('removed\nexit code: 0') },
    {
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build', timeout: 5000 },
      tool_response: { stdout: 'removed', stderr: '', interrupted: false, isImage: false, exit_code: 0 },
    },
    { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_response: 'removed\nexit code: 0' },
  ),
  toolRow(
    'PostToolUse bash that timed out: interrupted',
    'tools/post-execute',
    { ...bash, result: done('partial\ntimed out after 5000 ms\nexit code: 124', true) },
    {
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build', timeout: 5000 },
      tool_response: { stdout: 'partial', stderr: '', interrupted: true, isImage: false, exit_code: 124 },
    },
    { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_response: 'partial\ntimed out after 5000 ms\nexit code: 124' },
  ),
  toolRow(
    'PostToolUse read_file: {type: "text", file: {filePath, content}}',
    'tools/post-execute',
    { toolCallId: 'c3', toolName: 'read_file', arguments: { path: 'src/a.ts' }, result: done('export {}') },
    { tool_name: 'Read', tool_input: { file_path: '/work/project/src/a.ts' }, tool_response: { type: 'text', file: { filePath: '/work/project/src/a.ts', content: 'export {}' } } },
    { tool_name: 'read_file', tool_input: { path: 'src/a.ts' }, tool_response: 'export {}' },
  ),
  toolRow(
    'PostToolUse write_file: {type: "create", filePath, content}',
    'tools/post-execute',
    { toolCallId: 'c5', toolName: 'write_file', arguments: { path: 'notes.md', content: 'hi' }, result: done('wrote 2 bytes') },
    {
      tool_name: 'Write',
      tool_input: { file_path: '/work/project/notes.md', content: 'hi' },
      tool_response: { type: 'create', filePath: '/work/project/notes.md', content: 'hi' },
    },
    { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: notes.md\n+hi\n*** End Patch' }, tool_response: 'wrote 2 bytes' },
  ),
  toolRow(
    'PostToolUse of a failed built-in: {success: false, error}',
    'tools/post-execute',
    { toolCallId: 'c8', toolName: 'write_file', arguments: { path: '/etc/x', content: 'x' }, result: done('EACCES', true) },
    { tool_name: 'Write', tool_input: { file_path: '/etc/x', content: 'x' }, tool_response: { success: false, error: 'EACCES' } },
    { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: /etc/x\n+x\n*** End Patch' }, tool_response: 'EACCES' },
  ),
  toolRow(
    'PostToolUse list_dir: the listing',
    'tools/post-execute',
    { toolCallId: 'c6', toolName: 'list_dir', arguments: { path: 'src' }, result: done('a.ts\nb.ts') },
    { tool_name: 'LS', tool_input: { path: '/work/project/src' }, tool_response: 'a.ts\nb.ts' },
    { tool_name: 'list_dir', tool_input: { path: 'src' }, tool_response: 'a.ts\nb.ts' },
  ),
  toolRow(
    'PostToolUse of another tool: {content, isError}',
    'tools/post-execute',
    { toolCallId: 'c7', toolName: 'mcp__db__query', arguments: { sql: 'select 1' }, result: done('1 row', false) },
    { tool_name: 'mcp__db__query', tool_input: { sql: 'select 1' }, tool_response: { content: '1 row', isError: false } },
    { tool_name: 'mcp__db__query', tool_input: { sql: 'select 1' }, tool_response: '1 row' },
  ),
];

describe('protocol input: the JSON a hook reads on stdin', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    expect(protocolInput('claude-code', row.call)).toStrictEqual(row.cc);
    expect(protocolInput('codex', row.call)).toStrictEqual(row.codex);
  });

  it("transcript_path is the Claude Code transcript when the session writes one, and always null for Codex", () => {
    const transcript = '/work/project/.hookbox/session.jsonl.claude-transcript.jsonl';
    for (const row of ROWS) {
      expect(protocolInput('claude-code', row.call, transcript)).toStrictEqual({ ...row.cc, transcript_path: transcript });
      expect(protocolInput('codex', row.call, transcript)).toStrictEqual(row.codex);
    }
  });
});

describe('events and seams (host/bridges/protocol.ts)', () => {
  it('each seam is sent one event, and each event maps back to its seam', () => {
    const table = {
      'agent/session-start': 'SessionStart',
      'agent/prompt-submit': 'UserPromptSubmit',
      'tools/pre-execute': 'PreToolUse',
      'tools/post-execute': 'PostToolUse',
      'agent/turn-continuation': 'Stop',
      'tools/permission-request': 'PermissionRequest',
      'agent/subagent-start': 'SubagentStart',
      'agent/subagent-stop': 'SubagentStop',
      'agent/notification': 'Notification',
      'agent/pre-compact': 'PreCompact',
      'agent/session-end': 'SessionEnd',
    };
    expect(EVENT_FOR_SEAM).toStrictEqual(table);
    expect(SEAM_FOR_EVENT).toStrictEqual(Object.fromEntries(Object.entries(table).map(([seam, event]) => [event, seam])));
  });

  it('knows the eleven events by name, and nothing else', () => {
    const known = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'SubagentStart', 'SubagentStop', 'Stop', 'Notification', 'PreCompact', 'SessionEnd'];
    for (const event of known) expect(isToolEventName(event)).toBe(true);
    for (const other of ['PostToolUseFailure', 'PostCompact', 'PermissionDenied', 'pretooluse', '', 'toString', '__proto__']) expect(isToolEventName(other)).toBe(false);
  });

  it("names the protocols, CC's default timeout (600 s) and the SessionStart sources", () => {
    expect(PROTOCOL_LABEL).toStrictEqual({ 'claude-code': 'Claude Code', codex: 'Codex' });
    expect(TOOL_DEFAULT_TIMEOUT_MS).toBe(600_000);
    expect(SESSION_START_SOURCES).toStrictEqual(['startup', 'resume', 'clear', 'compact']);
  });
});
