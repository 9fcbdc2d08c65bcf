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
const request = { toolCall: { id: 'c1', name: 'bash', arguments: { command: 'git push' } }, reason: 'pushing needs a human' };

describe('terminal ask prompter', () => {
  it('shows the reason and the call, and "y" allows', async () => {
    const io = streams();
    const answer = new TerminalPrompter(io.input, io.output).ask(request, new AbortController().signal);
    io.input.write('y\n');
    expect(await answer).toBe('allow');
    expect(io.shown()).toContain('pushing needs a human');
    expect(io.shown()).toContain('bash {"command":"git push"}');
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
