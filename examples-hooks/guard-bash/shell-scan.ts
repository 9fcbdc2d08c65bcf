/**
 * Scanning helpers for the shell lexer (`shell.ts`): matching closers of
 * substitutions, ANSI-C escapes, substitutions in free text, heredoc ends.
 * Pure, portable ES2020.
 */

/** Index of the `)` that closes the `(` at `open`, skipping quoted text; `src.length` when unterminated. */
export function closingParen(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      i++;
    } else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      i = end < 0 ? src.length : end;
    } else if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return src.length;
}

/** Index of the backtick that closes the one at `open`; `src.length` when unterminated. */
export function closingBacktick(src: string, open: number): number {
  for (let i = open + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '`') return i;
  }
  return src.length;
}

/** `$'…'` (ANSI-C quoting) escapes, a classic way to spell `rm` as `$'\x72\x6d'`. */
export function ansiCEscape(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|[0-7]{1,3}|.)/g, (_m, e: string) => {
    if (e[0] === 'x' || e[0] === 'u') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };
    return simple[e] ?? e;
  });
}

/**
 * Sources of `$(…)` and backtick substitutions in free text (an unquoted heredoc
 * body, where they are expanded although nothing else is parsed).
 */
export function findSubstitutions(text: string): string[] {
  const found: string[] = [];
  const special = /[\\$`]/g;
  for (let i = 0; i < text.length; i++) {
    // Jump to the next character that can start an escape or a substitution.
    special.lastIndex = i;
    const next = special.exec(text);
    if (next === null) break;
    i = next.index;
    const c = text[i];
    if (c === '\\') {
      i++;
    } else if (c === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
      const end = closingParen(text, i + 1);
      found.push(text.slice(i + 2, end));
      i = end;
    } else if (c === '`') {
      const end = closingBacktick(text, i);
      found.push(text.slice(i + 1, end).replace(/\\`/g, '`'));
      i = end;
    }
  }
  return found;
}

/**
 * Start of the first line at or after `from` (a line start) that is exactly
 * `delimiter` (which has no newline), or -1. Lines start before the end of `src`.
 */
export function delimiterLine(src: string, from: number, delimiter: string): number {
  const marker = `\n${delimiter}`;
  let start = from;
  while (start < src.length) {
    const after = start + delimiter.length;
    if (src.startsWith(delimiter, start) && (after === src.length || src.charCodeAt(after) === 10)) return start;
    const next = src.indexOf(marker, start);
    if (next < 0) return -1;
    start = next + 1;
  }
  return -1;
}
