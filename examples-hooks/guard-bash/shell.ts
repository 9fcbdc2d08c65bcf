/**
 * A small shell lexer: enough of POSIX sh / bash syntax to see which programs
 * a command line runs and with which words, so that quoting, escaping and
 * chaining do not hide a dangerous command. It does not expand variables or
 * globs (the policy judges those symbolically) and never executes anything.
 *
 * Pure, portable ES2020 (runs in Node and in the hook's QuickJS engine).
 */
import { ansiCEscape, closingBacktick, closingParen, delimiterLine, findSubstitutions } from './shell-scan.ts';

export { closingParen, findSubstitutions } from './shell-scan.ts';

/** One simple command: its words after quote removal, and what feeds or receives it. */
export interface SimpleCommand {
  /**
   * Words with quotes removed and escapes resolved. A command or process
   * substitution appears as the literal word `$(<source>)`.
   */
  readonly words: string[];
  /** Targets of output redirections (`>`, `>>`, `&>`, `>|`, `1>`…). */
  readonly redirects: string[];
  /** Text fed to stdin by a heredoc (`<<EOF`) or here-string (`<<<`). */
  readonly stdinTexts: string[];
}

/** Commands joined by `|`: each one's stdout feeds the next one's stdin. */
export type Pipeline = SimpleCommand[];

/** A command line split into pipelines, plus every substitution it runs. */
export interface ParsedShell {
  /** Pipelines separated by `;`, `&&`, `||`, `&`, newlines and subshell parentheses. */
  readonly pipelines: Pipeline[];
  /**
   * Sources of every `$(…)`, `` `…` ``, `<(…)` and `>(…)` found, including inside
   * double quotes and unquoted heredoc bodies: they run too, so the caller
   * analyses each as a script of its own.
   */
  readonly substitutions: string[];
}

type Redirect = 'out' | 'in' | 'heredoc' | 'heredoc-strip' | 'herestring';

interface PendingHeredoc {
  readonly delimiter: string;
  readonly strip: boolean;
  readonly quoted: boolean;
  readonly command: SimpleCommand;
}

/** Characters with no meaning to the lexer, consumed as one run. */
const PLAIN_RUN = /[^\s\\'"`$<>&|;()#]+/y;

/**
 * ASCII plain characters and spaces: a stretch of ordinary words that
 * `split(' ')` cuts into words in one native call, where the character loop
 * would run a regex per word and an iteration per space.
 */
const PLAIN_SEGMENT = /[^\t\n\v\f\r\\'"`$<>&|;()#\u0080-\uffff]+/y;

/** The descriptor after `>&`/`<&` (`2`, `-`), tried where it must start. */
const FD_DUP = /\d+|-/y;

/** Characters with no meaning inside double quotes (`"`, `\\`, `` ` `` and `$` have one). */
const QUOTED_RUN = /[^"\\`$]+/y;

/**
 * 1 for the ASCII codes a `PLAIN_SEGMENT` can start with: a space, or a code
 * no lexer branch handles specially (for `\v`/`\f`, which no segment holds,
 * the character is taken as it is).
 */
const SEGMENT_START: number[] = [];
for (let code = 0; code < 128; code++) SEGMENT_START.push('\t\r\n#\\\'"`$<>&|;()'.indexOf(String.fromCharCode(code)) < 0 ? 1 : 0);

const newCommand = (): SimpleCommand => ({ words: [], redirects: [], stdinTexts: [] });

// Character codes the lexer dispatches on.
const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const DQUOTE = 34;
const HASH = 35;
const DOLLAR = 36;
const AMP = 38;
const SQUOTE = 39;
const LPAREN = 40;
const RPAREN = 41;
const SEMI = 59;
const LT = 60;
const GT = 62;
const BACKSLASH = 92;
const BACKTICK = 96;
const PIPE = 124;

// The lexer's state lives in module variables, not in the fields of an object:
// in the hook's interpreter (QuickJS, no inline caches) every `this.x` is a
// property lookup, a closure variable one pointer read, and this state is
// touched a few times per character. One parse runs at a time (nothing below
// calls back into `parseShell`), and `parseShell` resets all of it first.
let src = '';
let i = 0;
let pipelines: Pipeline[] = [];
let pipeline: SimpleCommand[] = [];
let command: SimpleCommand = newCommand();
let word = '';
let inWord = false;
let wordQuoted = false;
let redirect: Redirect | null = null;
let heredocs: PendingHeredoc[] = [];
let substitutions: string[] = [];

function append(text: string, quoted = false): void {
  // `inWord` is false exactly when `word` is empty and unstarted: no copy of `text`.
  word = inWord ? word + text : text;
  inWord = true;
  if (quoted) wordQuoted = true;
}

function addSubstitution(source: string): void {
  substitutions.push(source);
  append(`$(${source})`);
}

function endWord(): void {
  if (!inWord) return;
  const target = redirect;
  redirect = null;
  if (target === null) command.words.push(word);
  else if (target === 'out') command.redirects.push(word);
  else if (target === 'herestring') command.stdinTexts.push(word);
  else if (target === 'heredoc' || target === 'heredoc-strip') {
    heredocs.push({ delimiter: word, strip: target === 'heredoc-strip', quoted: wordQuoted, command });
  }
  word = '';
  inWord = false;
  wordQuoted = false;
}

function endCommand(): void {
  endWord();
  redirect = null;
  const cmd = command;
  if (cmd.words.length > 0 || cmd.redirects.length > 0 || cmd.stdinTexts.length > 0 || (heredocs.length > 0 && heredocs.some((h) => h.command === cmd))) {
    pipeline.push(cmd);
    command = newCommand();
  }
  // Else it stays empty and unreferenced: the next command can be this one.
}

function endPipeline(): void {
  endCommand();
  if (pipeline.length > 0) {
    pipelines.push(pipeline);
    pipeline = [];
  }
}

function readHeredocBodies(): void {
  if (heredocs.length === 0) return;
  for (let h = 0; h < heredocs.length; h++) {
    const doc = heredocs[h] as PendingHeredoc;
    let body: string;
    if (!doc.strip && doc.delimiter.indexOf('\n') < 0) {
      // The body is every line up to the delimiter line: one slice, not a join of lines.
      const end = delimiterLine(src, i, doc.delimiter);
      if (end < 0) {
        body = src.slice(i);
        if (body.endsWith('\n')) body = body.slice(0, -1);
        i = src.length;
      } else {
        body = end > i ? src.slice(i, end - 1) : '';
        i = end + doc.delimiter.length + 1;
      }
    } else {
      const lines: string[] = [];
      while (i < src.length) {
        const eol = src.indexOf('\n', i);
        const stop = eol < 0 ? src.length : eol;
        let line = src.slice(i, stop);
        i = stop + 1;
        if (doc.strip) line = line.replace(/^\t+/, '');
        if (line === doc.delimiter) break;
        lines.push(line);
      }
      body = lines.join('\n');
    }
    doc.command.stdinTexts.push(body);
    // An unquoted delimiter means the body is expanded: its substitutions run.
    if (!doc.quoted) for (const sub of findSubstitutions(body)) substitutions.push(sub);
  }
  heredocs = [];
}

function readDoubleQuoted(): void {
  append('', true);
  i++;
  while (i < src.length) {
    const code = src.charCodeAt(i);
    if (code === DQUOTE) break;
    if (code === BACKSLASH) {
      const n = src.charCodeAt(i + 1);
      if (n === NEWLINE) {
        // line continuation inside quotes: both characters vanish
      } else if (n === DQUOTE || n === BACKSLASH || n === DOLLAR || n === BACKTICK) append(src[i + 1] as string);
      else append(`\\${src[i + 1] ?? ''}`);
      i += 2;
    } else if (code === BACKTICK) {
      readBacktick();
    } else if (code === DOLLAR) {
      if (src.charCodeAt(i + 1) === LPAREN) readDollar();
      else {
        append('$');
        i++;
      }
    } else {
      // Up to the next character with a meaning inside double quotes, at once.
      QUOTED_RUN.lastIndex = i;
      QUOTED_RUN.test(src);
      const end = QUOTED_RUN.lastIndex;
      append(src.slice(i, end));
      i = end;
    }
  }
  i++;
}

function readBacktick(): void {
  const end = closingBacktick(src, i);
  addSubstitution(src.slice(i + 1, end).replace(/\\`/g, '`'));
  i = end + 1;
}

function readDollar(): void {
  const n = src[i + 1];
  if (n === '(') {
    const end = closingParen(src, i + 1);
    if (src[i + 2] === '(') append(src.slice(i, end + 1)); // $(( arithmetic ))
    else addSubstitution(src.slice(i + 2, end));
    i = end + 1;
  } else if (n === "'") {
    let end = i + 2;
    while (end < src.length && src[end] !== "'") end += src[end] === '\\' ? 2 : 1;
    append(ansiCEscape(src.slice(i + 2, end)), true);
    i = end + 1;
  } else if (n === '{') {
    const end = src.indexOf('}', i);
    const stop = end < 0 ? src.length : end;
    append(src.slice(i, stop + 1));
    i = stop + 1;
  } else {
    append('$');
    i++;
  }
}

function readRedirect(c: '<' | '>'): void {
  // A word of digits directly before the operator is a file descriptor.
  if (inWord && !wordQuoted && /^\d+$/.test(word)) {
    word = '';
    inWord = false;
  } else {
    endWord();
  }
  const rest = src.slice(i, i + 3);
  if (c === '<' && rest === '<<<') {
    redirect = 'herestring';
    i += 3;
  } else if (c === '<' && rest.startsWith('<<')) {
    redirect = rest === '<<-' ? 'heredoc-strip' : 'heredoc';
    i += rest === '<<-' ? 3 : 2;
  } else if (rest[1] === '&') {
    // `>&2`, `<&0`, `>&-`: descriptor duplication, no file. `>&file` is `&>file`.
    i += 2;
    FD_DUP.lastIndex = i;
    if (FD_DUP.test(src)) i = FD_DUP.lastIndex;
    else redirect = c === '>' ? 'out' : 'in';
  } else {
    redirect = c === '>' ? 'out' : 'in';
    i += rest[1] === '>' || rest[1] === '|' || (c === '<' && rest[1] === '>') ? 2 : 1;
  }
}

function lex(): void {
  const length = src.length;
  while (i < length) {
    const code = src.charCodeAt(i);
    if (code < 128 && SEGMENT_START[code] === 1) {
      // Ordinary words and the spaces between them at once (tested first: every
      // comparison below is a branch the interpreter pays for, per token).
      // `test`, not `exec`: no match array to build.
      PLAIN_SEGMENT.lastIndex = i;
      if (!PLAIN_SEGMENT.test(src)) {
        append(src[i] as string); // `\v` or `\f`
        i++;
        continue;
      }
      const end = PLAIN_SEGMENT.lastIndex;
      const pieces = src.slice(i, end).split(' ');
      // The first piece continues the current word; every space ends a word.
      // (`append` inlined: this runs once per word.)
      const head = pieces[0] as string;
      if (head.length > 0) {
        word = inWord ? word + head : head;
        inWord = true;
      }
      for (let k = 1; k < pieces.length; k++) {
        if (inWord) endWord();
        const piece = pieces[k] as string;
        if (piece.length > 0) {
          word = piece;
          inWord = true;
        }
      }
      i = end;
      continue;
    }
    if (code >= 128) {
      // Beyond ASCII: a plain run (which stops at any Unicode space), or the one character.
      PLAIN_RUN.lastIndex = i;
      const end = PLAIN_RUN.test(src) ? PLAIN_RUN.lastIndex : i + 1;
      append(src.slice(i, end));
      i = end;
      continue;
    }
    // Character codes, not one-character strings: integer comparisons, the
    // operators that separate commands first (each test is paid per token).
    const n = src.charCodeAt(i + 1); // NaN past the end
    if (code === AMP) {
      if (n === AMP) {
        endPipeline();
        i += 2;
      } else if (n === GT) {
        endWord();
        redirect = 'out';
        i += src.charCodeAt(i + 2) === GT ? 3 : 2;
      } else {
        endPipeline();
        i++;
      }
    } else if (code === PIPE) {
      if (n === PIPE) endPipeline();
      else endCommand();
      i += n === PIPE || n === AMP ? 2 : 1;
    } else if (code === NEWLINE) {
      endPipeline();
      i++;
      readHeredocBodies();
    } else if (code === LT || code === GT) {
      if (n === LPAREN) {
        endWord();
        const end = closingParen(src, i + 1);
        addSubstitution(src.slice(i + 2, end));
        i = end + 1;
      } else {
        readRedirect(code === LT ? '<' : '>');
      }
    } else if (code === SQUOTE) {
      const end = src.indexOf("'", i + 1);
      const stop = end < 0 ? length : end;
      append(src.slice(i + 1, stop), true);
      i = stop + 1;
    } else if (code === DQUOTE) {
      readDoubleQuoted();
    } else if (code === DOLLAR) {
      readDollar();
    } else if (code === SEMI || code === LPAREN || code === RPAREN) {
      endPipeline();
      i++;
    } else if (code === TAB || code === CR) {
      if (inWord) endWord();
      i++;
    } else if (code === HASH && !inWord) {
      const eol = src.indexOf('\n', i);
      i = eol < 0 ? length : eol;
    } else if (code === BACKSLASH) {
      if (n !== NEWLINE) append(src[i + 1] ?? '');
      i += 2;
    } else if (code === BACKTICK) {
      readBacktick();
    } else {
      // `#` inside a word: an ordinary character.
      append('#');
      i++;
    }
  }
  endPipeline();
  // Heredocs opened on the last line with no body yet: nothing to read.
}

/**
 * Splits a shell command line into pipelines of simple commands.
 *
 * @example
 * ```ts
 * parseShell("FOO=1 sudo 'rm' -rf / && echo $(whoami) | tee log").pipelines;
 * // → [[{words: ['FOO=1', 'sudo', 'rm', '-rf', '/'], …}],
 * //    [{words: ['echo', '$(whoami)'], …}, {words: ['tee', 'log'], …}]]
 * ```
 */
export function parseShell(text: string): ParsedShell {
  src = text;
  i = 0;
  pipelines = [];
  pipeline = [];
  command = newCommand();
  word = '';
  inWord = false;
  wordQuoted = false;
  redirect = null;
  heredocs = [];
  substitutions = [];
  lex();
  const parsed = { pipelines, substitutions };
  // Drop the references: the next parse starts from scratch, and the text is not kept alive.
  src = '';
  pipelines = [];
  substitutions = [];
  return parsed;
}
