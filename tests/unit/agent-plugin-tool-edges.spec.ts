/**
 * pi, OpenCode and Kilo tool calls and results at the edges of their shapes:
 * a field of the wrong type is never taken for the text it should be, a
 * block that is not text is named not passed, a multi-digit exit code is
 * read whole, and a background process that runs nothing is passed listed.
 */
import { describe, expect, it } from 'vitest';
import { fromKiloTool } from '../../host/agents/kilo/tools.ts';
import { fromOpenCodeTool } from '../../host/agents/opencode/tools.ts';
import { fromPiTool, fromPiToolResult } from '../../host/agents/pi/tools.ts';

const CWD = '/work/project';
const flagged = (toolName: string, args: Record<string, unknown>) => ({ toolName, arguments: { ...args, _hookbox: { unmappedTool: true } } });

describe('pi', () => {
  it('an edit list holding null is flagged, not written', () => {
    const input = { path: 'a.ts', edits: [{ oldText: 'a', newText: 'b' }, null] };
    expect(fromPiTool('edit', input, CWD)).toStrictEqual(flagged('edit', input));
  });

  it("a result's blocks: text as it is, a text block without text and any other block named", () => {
    const blocks = [{ type: 'text', text: 'seen' }, { type: 'image', text: 'hidden' }, { type: 'text', text: 7 }];
    expect(fromPiToolResult('read', blocks, false)).toStrictEqual({ content: 'seen\n[image content]\n[text content]', isError: false });
  });

  it('a failed command with a multi-digit exit code gets it whole', () => {
    expect(fromPiToolResult('bash', [{ type: 'text', text: 'sh: x: not found\n\nCommand exited with code 127' }], true)).toStrictEqual({
      content: 'sh: x: not found\n\nCommand exited with code 127\nexit code: 127',
      isError: true,
    });
  });
});

describe('OpenCode', () => {
  it('a command that is not text is flagged, never a shell command', () => {
    const input = { command: ['rm', '-rf', '/'] };
    expect(fromOpenCodeTool('bash', input, CWD)).toStrictEqual(flagged('bash', input));
  });
});

describe('Kilo background_process', () => {
  it('an action that runs nothing passes listed; one that runs a command with none is flagged', () => {
    expect(fromKiloTool('background_process', { action: 'list' }, CWD)).toStrictEqual({ toolName: 'background_process', arguments: { action: 'list' } });
    expect(fromKiloTool('background_process', { action: 'start' }, CWD)).toStrictEqual(flagged('background_process', { action: 'start' }));
    expect(fromKiloTool('background_process', { action: 'monitor', command: 'tail -f x' }, CWD)).toStrictEqual({ toolName: 'bash', arguments: { command: 'tail -f x' } });
  });
});
