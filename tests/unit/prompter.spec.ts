import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TerminalPrompter } from '../../host/cli/prompter.ts';
import { resolveAsk } from '../../host/loop/index.ts';

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += stripVTControlCharacters(chunk.toString())));
  return { input, output, shown: () => shown };
}
const request = {
  toolCall: { id: 'c1', name: 'bash', arguments: { command: 'git push' } },
  asks: [{ hook: 'git-guard', reason: 'pushing needs a human' }],
  reason: 'pushing needs a human',
};

describe('terminal ask prompter', () => {
  it('shows the asking hook and its reason, then the host\'s frame with the call; "y" allows', async () => {
    const io = streams();
    const answer = new TerminalPrompter(io.input, io.output).ask(request, new AbortController().signal);
    io.input.write('y\n');
    expect(await answer).toBe('allow');
    expect(io.shown().split('\n')).toEqual([
      '  ? permission a hook asks before this tool call:',
      '    hook git-guard asks: pushing needs a human',
      '  ┌─ hookbox asks you ─',
      '  │ tool:      bash',
      '  │ arguments: {"command":"git push"}',
      '  └─ allow this call? [y/N] ',
    ]);
  });

  it('lists every asking hook, each with its reason, before the frame', async () => {
    const io = streams();
    const both = { ...request, asks: [{ hook: 'first', reason: 'looks fine to me' }, { hook: 'guard' }] };
    const answer = new TerminalPrompter(io.input, io.output).ask(both, new AbortController().signal);
    io.input.end();
    expect(await answer).toBe('deny');
    const lines = io.shown().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '  ? permission 2 hooks ask before this tool call:',
      '    hook first asks: looks fine to me',
      '    hook guard asks: (no reason given)',
    ]);
    expect(lines.at(-1)).toBe('  └─ allow this call? [y/N] ');
  });

  it.each(['n\n', '\n', 'yes please\n'])('anything but yes denies (%j)', async (typed) => {
    const io = streams();
    const answer = new TerminalPrompter(io.input, io.output).ask(request, new AbortController().signal);
    io.input.write(typed);
    expect(await answer).toBe('deny');
  });

  it('end of input denies', async () => {
    const io = streams();
    const answer = new TerminalPrompter(io.input, io.output).ask(request, new AbortController().signal);
    io.input.end();
    expect(await answer).toBe('deny');
  });

  it('no answer before the ask timeout degrades to deny', async () => {
    const io = streams();
    const resolution = await resolveAsk(new TerminalPrompter(io.input, io.output), request, 50);
    expect(resolution).toEqual({ action: 'deny', reason: 'pushing needs a human (ask degraded to deny: no answer within 50 ms)' });
    expect(io.shown()).toContain('no answer in time: denied');
  });
});
