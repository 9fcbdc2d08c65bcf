/**
 * The file tools of Copilot CLI, Qwen Code and Factory Droid: each edit tool
 * writes its new text and each create tool its content, never the other's
 * field; a call of the wrong shape is passed flagged unmapped.
 */
import { describe, expect, it } from 'vitest';
import { fromCopilotTool } from '../../host/agents/copilot/tools.ts';
import { fromFactoryTool } from '../../host/agents/factory/tools.ts';
import { fromQwenTool } from '../../host/agents/qwen/tools.ts';

const CWD = '/work/project';
const FILE = `${CWD}/src/a.ts`;
const write = (content: string) => ({ toolName: 'write_file', arguments: { path: 'src/a.ts', content } });
const flagged = (toolName: string, args: Record<string, unknown>) => ({ toolName, arguments: { ...args, _hookbox: { unmappedTool: true } } });

describe('Copilot CLI', () => {
  it('edit writes new_str (an edit with none deletes: empty); create writes file_text', () => {
    expect(fromCopilotTool('edit', { path: FILE, old_str: 'a', new_str: 'b' }, CWD)).toStrictEqual(write('b'));
    expect(fromCopilotTool('edit', { path: FILE, old_str: 'a' }, CWD)).toStrictEqual(write(''));
    expect(fromCopilotTool('create', { path: FILE, file_text: 'whole' }, CWD)).toStrictEqual(write('whole'));
  });

  it('create with only an edit field is flagged, not written as empty', () => {
    const input = { path: FILE, new_str: 'b' };
    expect(fromCopilotTool('create', input, CWD)).toStrictEqual(flagged('create', input));
  });
});

describe('a passed tool that names a file is not a write', () => {
  it('Copilot grep, Qwen grep_search and Factory Grep with a path pass as they came', () => {
    expect(fromCopilotTool('grep', { path: FILE, pattern: 'x' }, CWD)).toStrictEqual({ toolName: 'grep', arguments: { path: FILE, pattern: 'x' } });
    expect(fromQwenTool('grep_search', { file_path: FILE, pattern: 'x', new_string: 'y' }, CWD)).toStrictEqual({
      toolName: 'grep_search',
      arguments: { file_path: FILE, pattern: 'x', new_string: 'y' },
    });
    expect(fromFactoryTool('Grep', { file_path: FILE, pattern: 'x', new_str: 'y' }, CWD)).toStrictEqual({ toolName: 'Grep', arguments: { file_path: FILE, pattern: 'x', new_str: 'y' } });
  });
});

describe('Qwen Code', () => {
  it('edit writes new_string; write_file writes content', () => {
    expect(fromQwenTool('edit', { file_path: FILE, old_string: 'a', new_string: 'b' }, CWD)).toStrictEqual(write('b'));
    expect(fromQwenTool('write_file', { file_path: FILE, content: 'whole' }, CWD)).toStrictEqual(write('whole'));
  });

  it("each with only the other's field is flagged", () => {
    for (const [tool, input] of [
      ['edit', { file_path: FILE, content: 'whole' }],
      ['write_file', { file_path: FILE, new_string: 'b' }],
    ] as const) {
      expect(fromQwenTool(tool, input, CWD)).toStrictEqual(flagged(tool, input));
    }
  });
});

describe('Factory Droid', () => {
  it('Edit writes new_str; Create writes content', () => {
    expect(fromFactoryTool('Edit', { file_path: FILE, old_str: 'a', new_str: 'b' }, CWD)).toStrictEqual(write('b'));
    expect(fromFactoryTool('Create', { file_path: FILE, content: 'whole' }, CWD)).toStrictEqual(write('whole'));
  });

  it("each with only the other's field is flagged", () => {
    for (const [tool, input] of [
      ['Edit', { file_path: FILE, content: 'whole' }],
      ['Create', { file_path: FILE, new_str: 'b' }],
    ] as const) {
      expect(fromFactoryTool(tool, input, CWD)).toStrictEqual(flagged(tool, input));
    }
  });
});
