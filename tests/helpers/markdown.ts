/**
 * A real CommonMark renderer for tests of Markdown sinks: markdown-it (the
 * reference-conformant CommonMark implementation on npm) in its most
 * permissive set-up — raw HTML on, GFM-style bare-URL linkify on (with
 * linkify-it's fuzzy domains, IPs and e-mails) — plus its strict
 * `commonmark` preset. What renders inert under both is inert where an editor renders
 * Markdown.
 */
import MarkdownIt from 'markdown-it';

interface MarkdownRenderer {
  render(source: string): string;
}

/** markdown-it with raw HTML and linkify on, linkify-it's fuzzy links too (`www.x.com`, `x.com`, `1.2.3.4`: off by default since linkify-it 6). */
function permissive(): MarkdownRenderer {
  const md = new MarkdownIt('default', { html: true, linkify: true });
  md.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });
  return md;
}

/** The renderers a Markdown sink's text is checked against, by name. */
export const RENDERERS: Readonly<Record<string, MarkdownRenderer>> = {
  'markdown-it (html, linkify)': permissive(),
  'markdown-it commonmark (html)': new MarkdownIt('commonmark', { html: true }),
};

/** What one renderer made of a Markdown source. */
export interface Rendered {
  readonly html: string;
  /** Every element name in the HTML, in order (`p`, `br`, `img`, …). */
  readonly elements: string[];
  /** The text a person reads: the HTML with its tags removed and its entities decoded. */
  readonly text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/** Renders `source` with one renderer and takes the result apart. */
export function render(source: string, renderer: MarkdownRenderer): Rendered {
  const html = renderer.render(source);
  // A renderer escapes `<` in text, so every `<` left in its HTML opens a tag.
  const elements = [...html.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)].map((match) => match[1]!.toLowerCase());
  const text = html.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot);/g, (entity) => ENTITIES[entity]!);
  return { html, elements, text };
}

/** The elements inert text may render as: paragraphs and line breaks. */
export const INERT_ELEMENTS: ReadonlySet<string> = new Set(['p', 'br']);

/** What in `source`'s rendering is not inert, per renderer (empty when nothing is): elements other than p and br, named with the HTML. */
export function notInert(source: string): string[] {
  const problems: string[] = [];
  for (const [name, renderer] of Object.entries(RENDERERS)) {
    const rendered = render(source, renderer);
    const extra = rendered.elements.filter((element) => !INERT_ELEMENTS.has(element));
    if (extra.length > 0) problems.push(`${name}: <${[...new Set(extra)].join('>, <')}> in ${JSON.stringify(rendered.html)}`);
  }
  return problems;
}

/** Text with every run of whitespace (no-break spaces included) as one space, trimmed: what "the same words" compares. */
export function words(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** The words a person reads of Markdown text, as the permissive renderer shows it (whitespace folded). */
export function shownWords(markdown: string): string {
  return words(render(markdown, RENDERERS['markdown-it (html, linkify)']!).text);
}
