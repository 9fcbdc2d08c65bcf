/**
 * host/agents/tool-names.ts: hookbox's built-in tools in the Claude Code and
 * Codex hook protocols, both ways — names and aliases, a call's arguments as
 * the hook's `tool_input`, hookbox's result as its `tool_response`, and the
 * agent's events back into hookbox's calls and results.
 */
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_TOOLS } from '../../host/agents/claude-code/tools.ts';
import { CODEX_TOOLS } from '../../host/agents/codex/tools.ts';
import {
  BUILTIN_TOOLS,
  TOOL_PROTOCOLS,
  fromProtocolToolInput,
  fromProtocolToolName,
  fromProtocolToolResponse,
  protocolToolNames,
  relativeInside,
  toProtocolToolInput,
  toProtocolToolName,
  toProtocolToolResponse,
} from '../../host/agents/tool-names.ts';

const CWD = '/work/app';

describe('tool names', () => {
  it.each([
    ['claude-code', 'bash', ['Bash']],
    ['claude-code', 'read_file', ['Read']],
    ['claude-code', 'write_file', ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']],
    ['claude-code', 'list_dir', ['LS']],
    ['claude-code', 'grep', []],
    ['codex', 'bash', ['Bash', 'exec_command', 'shell', 'local_shell', 'container.exec']],
    ['codex', 'write_file', ['apply_patch', 'Edit', 'Write']],
    ['codex', 'read_file', []],
    ['codex', 'list_dir', []],
  ] as const)('%s names %s as %j', (protocol, ours, names) => {
    expect(protocolToolNames(protocol, ours)).toStrictEqual(names);
  });

  it('the first name is the one shown; a tool the protocol lacks keeps our name', () => {
    expect(toProtocolToolName('claude-code', 'write_file')).toBe('Write');
    expect(toProtocolToolName('codex', 'write_file')).toBe('apply_patch');
    expect(toProtocolToolName('codex', 'read_file')).toBe('read_file');
    expect(toProtocolToolName('codex', 'toString')).toBe('toString');
  });

  it('every alias comes back as our tool; an unknown name passes through', () => {
    const back = (protocol: 'claude-code' | 'codex', names: string[]) => names.map((name) => fromProtocolToolName(protocol, name));
    expect(back('claude-code', ['Bash', 'Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'LS', 'Agent'])).toStrictEqual([
      'bash',
      'read_file',
      'write_file',
      'write_file',
      'write_file',
      'write_file',
      'list_dir',
      'Agent',
    ]);
    expect(back('codex', ['Bash', 'exec_command', 'shell', 'local_shell', 'container.exec', 'apply_patch', 'Edit', 'Write', 'Read', 'LS'])).toStrictEqual([
      'bash',
      'bash',
      'bash',
      'bash',
      'bash',
      'write_file',
      'write_file',
      'write_file',
      'Read',
      'LS',
    ]);
  });
});

describe('our call → the protocol tool_input', () => {
  it.each([
    ['claude-code', 'bash', { command: 'ls', timeoutMs: 50 }, { command: 'ls', timeout: 50 }],
    ['claude-code', 'bash', { command: 'ls' }, { command: 'ls' }],
    ['claude-code', 'bash', { command: 'ls', timeoutMs: '50' }, { command: 'ls' }],
    ['codex', 'bash', { command: 'ls', timeoutMs: 50 }, { command: 'ls' }],
    ['claude-code', 'bash', { command: 5 }, { command: 5 }],
    ['claude-code', 'read_file', { path: 'src/a.ts', command: 'rm -rf /' }, { file_path: `${CWD}/src/a.ts` }],
    ['claude-code', 'read_file', { path: '/etc/passwd' }, { file_path: '/etc/passwd' }],
    ['claude-code', 'read_file', { path: '../x' }, { file_path: `${CWD}/../x` }],
    ['claude-code', 'read_file', { path: '.' }, { file_path: CWD }],
    ['claude-code', 'read_file', { path: '' }, { file_path: CWD }],
    ['claude-code', 'write_file', { path: 'a.txt', content: 'hi' }, { file_path: `${CWD}/a.txt`, content: 'hi' }],
    ['claude-code', 'write_file', { path: 'a.txt' }, { file_path: `${CWD}/a.txt`, content: '' }],
    ['claude-code', 'list_dir', { path: 'src' }, { path: `${CWD}/src` }],
    ['claude-code', 'grep', { path: 'src', pattern: 'x' }, { path: 'src', pattern: 'x' }],
    ['claude-code', 'read_file', { file: 'a' }, { file: 'a' }],
    ['claude-code', 'read_file', { path: 5 }, { path: 5 }],
    ['codex', 'read_file', { path: 'a' }, { path: 'a' }],
    ['codex', 'write_file', { path: 'a.txt', content: 'one\n\ntwo\n' }, { command: '*** Begin Patch\n*** Add File: a.txt\n+one\n+\n+two\n*** End Patch' }],
    ['codex', 'write_file', { path: 'a.txt', content: 'one\ntwo' }, { command: '*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** End Patch' }],
    ['codex', 'write_file', { path: 'a.txt', content: '' }, { command: '*** Begin Patch\n*** Add File: a.txt\n*** End Patch' }],
    ['codex', 'write_file', { path: 'a.txt' }, { command: '*** Begin Patch\n*** Add File: a.txt\n*** End Patch' }],
    ['codex', 'write_file', { path: 'a.txt', content: 5 }, { command: '*** Begin Patch\n*** Add File: a.txt\n*** End Patch' }],
  ] as const)('%s %s %j', (protocol, tool, args, expected) => {
    expect(toProtocolToolInput(protocol, tool, args, CWD)).toStrictEqual(expected);
  });

  it('a cwd ending in a slash gets no second one', () => {
    expect(toProtocolToolInput('claude-code', 'read_file', { path: 'a' }, '/')).toStrictEqual({ file_path: '/a' });
  });
});

describe('our result → the protocol tool_response', () => {
  const ok = (content: string) => ({ content, isError: false });

  it.each([
    ['hi\nexit code: 0', { stdout: 'hi', stderr: '', interrupted: false, isImage: false, exit_code: 0 }],
    ['exit code: 3', { stdout: '', stderr: '', interrupted: false, isImage: false, exit_code: 3 }],
    ['boom\nexit code: -12', { stdout: 'boom', stderr: '', interrupted: false, isImage: false, exit_code: -12 }],
    ['exit code: 1\nmore', { stdout: 'exit code: 1\nmore', stderr: '', interrupted: false, isImage: false }],
    ['plain', { stdout: 'plain', stderr: '', interrupted: false, isImage: false }],
    ['part\ntimed out after 500 ms\nexit code: 124', { stdout: 'part', stderr: '', interrupted: true, isImage: false, exit_code: 124 }],
    ['timed out after 5 ms\nexit code: 124', { stdout: '', stderr: '', interrupted: true, isImage: false, exit_code: 124 }],
    ['timed out after 5 ms, said the log\nexit code: 124', { stdout: 'timed out after 5 ms, said the log', stderr: '', interrupted: false, isImage: false, exit_code: 124 }],
    ['timed out after soon ms\nexit code: 124', { stdout: 'timed out after soon ms', stderr: '', interrupted: false, isImage: false, exit_code: 124 }],
    ['x\ntimed out after 5 ms\nexit code: 1', { stdout: 'x\ntimed out after 5 ms', stderr: '', interrupted: false, isImage: false, exit_code: 1 }],
  ])('Claude Code Bash %j', (content, expected) => {
    expect(toProtocolToolResponse('claude-code', 'bash', { command: 'x' }, ok(content), CWD)).toStrictEqual(expected);
  });

  it('Codex gets the content string of any tool', () => {
    expect(toProtocolToolResponse('codex', 'bash', { command: 'x' }, ok('hi\nexit code: 0'), CWD)).toBe('hi\nexit code: 0');
    expect(toProtocolToolResponse('codex', 'read_file', { path: 'a' }, { content: 'nope', isError: true }, CWD)).toBe('nope');
  });

  it('Claude Code: a file read or write in its own shape, a failure as {success: false}, another tool as content and flag', () => {
    expect(toProtocolToolResponse('claude-code', 'read_file', { path: 'a.txt' }, ok('A'), CWD)).toStrictEqual({ type: 'text', file: { filePath: `${CWD}/a.txt`, content: 'A' } });
    expect(toProtocolToolResponse('claude-code', 'read_file', {}, ok('A'), CWD)).toStrictEqual({ type: 'text', file: { filePath: undefined, content: 'A' } });
    expect(toProtocolToolResponse('claude-code', 'write_file', { path: 'a.txt', content: 'B' }, ok('wrote 1 byte'), CWD)).toStrictEqual({
      type: 'create',
      filePath: `${CWD}/a.txt`,
      content: 'B',
    });
    expect(toProtocolToolResponse('claude-code', 'write_file', { path: 'a.txt', content: 'B' }, { content: 'EACCES', isError: true }, CWD)).toStrictEqual({
      success: false,
      error: 'EACCES',
    });
    expect(toProtocolToolResponse('claude-code', 'list_dir', { path: '.' }, ok('a.txt\n'), CWD)).toBe('a.txt\n');
    expect(toProtocolToolResponse('claude-code', 'grep', { path: 'a' }, ok('match'), CWD)).toStrictEqual({ content: 'match', isError: false });
    expect(toProtocolToolResponse('claude-code', 'grep', { path: 'a' }, { content: 'bad', isError: true }, CWD)).toStrictEqual({ content: 'bad', isError: true });
  });
});

describe('the agent call → ours', () => {
  it.each([
    ['claude-code', 'Bash', { command: 'ls', timeout: 100, description: 'list' }, { toolName: 'bash', arguments: { command: 'ls', timeoutMs: 100 } }],
    ['claude-code', 'Bash', { command: 'ls', timeout: '100' }, { toolName: 'bash', arguments: { command: 'ls' } }],
    ['codex', 'exec_command', { command: 'ls', timeout: 100 }, { toolName: 'bash', arguments: { command: 'ls' } }],
    ['claude-code', 'Bash', { cmd: 'ls' }, { toolName: 'Bash', arguments: { cmd: 'ls' } }],
    ['claude-code', 'Read', { file_path: `${CWD}/src/a.ts`, offset: 3 }, { toolName: 'read_file', arguments: { path: 'src/a.ts' } }],
    ['claude-code', 'Read', { file_path: '/etc/passwd' }, { toolName: 'read_file', arguments: { path: '/etc/passwd' } }],
    ['claude-code', 'Read', { path: `${CWD}/a` }, { toolName: 'Read', arguments: { path: `${CWD}/a` } }],
    ['claude-code', 'Read', { file_path: 5 }, { toolName: 'Read', arguments: { file_path: 5 } }],
    ['claude-code', 'Write', { file_path: `${CWD}/a`, content: 'A' }, { toolName: 'write_file', arguments: { path: 'a', content: 'A' } }],
    ['claude-code', 'Write', { file_path: `${CWD}/a` }, { toolName: 'Write', arguments: { file_path: `${CWD}/a` } }],
    ['claude-code', 'LS', { path: `${CWD}/src` }, { toolName: 'list_dir', arguments: { path: 'src' } }],
    ['claude-code', 'LS', { file_path: `${CWD}/src` }, { toolName: 'LS', arguments: { file_path: `${CWD}/src` } }],
    ['claude-code', 'Grep', { file_path: `${CWD}/a`, pattern: 'x' }, { toolName: 'Grep', arguments: { file_path: `${CWD}/a`, pattern: 'x' } }],
  ] as const)('%s %s %j', (protocol, tool, input, expected) => {
    expect(fromProtocolToolInput(protocol, tool, input, CWD)).toStrictEqual(expected);
  });

  it('a path inside cwd becomes relative to it; cwd itself and paths outside stay absolute', () => {
    expect(relativeInside(CWD, 'src/../b')).toBe('b');
    expect(relativeInside(CWD, CWD)).toBe(CWD);
    expect(relativeInside(CWD, '../other/x')).toBe('/work/other/x');
  });
});

describe('the agent tool_response → our result', () => {
  it.each([
    ['Bash', 'out', { content: 'out', isError: false }],
    ['Bash', 5, { content: '5', isError: false }],
    ['Bash', null, { content: 'null', isError: false }],
    ['Bash', undefined, { content: '', isError: false }],
    ['Bash', { stdout: 'o', stderr: 'e', interrupted: true }, { content: 'o\ne', isError: true }],
    ['Bash', { stdout: 'o', stderr: '', interrupted: false }, { content: 'o', isError: false }],
    ['Bash', { stdout: 'o', stderr: 5 }, { content: 'o', isError: false }],
    ['Bash', { output: 'o' }, { content: '{"output":"o"}', isError: false }],
    ['Bash', { file: { content: 'c' } }, { content: '{"file":{"content":"c"}}', isError: false }],
    ['Read', { type: 'text', file: { filePath: '/a', content: 'A' } }, { content: 'A', isError: false }],
    ['Read', { stdout: 'o' }, { content: '{"stdout":"o"}', isError: false }],
    ['Read', { type: 'text' }, { content: '{"type":"text"}', isError: false }],
    ['Read', { file: { content: 5 } }, { content: '{"file":{"content":5}}', isError: false }],
    ['Write', { type: 'create' }, { content: '{"type":"create"}', isError: false }],
  ])('Claude Code %s %j', (tool, response, expected) => {
    expect(fromProtocolToolResponse('claude-code', tool, response)).toStrictEqual(expected);
  });
});

/**
 * `TOOL_NAMES` (the hook formats' names) and the agents' own tool tables are
 * two lists of the same tools: `TOOL_NAMES` cannot be derived from them
 * (`claude-code/tools.ts` and `codex/tools.ts` import `tool-names.ts`), so
 * this holds them equal where they overlap — a tool added to an agent's
 * table that runs as one of hookbox's built-in tools fails here until the
 * hook format names it, or it is listed below with why it is not.
 */
describe('TOOL_NAMES agrees with the agents\' tool tables', () => {
  // A tool the agent runs as a built-in tool that a hook format's matcher does not name, and why.
  const UNNAMED: Readonly<Record<'claude-code' | 'codex', Readonly<Record<string, string>>>> = {
    'claude-code': { Monitor: 'a background script: reaches hooks as bash, but a `Bash` matcher of an imported hook is not told it is a Monitor' },
    codex: { write_stdin: 'text typed into a running shell: reaches hooks as bash; no Codex hook is sent a write_stdin event' },
  };
  const tables = { 'claude-code': CLAUDE_CODE_TOOLS, codex: CODEX_TOOLS } as const;
  it.each(TOOL_PROTOCOLS)('%s: every name the hook format gives a built-in tool that the agent runs maps to that tool', (protocol) => {
    for (const ours of BUILTIN_TOOLS) {
      for (const name of protocolToolNames(protocol, ours)) {
        const row = tables[protocol].find((candidate) => candidate.tool === name);
        if (row !== undefined) expect(row.as, `${protocol} ${name}`).toBe(ours);
      }
    }
  });
  it.each(TOOL_PROTOCOLS)('%s: every tool the agent runs as a built-in tool is named by the hook format, or listed with why not', (protocol) => {
    const builtin = new Set<string>(BUILTIN_TOOLS);
    const unnamed = tables[protocol].filter((row) => builtin.has(row.as) && !protocolToolNames(protocol, row.as).includes(row.tool)).map((row) => row.tool);
    expect(unnamed).toStrictEqual(Object.keys(UNNAMED[protocol]));
  });
});
