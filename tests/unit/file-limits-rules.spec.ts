/**
 * file-limits counts what a call writes in UTF-8 bytes and tells binary from
 * text inside the sandbox, where there is no TextEncoder: its counts must be
 * the encoder's own, for any string a tool call can carry — lone surrogates
 * included (an encoder writes U+FFFD for each, 3 bytes).
 */
import { describe, expect, it } from 'vitest';
import { looksBinary, utf8Bytes } from '../../examples-hooks/policies/file-limits/rules.ts';

const encoder = new TextEncoder();
// One of each width, both surrogate halves alone, and the characters binary content is made of.
const ALPHABET = ['a', '\n', '\t', '\u0000', '\u001b', '\u007f', 'é', '\u07ff', '\u0800', '€', '\ufffd', '\uffff', '😀', '\ud83d', '\ude00'];

function randomText(seed: number, length: number): string {
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    text += ALPHABET[state % ALPHABET.length];
  }
  return text;
}

describe('file-limits: the size and binary checks', () => {
  it("counts UTF-8 bytes as TextEncoder does, for 2,000 random strings of every width and lone surrogates", () => {
    expect(utf8Bytes('')).toBe(0);
    expect(utf8Bytes('plain ascii')).toBe(11);
    expect(utf8Bytes('😀')).toBe(4);
    expect(utf8Bytes('\ud83d')).toBe(3);
    for (let seed = 1; seed <= 2_000; seed++) {
      const text = randomText(seed, seed % 97);
      expect(utf8Bytes(text), JSON.stringify(text)).toBe(encoder.encode(text).length);
    }
  });

  it('binary: a NUL anywhere, or more than 1 in 10 of the first 8,000 characters a control (not tab, newline, form feed, return, escape), DEL or U+FFFD', () => {
    expect(looksBinary('')).toBe(false);
    expect(looksBinary(`${'x'.repeat(9_000)}\u0000`)).toBe(true);
    expect(looksBinary('line\tone\r\nline\ftwo\u001b[0m\n'.repeat(50))).toBe(false);
    // 10 odd in 100 is not more than 1 in 10; 11 is.
    expect(looksBinary(`${'\u0001'.repeat(10)}${'x'.repeat(90)}`)).toBe(false);
    expect(looksBinary(`${'\u0001'.repeat(11)}${'x'.repeat(89)}`)).toBe(true);
    for (const odd of ['\u0008', '\u000b', '\u000e', '\u001a', '\u001c', '\u001f', '\u007f', '\ufffd']) expect(looksBinary(odd.repeat(20)), JSON.stringify(odd)).toBe(true);
    // Only the first 8,000 characters are read.
    expect(looksBinary(`${'x'.repeat(8_000)}${'\u0001'.repeat(5_000)}`)).toBe(false);
  });
});
