/**
 * Gemini CLI's file tools whose names are hookbox's own (`read_file`,
 * `write_file`): a call of an unexpected shape is flagged unmapped, never
 * passed as if it were hookbox's tool with Gemini's arguments (a write guard
 * reading `path` would find none); a passed tool stays unflagged.
 */
import { describe, expect, it } from 'vitest';
import { fromGeminiTool } from '../../host/agents/gemini/tools.ts';

const CWD = '/work/project';
const flagged = (toolName: string, args: Record<string, unknown>) => ({ toolName, arguments: { ...args, _hookbox: { unmappedTool: true } } });

describe('Gemini CLI tools of an unexpected shape', () => {
  it.each([
    ['write_file', { file_path: '.env', new_string: 'K=1' }],
    ['write_file', { file_path: '.env', content: 5 }],
    ['read_file', { file: '.env' }],
    ['replace', { file_path: '.env', content: 'K=1' }],
    ['run_shell_command', { cmd: 'ls' }],
    ['list_directory', { directory: '/' }],
  ])('%s %j is flagged unmapped', (tool, input) => {
    expect(fromGeminiTool(tool, input, CWD)).toStrictEqual(flagged(tool, input));
  });

  it('the well-formed ones map; a tool only passed stays unflagged; one the table lacks is flagged', () => {
    expect(fromGeminiTool('write_file', { file_path: `${CWD}/.env`, content: 'K=1' }, CWD)).toStrictEqual({ toolName: 'write_file', arguments: { path: '.env', content: 'K=1' } });
    expect(fromGeminiTool('read_file', { file_path: `${CWD}/a.ts` }, CWD)).toStrictEqual({ toolName: 'read_file', arguments: { path: 'a.ts' } });
    expect(fromGeminiTool('glob', { pattern: '*.ts' }, CWD)).toStrictEqual({ toolName: 'glob', arguments: { pattern: '*.ts' } });
    expect(fromGeminiTool('brand_new', { x: 1 }, CWD)).toStrictEqual(flagged('brand_new', { x: 1 }));
  });
});
