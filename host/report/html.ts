import { printable, printableLines } from '../text/index.ts';

/**
 * Markup the report built itself. Only {@link html}, {@link multiline} and {@link styleElement}
 * make one, so a string from a log can never be mistaken for markup: a value
 * that is not `Html` is always sanitised and escaped.
 */
export class Html {
  readonly #markup: string;
  /** Only this module holds the token, so no other code can wrap a string as markup. */
  constructor(token: symbol, markup: string) {
    if (token !== MARKUP) throw new Error('Html is built by html`…` only');
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

const MARKUP = Symbol('hookbox report markup');

/** A value {@link html} can interpolate: markup, text (escaped), a number, nothing, or a list of these. */
export type HtmlValue = Html | string | number | undefined | null | false | readonly HtmlValue[];

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML-escapes text for element content and for quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] as string);
}

/** The longest one-line field the report prints, in code points. */
export const FIELD_LENGTH = 2000;

function interpolate(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(interpolate).join('');
  if (value === undefined || value === null || value === false) return '';
  // Text is hostile until shown otherwise: controls, escape sequences and bidi
  // characters become visible escapes (host/text), then HTML-escaped.
  return escapeHtml(printable(String(value), { maxLength: FIELD_LENGTH }));
}

/**
 * Builds markup: the template's literal parts are the report's own markup;
 * every interpolated string is made printable (one line) and HTML-escaped,
 * in content and in attributes alike (attributes are always double-quoted).
 *
 * @example
 * html`<td>${reason}</td>` // reason '<b>\u202e' → '<td>&lt;b&gt;\u{202e}</td>'
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += interpolate(value) + (strings[index + 1] ?? '');
  });
  return new Html(MARKUP, out);
}

/** Multi-line hostile text for a `white-space: pre-wrap` element: printable lines, escaped, joined by newlines. */
export function multiline(text: string, options: { maxLines: number; maxLength?: number }): Html {
  const lines = printableLines(text, { maxLines: options.maxLines, maxLength: options.maxLength ?? FIELD_LENGTH });
  return new Html(MARKUP, lines.map(escapeHtml).join('\n'));
}

/**
 * The page's own style sheet as a `<style>` element. A style element's text
 * is not entity-decoded, so it cannot go through {@link html}; it is a
 * constant of the report, and one that could end the element is refused.
 */
export function styleElement(css: string): Html {
  if (/<\/style/i.test(css)) throw new Error('the report style sheet must not contain </style');
  return new Html(MARKUP, `<style>${css}</style>`);
}
