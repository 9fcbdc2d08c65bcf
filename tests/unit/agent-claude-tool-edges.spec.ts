/**
 * Claude Code's edit tools and Monitor at the edges of their documented
 * shapes, and Copilot's shell trailer (read in Claude's format) with a
 * multi-digit exit code: each call compared whole, a malformed edit passed
 * flagged unmapped rather than taken for a write.
 */
import { describe, expect, it } from 'vitest';
import { copilotResult } from '../../host/agents/claude-format/copilot-shapes.ts';
import { fromClaudeCodeTool } from '../../host/agents/claude-code/tools.ts';

const CWD = '/work/project';
const flagged = (toolName: string, args: Record<string, unknown>) => ({ toolName, arguments: { ...args, _hookbox: { unmappedTool: true } } });

describe('Claude Code edit tools → write_file', () => {
  it('Edit writes its new_string, whatever else it carries', () => {
    expect(fromClaudeCodeTool('Edit', { file_path: `${CWD}/a.ts`, old_string: 'x', new_string: 'y', edits: [{ new_string: 'z' }] }, CWD)).toStrictEqual({
      toolName: 'write_file',
      arguments: { path: 'a.ts', content: 'y' },
    });
  });

  it('MultiEdit writes every new_string, one per line', () => {
    expect(fromClaudeCodeTool('MultiEdit', { file_path: `${CWD}/a.ts`, edits: [{ new_string: 'one' }, { new_string: 'two' }] }, CWD)).toStrictEqual({
      toolName: 'write_file',
      arguments: { path: 'a.ts', content: 'one\ntwo' },
    });
  });

  it.each([
    ['edits not a list, a stray new_string beside it', { file_path: `${CWD}/a.ts`, new_string: 'y', edits: 'all of them' }],
    ['an edit that is null', { file_path: `${CWD}/a.ts`, edits: [{ new_string: 'one' }, null] }],
    ['an edit without new_string', { file_path: `${CWD}/a.ts`, edits: [{ new_string: 'one' }, { old_string: 'x' }] }],
  ])('a MultiEdit with %s is passed flagged unmapped', (_, input) => {
    expect(fromClaudeCodeTool('MultiEdit', input, CWD)).toStrictEqual(flagged('MultiEdit', input));
  });
});

describe('Claude Code Monitor', () => {
  it('a command is a shell command; a websocket watch passes under its own name, listed (not flagged)', () => {
    expect(fromClaudeCodeTool('Monitor', { command: 'tail -f log' }, CWD)).toStrictEqual({ toolName: 'bash', arguments: { command: 'tail -f log' } });
    expect(fromClaudeCodeTool('Monitor', { ws: 'ws://127.0.0.1:9/x' }, CWD)).toStrictEqual({ toolName: 'Monitor', arguments: { ws: 'ws://127.0.0.1:9/x' } });
    expect(fromClaudeCodeTool('Monitor', { url: 'x' }, CWD)).toStrictEqual(flagged('Monitor', { url: 'x' }));
  });
});

describe("Copilot's shell trailer", () => {
  it.each([
    ['0', 'ok\n<shellId: 1 completed with exit code 0>', 'ok\nexit code: 0'],
    ['127', 'sh: nope: not found\n<shellId: 2 completed with exit code 127>', 'sh: nope: not found\nexit code: 127'],
    ['-15', 'killed\n<shellId: 3 completed with exit code -15>\n', 'killed\nexit code: -15'],
  ])('exit code %s becomes hookbox’s exit code line', (_, text, content) => {
    expect(copilotResult('failure', text)).toStrictEqual({ content, isError: true });
  });
});
