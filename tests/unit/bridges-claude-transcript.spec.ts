import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClaudeTranscript, claudeTranscriptPath } from '../../host/bridges/index.ts';
import type { SessionEvent } from '../../host/log/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

const NOW = '2026-01-02T03:04:05.000Z';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let workspace: TestWorkspace;
let file: string;
let errors: string[];
let transcript: ClaudeTranscript;
beforeEach(() => {
  // Only Date is faked: the timestamp each line carries is then known.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(NOW));
  workspace = makeWorkspace('hookbox-claude-transcript-');
  file = claudeTranscriptPath(workspace.logPath);
  errors = [];
  transcript = new ClaudeTranscript(file, { cwd: workspace.dir, onError: (message) => errors.push(message) });
});
afterEach(() => {
  vi.useRealTimers();
  workspace.dispose();
});

function lines(): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What every line carries around its own fields, chained to the line before. */
function framed(written: readonly Record<string, unknown>[], own: readonly Record<string, unknown>[], sessionId = 'sess-1') {
  return own.map((fields, index) => ({
    parentUuid: index === 0 ? null : written[index - 1]!.uuid,
    isSidechain: false,
    userType: 'external',
    cwd: workspace.dir,
    sessionId,
    version: 'hookbox',
    ...fields,
    uuid: written[index]!.uuid,
    timestamp: NOW,
  }));
}

const start: SessionEvent = { type: 'session/start', sessionId: 'sess-1', cwd: '/elsewhere', source: 'startup', at: NOW };

describe('claudeTranscriptPath', () => {
  it('sits beside the session log: a trailing .jsonl is replaced, any other name is kept whole', () => {
    expect(claudeTranscriptPath('/logs/session.jsonl')).toBe('/logs/session.claude-transcript.jsonl');
    expect(claudeTranscriptPath('/logs/session')).toBe('/logs/session.claude-transcript.jsonl');
    expect(claudeTranscriptPath('/logs/a.jsonl.old')).toBe('/logs/a.jsonl.old.claude-transcript.jsonl');
  });
});

describe('ClaudeTranscript', () => {
  it('writes a prompt, a model step with text and tool_use blocks, and tool results the way Claude Code does', () => {
    const events: SessionEvent[] = [
      start,
      { type: 'turn/start', turn: 1, at: NOW },
      { type: 'user/message', turn: 1, content: 'read the notes' },
      {
        type: 'assistant/message',
        turn: 1,
        step: 2,
        content: 'reading',
        toolCalls: [
          { id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } },
          { id: 'c2', name: 'bash', arguments: { command: 'ls', timeoutMs: 5000 } },
        ],
      },
      { type: 'tool/call', turn: 1, step: 2, toolCallId: 'c1', toolName: 'read_file', arguments: { path: 'notes.txt' } },
      { type: 'tool/result', turn: 1, step: 2, toolCallId: 'c1', toolName: 'read_file', content: 'hello', isError: false },
      { type: 'tool/result', turn: 1, step: 2, toolCallId: 'c2', toolName: 'bash', content: 'a\nb\nexit code: 1', isError: true },
      { type: 'assistant/message', turn: 1, step: 3, content: 'done', toolCalls: [] },
      { type: 'turn/end', turn: 1, reason: 'completed', steps: 2 },
    ];
    for (const event of events) transcript.record(event);
    const written = lines();
    expect(written).toStrictEqual(
      framed(written, [
        { type: 'user', message: { role: 'user', content: 'read the notes' } },
        {
          type: 'assistant',
          message: {
            id: 'msg_1_2',
            type: 'message',
            role: 'assistant',
            model: 'hookbox',
            content: [
              { type: 'text', text: 'reading' },
              { type: 'tool_use', id: 'c1', name: 'Read', input: { file_path: `${workspace.dir}/notes.txt` } },
              { type: 'tool_use', id: 'c2', name: 'Bash', input: { command: 'ls', timeout: 5000 } },
            ],
            stop_reason: 'tool_use',
          },
        },
        {
          type: 'user',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'hello', is_error: false }] },
          toolUseResult: { type: 'text', file: { filePath: `${workspace.dir}/notes.txt`, content: 'hello' } },
        },
        {
          type: 'user',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: 'a\nb\nexit code: 1', is_error: true }] },
          toolUseResult: { stdout: 'a\nb', stderr: '', interrupted: false, isImage: false, exit_code: 1 },
        },
        {
          type: 'assistant',
          message: { id: 'msg_1_3', type: 'message', role: 'assistant', model: 'hookbox', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' },
        },
      ]),
    );
    expect(new Set(written.map((line) => line.uuid)).size).toBe(written.length);
    for (const line of written) expect(line.uuid).toMatch(UUID);
    expect(transcript.writing).toBe(true);
    expect(errors).toStrictEqual([]);
  });

  it('one compact JSON object per line, in this key order, so a hook can grep "role":"assistant"', () => {
    transcript.record(start);
    transcript.record({ type: 'user/message', turn: 1, content: 'hi' });
    const [uuid] = lines().map((line) => line.uuid as string);
    expect(readFileSync(file, 'utf8')).toBe(
      `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":${JSON.stringify(workspace.dir)},"sessionId":"sess-1","version":"hookbox","type":"user","message":{"role":"user","content":"hi"},"uuid":"${uuid}","timestamp":"${NOW}"}\n`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a model step with tool calls and no text has only tool_use blocks; hook context is a meta user message, steering a plain one', () => {
    transcript.record(start);
    transcript.record({ type: 'assistant/message', turn: 2, step: 1, content: '', toolCalls: [{ id: 'c9', name: 'mcp__db__query', arguments: { sql: 'x' } }] });
    transcript.record({ type: 'tool/result', turn: 2, step: 1, toolCallId: 'c9', toolName: 'mcp__db__query', content: 'rows', isError: false });
    transcript.record({ type: 'context/message', turn: 2, content: 'branch: main', source: 'post-tool' });
    transcript.record({ type: 'steering/message', turn: 2, content: 'keep going' });
    transcript.record({ type: 'assistant/message', turn: 2, step: 2, content: '', toolCalls: [] });
    const written = lines();
    expect(written).toStrictEqual(
      framed(written, [
        {
          type: 'assistant',
          message: {
            id: 'msg_2_1',
            type: 'message',
            role: 'assistant',
            model: 'hookbox',
            content: [{ type: 'tool_use', id: 'c9', name: 'mcp__db__query', input: { sql: 'x' } }],
            stop_reason: 'tool_use',
          },
        },
        {
          type: 'user',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c9', content: 'rows', is_error: false }] },
          toolUseResult: { content: 'rows', isError: false },
        },
        { type: 'user', message: { role: 'user', content: 'branch: main' }, isMeta: true },
        { type: 'user', message: { role: 'user', content: 'keep going' } },
        { type: 'assistant', message: { id: 'msg_2_2', type: 'message', role: 'assistant', model: 'hookbox', content: [], stop_reason: 'end_turn' } },
      ]),
    );
  });

  it('a tool result whose call it did not see is shaped from the tool name alone', () => {
    transcript.record(start);
    transcript.record({ type: 'tool/result', turn: 1, step: 1, toolCallId: 'old', toolName: 'read_file', content: 'text', isError: false });
    transcript.record({ type: 'tool/result', turn: 1, step: 1, toolCallId: 'old2', toolName: 'bash', content: 'out', isError: false });
    const written = lines();
    expect(written.map((line) => line.toolUseResult)).toStrictEqual([
      { type: 'text', file: { content: 'text' } },
      { stdout: 'out', stderr: '', interrupted: false, isImage: false },
    ]);
  });

  it('names the session begin() gives until a session/start names another; before either the id is empty', () => {
    transcript.record({ type: 'user/message', turn: 1, content: 'first' });
    transcript.begin('resumed-1');
    transcript.record({ type: 'user/message', turn: 2, content: 'second' });
    transcript.record({ ...start, sessionId: 'next' } as SessionEvent);
    transcript.record({ type: 'user/message', turn: 1, content: 'third' });
    expect(lines().map((line) => [line.sessionId, (line.message as { content: string }).content])).toStrictEqual([
      ['', 'first'],
      ['resumed-1', 'second'],
      ['next', 'third'],
    ]);
  });

  it('events that mean nothing in a Claude Code transcript write nothing', () => {
    transcript.record(start);
    transcript.record({ type: 'turn/start', turn: 1, at: NOW });
    transcript.record({ type: 'prompt/blocked', turn: 1, reason: 'no', content: 'secret' });
    transcript.record({ type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } });
    transcript.record({ type: 'turn/end', turn: 1, reason: 'rejected', steps: 0 });
    expect(existsSync(file)).toBe(false);
    expect(transcript.writing).toBe(true);
  });

  it('a failed write stops the transcript for good and says why once', () => {
    const missing = join(workspace.dir, 'gone', 'session.claude-transcript.jsonl');
    const broken = new ClaudeTranscript(missing, { cwd: workspace.dir, onError: (message) => errors.push(message) });
    broken.record(start);
    expect(broken.writing).toBe(true);
    broken.record({ type: 'user/message', turn: 1, content: 'hi' });
    expect(broken.writing).toBe(false);
    expect(errors).toStrictEqual([
      `the Claude Code transcript ${missing} cannot be written (ENOENT: no such file or directory, open '${missing}'); hooks get transcript_path null from now on`,
    ]);
    // Even once the folder exists, nothing more is written, and nothing more is said.
    mkdirSync(join(workspace.dir, 'gone'));
    broken.record({ type: 'user/message', turn: 1, content: 'again' });
    broken.record({ type: 'steering/message', turn: 1, content: 'again' });
    expect(existsSync(missing)).toBe(false);
    expect(errors).toHaveLength(1);
    expect(broken.writing).toBe(false);
  });
});
