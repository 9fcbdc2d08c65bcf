/**
 * Hook text for Markdown sinks (`host/text/inert-markdown.ts`) over generated
 * strings built from an alphabet rich in Markdown syntax: rendered by a real
 * CommonMark renderer (raw HTML and linkify on, and the strict preset), it
 * is only paragraphs and line breaks — no image, link, autolink or HTML
 * element — and its text is the hook's printable text, whitespace aside.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inertMarkdown, inertMarkdownLine, isPrintable, printable, printableLines } from '../../host/text/index.ts';
import { RENDERERS, notInert, render, words } from '../helpers/markdown.ts';
import { fuzzParams, fuzzTimeout } from './settings.ts';

const SMALL = 400;
const TIMEOUT = fuzzTimeout(SMALL, 3);

const ASCII_PUNCTUATION = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];

/** Pieces of Markdown an attacker would combine, with the punctuation one character at a time and plain words between. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ASCII_PUNCTUATION) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '![', '](', ')', '[', ']:', '<img src=', '<a href="', '</a>', '<div', '<script', '<img>', '<!--', '-->', '<div>', '<https://', 'https://', 'http://', 'mailto:',
      'www.', 'x.com', '.example', '@', 'a@b.co', '&lt;', '&#x3C;', '&#60;', '&amp;', '&#58;', '```', '~~~', '    ', '\t', '\n', '\n\n',
      '\r\n', '\\', '\\\\', '1.', '2)', '# ', '> ', '- ', '* ', '+ ', '|', '|---|', '===', '---', '[^1]', '$', ':smile:', '  \n', '\u00a0',
      '\x1b', '\u202e', '…', 'é', '日本',
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9 ]{1,6}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
const markdownish = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));

describe(`inertMarkdown over generated Markdown (${fuzzParams(SMALL).numRuns} runs each)`, () => {
  it(
    'renders as nothing but paragraphs and breaks, under every renderer',
    () => {
      fc.assert(
        fc.property(markdownish, (text) => {
          expect(notInert(inertMarkdown(text))).toEqual([]);
          expect(notInert(inertMarkdownLine(text))).toEqual([]);
        }),
        fuzzParams(SMALL),
      );
    },
    TIMEOUT,
  );

  it(
    'reads as the printable input, whitespace aside, and its raw lines are printable',
    () => {
      fc.assert(
        fc.property(markdownish, (text) => {
          const expectedLines = words(printableLines(text).join('\n'));
          const expectedLine = words(printable(text));
          for (const [name, renderer] of Object.entries(RENDERERS)) {
            expect(words(render(inertMarkdown(text), renderer).text), name).toBe(expectedLines);
            expect(words(render(inertMarkdownLine(text), renderer).text), name).toBe(expectedLine);
          }
          expect(inertMarkdown(text).split('\n').every(isPrintable)).toBe(true);
          // Every ASCII punctuation character is escaped: none is left once escape pairs are taken out.
          const unescaped = inertMarkdownLine(text).replace(/\\[!-/:-@[-`{-~]/g, '');
          expect(ASCII_PUNCTUATION.filter((char) => unescaped.includes(char))).toEqual([]);
        }),
        fuzzParams(SMALL),
      );
    },
    TIMEOUT,
  );
});
