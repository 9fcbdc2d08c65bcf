/**
 * Fork-bomb detection (`:(){ :|:& };:`, renamed variants, `function f { f | f & }`,
 * Perl's `fork while fork`) over a script's raw text, before it is lexed.
 */
import { findingFor, type Finding } from './rules.ts';

// Matched against whitespace-collapsed text (`\s+` → one space), hence the optional single spaces.
const FUNCTION_BOMB = /([^\s(){}|&;<>'"]+) ?\( ?\) ?\{[^}]*?\1 ?\| ?\1 ?&/;
const KEYWORD_BOMB = /function ([^\s(){}|&;<>'"]+) ?(\( ?\) ?)?\{[^}]*?\1 ?\| ?\1 ?&/;
const FORK_WHILE_FORK = /\bfork\b.{0,8}\bwhile\b.{0,8}\bfork\b/;
const WHITESPACE_RUN = /\s+/g;
const WHITESPACE_CHAR = /\s/;

/** Whether `text[i]` is what `\s` matches (the common ASCII cases without a regex call). */
function isSpaceAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && WHITESPACE_CHAR.test(text.charAt(i));
}

/** Whether `text[i]` can be part of a fork bomb's function name (`[^\s(){}|&;<>'"]`). */
function isNameCharAt(text: string, i: number): boolean {
  return i >= 0 && i < text.length && !isSpaceAt(text, i) && '(){}|&;<>\'"'.indexOf(text.charAt(i)) < 0;
}

function skipSpaces(text: string, i: number): number {
  while (i < text.length && isSpaceAt(text, i)) i++;
  return i;
}

const collapse = (text: string): string => text.replace(WHITESPACE_RUN, ' ');

// The regexes are unanchored and backtrack at every start position, which is
// slow in the hook's interpreter (libregexp) on kilobytes of heredoc. Each form
// can only match inside a window that starts at a name run before `( ) {` (or at
// the word `function`) and ends before the first `}` after it (no part of a
// match can contain `}`). Windows start and end on non-space characters, so
// collapsing a window gives exactly that slice of the collapsed text: testing
// the same regex on every window decides exactly what testing the whole text did.

/**
 * After a `|`: optional spaces, a whole run of name characters, optional
 * spaces, `&` (the `\| ?\1 ?&` of both function forms, in raw text). Sticky:
 * tried at one position. The run cannot end early: neither spaces nor `&`
 * are name characters.
 */
const INTO_BACKGROUND = /\s*[^\s(){}|&;<>'"]+\s*&/y;

/**
 * `| name &` (in collapsed text: `\| ?\1 ?&`, where the name is a whole run of
 * name characters) somewhere in `text`: both function forms need it, and it is
 * rare, so it decides cheaply whether to look for `name() {` at all.
 */
function pipesIntoBackground(text: string): boolean {
  for (let bar = text.indexOf('|'); bar >= 0; bar = text.indexOf('|', bar + 1)) {
    INTO_BACKGROUND.lastIndex = bar + 1;
    if (INTO_BACKGROUND.test(text)) return true;
  }
  return false;
}

/** `name() { name | name & }` somewhere in `text`. */
function definesForkingFunction(text: string): boolean {
  for (let open = text.indexOf('('); open >= 0; open = text.indexOf('(', open + 1)) {
    let j = skipSpaces(text, open + 1);
    if (text[j] !== ')') continue;
    j = skipSpaces(text, j + 1);
    if (text[j] !== '{') continue;
    let nameEnd = open;
    while (nameEnd > 0 && isSpaceAt(text, nameEnd - 1)) nameEnd--;
    let nameStart = nameEnd;
    while (isNameCharAt(text, nameStart - 1)) nameStart--;
    if (nameStart === nameEnd) continue;
    const close = text.indexOf('}', j);
    if (FUNCTION_BOMB.test(collapse(text.slice(nameStart, close < 0 ? text.length : close)))) return true;
  }
  return false;
}

/** `function name { name | name & }` somewhere in `text`. */
function definesForkingKeywordFunction(text: string): boolean {
  for (let at = text.indexOf('function'); at >= 0; at = text.indexOf('function', at + 1)) {
    if (!isSpaceAt(text, at + 8)) continue;
    const close = text.indexOf('}', at);
    if (KEYWORD_BOMB.test(collapse(text.slice(at, close < 0 ? text.length : close)))) return true;
  }
  return false;
}

/** `:(){ :|:& };:` and its renamed variants, plus `fork while fork`. */
export function forkBomb(text: string): Finding | undefined {
  // The function forms need `| name &`; the Perl form needs `fork` and `while`.
  const pipes = text.indexOf('&') >= 0 && pipesIntoBackground(text);
  if (
    (pipes && (definesForkingFunction(text) || definesForkingKeywordFunction(text))) ||
    (text.indexOf('fork') >= 0 && text.indexOf('while') >= 0 && FORK_WHILE_FORK.test(collapse(text)))
  ) {
    return findingFor('fork-bomb', 'deny', 'fork bomb');
  }
  return undefined;
}
