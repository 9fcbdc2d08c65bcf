/**
 * Every agent's tool map, row by row: each tool the pinned agent runs
 * reaches hooks as the hookbox tool its table says, with the arguments a
 * guard reads; a tool the table lacks is flagged; MCP tools carry their
 * server. Claude Code's edits and Codex's patches (indented headers, heredocs
 * through the shell) are writes.
 */
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_TOOLS, fromClaudeCodeTool } from '../../host/agents/claude-code/tools.ts';
import { patchFileChanges, parseCodexPatch } from '../../host/agents/codex/patch.ts';
import { CODEX_TOOLS, fromCodexTool } from '../../host/agents/codex/tools.ts';
import { GEMINI_TOOLS, fromGeminiTool } from '../../host/agents/gemini/tools.ts';
import { TOOL_META_KEY, isUnmappedCall } from '../../host/agents/tool-table.ts';
import { claudeCodeBridge } from '../../host/agents/claude-code/bridge.ts';

const CWD = '/work/app';

describe('Claude Code tools → hookbox tools', () => {
  it.each([
    ['Bash', { command: 'ls', description: 'list', timeout: 100 }, { toolName: 'bash', arguments: { command: 'ls', timeoutMs: 100 } }],
    ['Read', { file_path: `${CWD}/.env`, offset: 1 }, { toolName: 'read_file', arguments: { path: '.env' } }],
    ['Write', { file_path: `${CWD}/.env`, content: 'A=1' }, { toolName: 'write_file', arguments: { path: '.env', content: 'A=1' } }],
    ['Edit', { file_path: `${CWD}/.env`, old_string: 'A=1', new_string: 'A=2', replace_all: false }, { toolName: 'write_file', arguments: { path: '.env', content: 'A=2' } }],
    [
      'MultiEdit',
      { file_path: `${CWD}/.env`, edits: [{ old_string: 'a', new_string: 'B=1' }, { old_string: 'c', new_string: 'D=2', replace_all: true }] },
      { toolName: 'write_file', arguments: { path: '.env', content: 'B=1\nD=2' } },
    ],
    ['NotebookEdit', { notebook_path: `${CWD}/n.ipynb`, cell_id: 'c1', new_source: 'print(1)', edit_mode: 'replace' }, { toolName: 'write_file', arguments: { path: 'n.ipynb', content: 'print(1)' } }],
    ['NotebookEdit', { notebook_path: '/etc/n.ipynb', cell_id: 'c1', edit_mode: 'delete' }, { toolName: 'write_file', arguments: { path: '/etc/n.ipynb', content: '' } }],
    ['LS', { path: CWD }, { toolName: 'list_dir', arguments: { path: CWD } }],
    ['Agent', { prompt: 'p', description: 'd' }, { toolName: 'Agent', arguments: { prompt: 'p', description: 'd' } }],
  ])('%s %j', (tool, input, expected) => {
    expect(fromClaudeCodeTool(tool, input, CWD)).toEqual(expected);
  });

  it('every row of the table maps to the hookbox tool it names', () => {
    for (const row of CLAUDE_CODE_TOOLS.filter((candidate) => candidate.as === candidate.tool)) {
      expect(fromClaudeCodeTool(row.tool, { x: 1 }, CWD), row.tool).toEqual({ toolName: row.tool, arguments: { x: 1 } });
    }
  });

  it('an MCP tool keeps its name with its server; an unlisted tool, or a mapped one of the wrong shape, is flagged', () => {
    expect(fromClaudeCodeTool('mcp__github__create_issue', { title: 't' }, CWD)).toEqual({
      toolName: 'mcp__github__create_issue',
      arguments: { title: 't', [TOOL_META_KEY]: { mcpServer: 'github', mcpTool: 'create_issue' } },
    });
    const unknown = fromClaudeCodeTool('Teleport', { to: 'x', [TOOL_META_KEY]: { mcpServer: 'spoofed' } }, CWD);
    expect(unknown).toEqual({ toolName: 'Teleport', arguments: { to: 'x', [TOOL_META_KEY]: { unmappedTool: true } } });
    expect(isUnmappedCall(unknown)).toBe(true);
    expect(isUnmappedCall(fromClaudeCodeTool('Edit', { file_path: 'x', old_string: 'a' }, CWD))).toBe(true);
    expect(isUnmappedCall(fromClaudeCodeTool('MultiEdit', { file_path: 'x', edits: [{ new_string: 1 }] }, CWD))).toBe(true);
  });

  it('a PreToolUse Edit or MultiEdit of .env reaches the pre-tool seam as write_file', () => {
    const common = { session_id: 's', transcript_path: null, cwd: CWD, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_use_id: 't' };
    for (const [tool_name, tool_input] of [
      ['Edit', { file_path: `${CWD}/.env`, old_string: 'A', new_string: 'B' }],
      ['MultiEdit', { file_path: `${CWD}/.env`, edits: [{ old_string: 'A', new_string: 'B' }] }],
    ] as const) {
      const parsed = claudeCodeBridge.toSeam({ ...common, tool_name, tool_input });
      expect(parsed).toMatchObject({ kind: 'seam', event: { seam: 'tools/pre-execute', payload: { toolName: 'write_file', arguments: { path: '.env', content: 'B' } } } });
    }
  });
});

describe('Codex apply_patch, parsed as Codex parses it', () => {
  const add = (path: string, line: string) => ({ kind: 'add', path, content: `${line}\n` });
  it.each([
    ['column 0', '*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: .env\n+K=1\n*** End Patch\n', [add('a.txt', 'a'), add('.env', 'K=1')]],
    ['a header indented with spaces', '*** Begin Patch\n*** Add File: a.txt\n+a\n   *** Add File: .env\n+K=1\n*** End Patch', [add('a.txt', 'a'), add('.env', 'K=1')]],
    ['a header indented with a tab', '*** Begin Patch\n*** Delete File: old.txt\n\t*** Add File: .env\t\n+K=1\n*** End Patch', [{ kind: 'delete', path: 'old.txt', content: '' }, add('.env', 'K=1')]],
    ['padded markers and CRLF', '  *** Begin Patch \r\n *** Update File: src/a.ts\r\n@@\r\n-old\r\n+new\r\n\t*** End Patch  \r\n', [{ kind: 'update', path: 'src/a.ts', content: 'new' }]],
    ['a heredoc wrapper', "<<'EOF'\n*** Begin Patch\n*** Add File: .env\n+K=1\n*** End Patch\nEOF\n", [add('.env', 'K=1')]],
    [
      'a move (only at column 0) with context and added lines',
      '*** Begin Patch\n*** Update File: a.ts\n*** Move to: b/.env\n@@ fn\n keep\n-gone\n+K=1\n*** End of File\n*** End Patch',
      [{ kind: 'move-from', path: 'a.ts', content: '' }, { kind: 'move-to', path: 'b/.env', content: 'keep\nK=1' }],
    ],
    ['Rust whitespace (NEL) around a header', '*** Begin Patch\n\u0085*** Add File: .env\n+K=1\n*** End Patch', [add('.env', 'K=1')]],
  ])('%s', (_name, patch, expected) => {
    expect(parseCodexPatch(patch)).toEqual(expected);
    expect(patchFileChanges(patch)).toEqual(expected);
  });

  it('an indented header after an update chunk is a context line to Codex, not a header', () => {
    const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n  *** Add File: .env\n*** End Patch';
    expect(parseCodexPatch(patch)).toEqual([{ kind: 'update', path: 'a.txt', content: 'y\n *** Add File: .env' }]);
  });

  it('a patch Codex would refuse is still read for every header it names', () => {
    const refused = '*** Begin Patch\n*** Add File: a\n+a\n  *** Update File: .env\n*** End Patch';
    expect(parseCodexPatch(refused)).toBeUndefined();
    expect(patchFileChanges(refused)).toEqual([{ kind: 'add', path: 'a', content: '' }, { kind: 'update', path: '.env', content: '' }]);
    expect(patchFileChanges('no patch here')).toEqual([]);
  });
});

describe('Codex tools → hookbox tools', () => {
  const patch = "*** Begin Patch\n*** Add File: ok.txt\n+ok\n\t*** Add File: server.pem\n+KEY\n*** End Patch";
  const writes = [
    { toolName: 'write_file', arguments: { path: 'ok.txt', content: 'ok\n' } },
    { toolName: 'write_file', arguments: { path: 'server.pem', content: 'KEY\n' } },
  ];
  it.each([
    ['exec_command heredoc', 'exec_command', { cmd: `apply_patch <<'PATCH'\n${patch}\nPATCH` }],
    ['Bash (the hook-facing name) heredoc, applypatch, unquoted delimiter', 'Bash', { command: `applypatch <<EOF\n${patch}\nEOF\n` }],
    ['bash -lc inside exec_command', 'exec_command', { cmd: `bash -lc "apply_patch <<'EOF'\n${patch}\nEOF"` }],
    ['shell argv bash -lc', 'shell', { command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF`] }],
    ['shell argv direct', 'shell', { command: ['apply_patch', patch] }],
    ['local_shell argv direct', 'local_shell', { command: ['applypatch', patch] }],
  ])('a patch through the shell (%s) is bash and its writes', (_name, tool, input) => {
    const calls = fromCodexTool(tool, input, CWD);
    expect(calls[0]!.toolName).toBe('bash');
    expect(calls.slice(1).map((call) => [call.toolName, call.arguments.path])).toEqual(writes.map((call) => [call.toolName, call.arguments.path]));
    // Codex's own forms are read exactly, with what each write holds; the quoted one by its headers.
    if (!tool.startsWith('exec') || !JSON.stringify(input).includes('bash -lc')) expect(calls.slice(1)).toEqual(writes);
  });

  it('cd DIR && apply_patch resolves the paths from DIR', () => {
    const calls = fromCodexTool('exec_command', { cmd: `cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .env\n+K\n*** End Patch\nEOF` }, CWD);
    expect(calls.slice(1)).toEqual([{ toolName: 'write_file', arguments: { path: 'sub/.env', content: 'K\n' } }]);
  });

  it('an ordinary command, or one that only mentions apply_patch, is bash alone', () => {
    expect(fromCodexTool('exec_command', { cmd: 'grep -r apply_patch src' }, CWD)).toEqual([{ toolName: 'bash', arguments: { command: 'grep -r apply_patch src' } }]);
    expect(fromCodexTool('exec_command', { cmd: 'cat <<EOF\n*** Add File: .env\nEOF' }, CWD)).toEqual([{ toolName: 'bash', arguments: { command: 'cat <<EOF\n*** Add File: .env\nEOF' } }]);
  });

  it.each([
    ['apply_patch', { command: patch }, writes],
    ['write_stdin', { session_id: 1, chars: 'rm -rf /\n' }, [{ toolName: 'bash', arguments: { command: 'rm -rf /\n' } }]],
    ['write_stdin', { session_id: 1, chars: '' }, [{ toolName: 'write_stdin', arguments: { session_id: 1, chars: '' } }]],
    ['view_image', { path: 'a.png' }, [{ toolName: 'view_image', arguments: { path: 'a.png' } }]],
    ['mcp__db__query', { sql: 'x' }, [{ toolName: 'mcp__db__query', arguments: { sql: 'x', [TOOL_META_KEY]: { mcpServer: 'db', mcpTool: 'query' } } }]],
    ['js_repl', { code: '1' }, [{ toolName: 'js_repl', arguments: { code: '1', [TOOL_META_KEY]: { unmappedTool: true } } }]],
  ])('%s %j', (tool, input, expected) => {
    expect(fromCodexTool(tool, input, CWD)).toEqual(expected);
  });

  it('every passed row keeps its name unflagged', () => {
    for (const row of CODEX_TOOLS.filter((candidate) => candidate.as === candidate.tool)) expect(fromCodexTool(row.tool, { x: 1 }, CWD), row.tool).toEqual([{ toolName: row.tool, arguments: { x: 1 } }]);
  });
});

describe('Gemini CLI tools → hookbox tools', () => {
  it.each([
    ['run_shell_command', { command: 'ls', description: 'd', dir_path: CWD }, { toolName: 'bash', arguments: { command: 'ls' } }],
    ['read_file', { file_path: `${CWD}/.env`, start_line: 1 }, { toolName: 'read_file', arguments: { path: '.env' } }],
    ['write_file', { file_path: `${CWD}/.env`, content: 'A' }, { toolName: 'write_file', arguments: { path: '.env', content: 'A' } }],
    ['replace', { file_path: `${CWD}/.env`, instruction: 'i', old_string: 'A', new_string: 'B', allow_multiple: false }, { toolName: 'write_file', arguments: { path: '.env', content: 'B' } }],
    ['list_directory', { dir_path: CWD }, { toolName: 'list_dir', arguments: { path: CWD } }],
    ['replace', { file_path: `${CWD}/.env` }, { toolName: 'replace', arguments: { file_path: `${CWD}/.env`, [TOOL_META_KEY]: { unmappedTool: true } } }],
    ['teleport', { x: 1 }, { toolName: 'teleport', arguments: { x: 1, [TOOL_META_KEY]: { unmappedTool: true } } }],
  ])('%s %j', (tool, input, expected) => {
    expect(fromGeminiTool(tool, input, CWD)).toEqual(expected);
  });

  it('every passed row keeps its name unflagged', () => {
    for (const row of GEMINI_TOOLS.filter((candidate) => candidate.how.startsWith('passed'))) expect(fromGeminiTool(row.tool, { x: 1 }, CWD), row.tool).toEqual({ toolName: row.tool, arguments: { x: 1 } });
  });
});
