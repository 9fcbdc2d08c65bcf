import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrintable, printable, printableJson, printableLines } from '../../host/text/index.ts';

/**
 * Property tests of the sanitiser. `npm test` runs a small size; `npm run
 * fuzz` sets HOOKBOX_FUZZ_RUNS (≥ 100,000 per property). The seed is fixed so
 * a failure reproduces; HOOKBOX_FUZZ_SEED overrides it to explore further.
 */
const RUNS = Number(process.env.HOOKBOX_FUZZ_RUNS ?? 2_000);
const SEED = Number(process.env.HOOKBOX_FUZZ_SEED ?? 0x5eed_11);
const settings = { numRuns: RUNS, seed: SEED };

/**
 * Format and separator code points listed by hand (not the sanitiser's own
 * regex, so a narrowed regex cannot also narrow the check): soft hyphen,
 * Arabic letter mark, Mongolian vowel separator, zero-width and direction
 * marks, bidi embeddings/overrides and isolates, word joiner and invisible
 * operators, line/paragraph separators, BOM, interlinear annotations, the
 * tag characters (U+E0001, U+E0020–U+E007F).
 */
const FORMAT_RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
];

function hasNoFormatChar(text: string): boolean {
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (FORMAT_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high)) return false;
  }
  return true;
}

/** The hand list's own points, mixed into the generated text so every one is tried. */
const formatPoint = fc
  .constantFrom(...FORMAT_RANGES)
  .chain(([low, high]) => fc.integer({ min: low, max: high }))
  .map((codePoint) => String.fromCodePoint(codePoint));

/** Pieces an attacker would mix: escape sequences, C0/C1, bidi, surrogates, plain text. */
const hostilePiece = fc.oneof(
  fc.constantFrom(
    '\x1b', '\x1b[', '\x1b]', '\x1bP', '\x1bX', '\x1b^', '\x1b_', '\x1b\\', '\x07', '\r', '\n', '\t', '\x7f',
    '\u009b', '\u009d', '\u0090', '\u0098', '\u009e', '\u009f', '\u009c',
    '\u202e', '\u2066', '\u2069', '\u200b', '\ufeff', '\u2028', '\u{e0041}', '\ud800', '\udfff',
    '\\', '\\x1b', '…', '🎉', '日本',
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: formatPoint, maxLength: 4 }),
);
const hostileText = fc.oneof(
  fc.array(hostilePiece, { maxLength: 40 }).map((pieces) => pieces.join('')),
  fc.array(fc.constantFrom('\n', '\r', '\r\n', '', 'a', '\x1b'), { maxLength: 12 }).map((pieces) => pieces.join('')),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 200 }),
);
const cap = fc.integer({ min: 1, max: 120 });

function codePoints(text: string): number {
  return [...text].length;
}

/** No code unit below 0x20, no DEL, no C1, hence no ESC and no 8-bit introducer. */
function hasNoControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return false;
  }
  return true;
}

describe(`untrusted text properties (${RUNS} runs each, seed ${SEED})`, () => {
  it('printable never throws, leaves no control, ESC or format character, respects the cap', () => {
    fc.assert(
      fc.property(hostileText, cap, (text, maxLength) => {
        const output = printable(text, { maxLength });
        expect(hasNoControl(output)).toBe(true);
        expect(hasNoFormatChar(output)).toBe(true);
        expect(isPrintable(output)).toBe(true);
        expect(codePoints(output)).toBeLessThanOrEqual(maxLength);
        expect(/\p{Cs}/u.test(output)).toBe(false);
      }),
      settings,
    );
  });

  it('printable is idempotent', () => {
    fc.assert(
      fc.property(hostileText, cap, (text, maxLength) => {
        const once = printable(text, { maxLength });
        expect(printable(once, { maxLength })).toBe(once);
      }),
      settings,
    );
  });

  it('printable changes nothing in text that is already printable and fits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        fc.pre(isPrintable(text));
        expect(printable(text, { maxLength: 1_000 })).toBe(text);
      }),
      settings,
    );
  });

  it('printable keeps the start of the text: output minus the ellipsis is a prefix of the full rendering', () => {
    fc.assert(
      fc.property(hostileText, cap, (text, maxLength) => {
        const full = printable(text, { maxLength: 100_000 });
        const capped = printable(text, { maxLength });
        const kept = capped === full ? capped : capped.slice(0, -1);
        expect(full.startsWith(kept)).toBe(true);
      }),
      settings,
    );
  });

  it('printableLines never throws, every line printable and capped, line count capped, idempotent', () => {
    fc.assert(
      fc.property(hostileText, cap, fc.integer({ min: 1, max: 12 }), (text, maxLength, maxLines) => {
        const lines = printableLines(text, { maxLength, maxLines });
        expect(lines.length).toBeGreaterThanOrEqual(1);
        expect(lines.length).toBeLessThanOrEqual(maxLines);
        for (const line of lines) {
          expect(hasNoControl(line)).toBe(true);
          expect(hasNoFormatChar(line)).toBe(true);
          expect(isPrintable(line)).toBe(true);
          expect(codePoints(line)).toBeLessThanOrEqual(maxLength);
        }
        // Idempotent when the lines are written back as lines, each ending in a newline.
        expect(printableLines(lines.map((line) => `${line}\n`).join(''), { maxLength, maxLines })).toEqual(lines);
      }),
      settings,
    );
  });

  it('printableJson is lossless and leaves nothing a terminal acts on', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(hostileText, tie('node'), { maxKeys: 4 })),
      leaf: fc.oneof(hostileText, fc.integer(), fc.boolean(), fc.constant(null)),
    })).node;
    fc.assert(
      fc.property(value, (input) => {
        const text = printableJson(input);
        expect(hasNoControl(text)).toBe(true);
        expect(hasNoFormatChar(text)).toBe(true);
        expect(isPrintable(text)).toBe(true);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(input)));
      }),
      settings,
    );
  });
});
