/**
 * `frameAnswer`: the one-line framing for a client that cannot read
 * response headers — `hookbox <exit> <refused> <bytes>\n<text>`, the text
 * being stdout on exit 0 and stderr otherwise, its length counted in bytes.
 */
import { describe, expect, it } from 'vitest';
import { frameAnswer } from '../../host/serve/answer-frame.ts';

const allowed = { exitCode: 0 as const, stdout: '{"ok":true}', stderr: 'ignored' };
const blocked = { exitCode: 2 as const, stdout: 'ignored', stderr: 'blocked: no' };

describe('frameAnswer', () => {
  it('carries stdout on exit 0 and stderr on exit 2, with the text length', () => {
    expect([frameAnswer(allowed, undefined), frameAnswer(blocked, undefined)]).toStrictEqual(['hookbox 0 - 11\n{"ok":true}', 'hookbox 2 - 11\nblocked: no']);
  });

  it('counts bytes, not characters', () => {
    expect(frameAnswer({ exitCode: 0, stdout: 'é✓', stderr: '' }, undefined)).toBe('hookbox 0 - 5\né✓');
    expect(frameAnswer({ exitCode: 0, stdout: '', stderr: 'x' }, undefined)).toBe('hookbox 0 - 0\n');
  });

  it('names why the server refused, when that is one short lower-case word; anything else reads as -', () => {
    const word = 'a'.repeat(40);
    const frames = ['other-config', word, `${word}a`, 'Other-config', 'other config', 'x\nhookbox 0 - 0', '', 'other-config!', '!other-config'].map((why) => frameAnswer(blocked, why).split('\n')[0]);
    expect(frames).toStrictEqual([
      'hookbox 2 other-config 11',
      `hookbox 2 ${word} 11`,
      'hookbox 2 - 11',
      'hookbox 2 - 11',
      'hookbox 2 - 11',
      'hookbox 2 - 11',
      'hookbox 2 - 11',
      'hookbox 2 - 11',
      'hookbox 2 - 11',
    ]);
  });
});
