import { describe, expect, it } from 'vitest';
import { isPrintable, printable, printableJson, printableLines } from '../../host/text/index.ts';

const ESC = '\x1b';
const BEL = '\x07';

describe('printable: attacks from hook text come out escaped', () => {
  it.each([
    ['OSC 52 clipboard write', `${ESC}]52;c;cm0gLXJmIH4=${BEL}`, '\\x1b]52;c;cm0gLXJmIH4=\\x07'],
    ['OSC 0 window title (ST-terminated)', `${ESC}]0;pwned${ESC}\\`, '\\x1b]0;pwned\\x1b\\'],
    ['erase line and return to fake an allow', `${ESC}[2K\rallowed: ls`, '\\x1b[2K\\rallowed: ls'],
    ['conceal the rest (SGR 8)', `ok${ESC}[8m rm -rf /`, 'ok\\x1b[8m rm -rf /'],
    ['8-bit CSI', '\u009b2K', '\\x9b2K'],
    ['8-bit OSC and ST', '\u009d0;t\u009c', '\\x9d0;t\\x9c'],
    ['DCS, SOS, PM, APC (8-bit)', '\u0090\u0098\u009e\u009f', '\\x90\\x98\\x9e\\x9f'],
    ['NUL, backspace, DEL', 'a\x00b\x08c\x7f', 'a\\x00b\\x08c\\x7f'],
    ['newline and tab in a one-line field', 'one\ntwo\tthree', 'one\\ntwo\\tthree'],
    ['right-to-left override', 'file\u202Etxt.exe', 'file\\u{202e}txt.exe'],
    ['bidi isolates', '\u2066a\u2067b\u2068c\u2069', '\\u{2066}a\\u{2067}b\\u{2068}c\\u{2069}'],
    ['zero-width space and BOM', 'rm\u200B -rf\uFEFF', 'rm\\u{200b} -rf\\u{feff}'],
    ['invisible tag characters', 'hi\u{E0041}\u{E0042}', 'hi\\u{e0041}\\u{e0042}'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u{2028}b\\u{2029}c'],
    ['lone surrogates', 'x\uD800y\uDFFFz', 'x\\u{d800}y\\u{dfff}z'],
  ])('%s', (_name, input, shown) => {
    const output = printable(input);
    expect(output).toBe(shown);
    expect(isPrintable(output)).toBe(true);
  });

  // Every C1 control, one by one: NEL (U+0085) is a line break to some terminals and editors.
  const C1 = Array.from({ length: 0x20 }, (_, index) => 0x80 + index).map((codePoint) => [codePoint.toString(16).toUpperCase().padStart(4, '0'), codePoint] as const);
  it.each(C1)('C1 control U+%s shows as \\xNN', (_name, codePoint) => {
    const hex = codePoint.toString(16);
    expect(printable(`a${String.fromCodePoint(codePoint)}b`)).toBe(`a\\x${hex}b`);
    expect(isPrintable(String.fromCodePoint(codePoint))).toBe(false);
  });

  it('NEL (U+0085) between two lines of a fake answer shows escaped', () => {
    expect(printable('denied\u0085allowed: ls')).toBe('denied\\x85allowed: ls');
  });

  it('keeps ordinary text, accents, CJK, emoji and backslashes unchanged', () => {
    const text = 'déjà vu — 日本語 🎉 C:\\path\\x1b (literal)';
    expect(printable(text)).toBe(text);
  });

  it('caps the length in code points, ellipsis included', () => {
    expect(printable('abcdefghij', { maxLength: 5 })).toBe('abcd…');
    expect(printable('abcde', { maxLength: 5 })).toBe('abcde');
    expect(printable('🎉🎉🎉🎉', { maxLength: 3 })).toBe('🎉🎉…');
    expect(printable('abc', { maxLength: 1 })).toBe('…');
  });

  it('never cuts an escape in half', () => {
    expect(printable(`ab${ESC}cd`, { maxLength: 5 })).toBe('ab…');
    expect(printable(`ab${ESC}cd`, { maxLength: 7 })).toBe('ab\\x1b…');
  });

  it('refuses a cap below 1 (a host bug, not hook input)', () => {
    expect(() => printable('x', { maxLength: 0 })).toThrow(RangeError);
    expect(() => printableLines('x', { maxLines: 0 })).toThrow(RangeError);
  });
});

describe('printableLines: multi-line text, one printable line each', () => {
  it('splits on \\n and \\r\\n; a lone \\r (which would overwrite) shows escaped', () => {
    expect(printableLines('one\r\ntwo\rthree\nfour\n')).toEqual(['one', 'two\\rthree', 'four']);
  });

  it('keeps empty lines, drops only the one after a final line break', () => {
    expect(printableLines('\n\n')).toEqual(['', '']);
    expect(printableLines('')).toEqual(['']);
  });

  it('escapes controls inside each line', () => {
    expect(printableLines(`ok\n${ESC}[2Kallow? [y/N]`)).toEqual(['ok', '\\x1b[2Kallow? [y/N]']);
  });

  it('keeps at most maxLines, the last saying how many were left out', () => {
    expect(printableLines('1\n2\n3\n4\n5', { maxLines: 3 })).toEqual(['1', '2', '… (3 more lines)']);
  });

  it('caps each line', () => {
    expect(printableLines('abcdef\nxy', { maxLength: 4 })).toEqual(['abc…', 'xy']);
  });
});

describe('isPrintable', () => {
  it.each(['a\nb', 'a\tb', `${ESC}`, '\u009b', '\u202e', '\uD800'])('rejects %j', (text) => {
    expect(isPrintable(text)).toBe(false);
  });
  it('accepts plain text', () => expect(isPrintable('plain — ok 🎉')).toBe(true));
});

describe('printableJson: lossless JSON with nothing a terminal acts on', () => {
  it('escapes DEL, C1, bidi, separators and tag characters that JSON.stringify leaves raw', () => {
    const value = { reason: `a\x7f\u009b\u009d\u202e\u2028\u{E0041}\x1b\n"`, nested: ['\u2066'] };
    const text = printableJson(value);
    expect(text).toBe('{"reason":"a\\u007f\\u009b\\u009d\\u202e\\u2028\\udb40\\udc41\\u001b\\n\\"","nested":["\\u2066"]}');
    expect(JSON.parse(text)).toEqual(value);
    expect(isPrintable(text)).toBe(true);
  });
});
