/**
 * Untrusted text made printable. Every string a hook produced (a reason, a
 * context, a log line, a fault message carrying plugin text, a shell hook's
 * stderr, an imported hook's output, a name read from a module's bytes) goes
 * through here before it reaches a terminal, an editor or a page.
 *
 * The rule is *show escaped*, never silently drop: each dangerous character
 * is replaced by its escape notation, so the operator sees that a hook tried
 * something (`\x1b]52;c;…\x07` reads as an attempt to write the clipboard)
 * while the terminal receives only printable text. Escaping the introducer
 * (ESC, or the 8-bit C1 forms CSI U+009B, OSC U+009D, DCS U+0090, SOS U+0098,
 * PM U+009E, APC U+009F) disarms the whole CSI/OSC/DCS/SOS/PM/APC sequence;
 * the rest of the sequence is ordinary printable characters.
 *
 * Escaped:
 * - C0 controls U+0000–U+001F, DEL U+007F and C1 controls U+0080–U+009F,
 *   shown `\xNN` (with `\n`, `\r`, `\t` for the three common ones);
 * - Unicode format characters (category Cf: the bidi embeddings, overrides
 *   and isolates U+202A–U+202E and U+2066–U+2069, zero-width characters,
 *   the BOM, soft hyphen, invisible tag characters U+E0000–U+E007F…), the
 *   line and paragraph separators U+2028/U+2029 that an editor may render
 *   as a line break, and lone surrogates, shown `\u{NNNN}`.
 *
 * A backslash is kept as is: the output of {@link printable} is a fixed point
 * (sanitising twice changes nothing), which escaping `\` would break. A hook
 * can therefore print the *characters* `\x1b`, which is harmless.
 *
 * The session log is not a sink: it keeps the raw text, JSON-escaped, for
 * audit.
 */

/** How long a sanitised one-line field may be, in code points, unless a sink says otherwise. */
export const DEFAULT_MAX_LENGTH = 1000;

/** How many lines {@link printableLines} keeps unless a sink says otherwise. */
export const DEFAULT_MAX_LINES = 40;

/** Appended (within the cap) where text was cut. */
export const ELLIPSIS = '…';

/** Options of {@link printable}. */
export interface PrintableOptions {
  /** Longest output in code points, ellipsis included (at least 1). Default {@link DEFAULT_MAX_LENGTH}. */
  maxLength?: number;
}

/** Options of {@link printableLines}. */
export interface PrintableLinesOptions extends PrintableOptions {
  /** Most lines returned, the "… (N more lines)" marker included (at least 1). Default {@link DEFAULT_MAX_LINES}. */
  maxLines?: number;
}

const NAMED_ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x09, '\\t'],
  [0x0a, '\\n'],
  [0x0d, '\\r'],
]);

/** Cc (C0, DEL, C1), Cf (format: bidi, zero-width, tags…), Zl/Zp (line/paragraph separator), Cs (lone surrogate). */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** The escape notation shown in place of one unsafe code point. */
function escapeCodePoint(codePoint: number): string {
  const named = NAMED_ESCAPES.get(codePoint);
  if (named !== undefined) return named;
  if (codePoint <= 0x9f) return `\\x${codePoint.toString(16).padStart(2, '0')}`;
  return `\\u{${codePoint.toString(16).padStart(4, '0')}}`;
}

/** One code point of input as it appears in the output. */
function render(char: string): string {
  return UNSAFE.test(char) ? escapeCodePoint(char.codePointAt(0) ?? 0) : char;
}

function checkCap(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be an integer of at least 1, got ${value}`);
  }
  return value;
}

/**
 * Turn untrusted text into one printable line: no control character, no
 * escape sequence, no bidi or invisible format character, no line break
 * (a newline is shown `\n`, so it cannot fake a new transcript line), at
 * most `maxLength` code points with {@link ELLIPSIS} where it was cut.
 * An escape is never cut in half. Never throws on any string; idempotent.
 *
 * @example
 * printable('ok\x1b]0;pwned\x07') // 'ok\\x1b]0;pwned\\x07'
 * printable('a'.repeat(10), { maxLength: 4 }) // 'aaa…'
 */
export function printable(text: string, options: PrintableOptions = {}): string {
  const maxLength = checkCap('maxLength', options.maxLength ?? DEFAULT_MAX_LENGTH);
  const pieces: string[] = [];
  let length = 0;
  for (const char of text) {
    const piece = render(char);
    // Escapes are ASCII, so their code-point length is their string length;
    // a kept character is one code point.
    const pieceLength = piece === char ? 1 : piece.length;
    if (length + pieceLength > maxLength) return truncated(pieces, length, maxLength);
    pieces.push(piece);
    length += pieceLength;
  }
  return pieces.join('');
}

/** Drop whole pieces from the end until the ellipsis fits within the cap. */
function truncated(pieces: string[], length: number, maxLength: number): string {
  let kept = length;
  while (pieces.length > 0 && kept + 1 > maxLength) {
    const last = pieces.pop() ?? '';
    kept -= [...last].length;
  }
  return pieces.join('') + ELLIPSIS;
}

/**
 * Turn untrusted multi-line text into printable lines, for a sink that shows
 * several lines and prefixes (indents, attributes) each one itself — the
 * returned lines contain no line break, so a line cannot pretend to be the
 * host's. `\n` and `\r\n` end a line; a lone `\r` (which would return the
 * cursor and overwrite) is shown escaped like any other control, as evidence;
 * each line is {@link printable} with the
 * same `maxLength`; past `maxLines`, the last line says how many were left
 * out. A trailing line break does not make an empty last line.
 *
 * @example
 * printableLines('one\ntwo\x07') // ['one', 'two\\x07']
 */
export function printableLines(text: string, options: PrintableLinesOptions = {}): string[] {
  const maxLines = checkCap('maxLines', options.maxLines ?? DEFAULT_MAX_LINES);
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length > maxLines) {
    const shown = lines.slice(0, maxLines - 1).map((line) => printable(line, options));
    const omitted = lines.length - shown.length;
    return [...shown, printable(`${ELLIPSIS} (${omitted} more lines)`, options)];
  }
  return lines.map((line) => printable(line, options));
}

/**
 * Whether `text` is already printable: it holds none of the characters
 * {@link printable} escapes, line breaks and tabs included. The output of
 * {@link printable} and each line of {@link printableLines} always is.
 */
export function isPrintable(text: string): boolean {
  return !UNSAFE.test(text);
}
