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

/** Characters with no meaning inside double quotes (`"`, `\\`, `` ` `` and `$` have one). */
const QUOTED_RUN = /[^"\\`$]+/y;

/**
 * 1 for ASCII codes that no lexer branch handles specially (so `PLAIN_RUN`
 * starts there, or, for `\v`/`\f`, the character is taken as it is).
 */
const PLAIN_ASCII: number[] = [];
for (let code = 0; code < 128; code++) PLAIN_ASCII.push(' \t\r\n#\\\'"`$<>&|;()'.indexOf(String.fromCharCode(code)) < 0 ? 1 : 0);

const newCommand = (): SimpleCommand => ({ words: [], redirects: [], stdinTexts: [] });

// Fields are `declare`d and assigned in the constructor: initialized class
// fields are compiled (ES2020 target) into three helper calls each, a cost
// paid on every parse in the hook's interpreter.
class Lexer {
  private declare readonly src: string;
  private declare i: number;
  private declare readonly pipelines: Pipeline[];
  private declare pipeline: SimpleCommand[];
  private declare command: SimpleCommand;
  private declare word: string;
  private declare inWord: boolean;
  private declare wordQuoted: boolean;
  private declare redirect: Redirect | null;
  private declare heredocs: PendingHeredoc[];
  private declare readonly substitutions: string[];

  constructor(src: string) {
    this.src = src;
    this.i = 0;
    this.pipelines = [];
    this.pipeline = [];
    this.command = newCommand();
    this.word = '';
    this.inWord = false;
    this.wordQuoted = false;
    this.redirect = null;
    this.heredocs = [];
    this.substitutions = [];
  }

  parse(): ParsedShell {
    const src = this.src;
    while (this.i < src.length) {
      const code = src.charCodeAt(this.i);
      if (code >= 128 || PLAIN_ASCII[code] === 1) {
        // A run of ordinary characters at once (tested first: every comparison
        // below is a branch the interpreter pays for, per token).
        PLAIN_RUN.lastIndex = this.i;
        const run = PLAIN_RUN.exec(src);
        const text = run === null ? (src[this.i] as string) : run[0];
        this.word += text;
        this.inWord = true;
        this.i += text.length;
        continue;
      }
      const c = src[this.i] as string;
      const n = src[this.i + 1];
      if (c === ' ' || c === '\t' || c === '\r') {
        if (this.inWord) this.endWord();
        this.i++;
      } else if (c === '\n') {
        this.endPipeline();
        this.i++;
        this.readHeredocBodies();
      } else if (c === '#' && !this.inWord) {
        while (this.i < src.length && src[this.i] !== '\n') this.i++;
      } else if (c === '\\') {
        if (n !== '\n') this.append(n ?? '');
        this.i += 2;
      } else if (c === "'") {
        const end = src.indexOf("'", this.i + 1);
        const stop = end < 0 ? src.length : end;
        this.append(src.slice(this.i + 1, stop), true);
        this.i = stop + 1;
      } else if (c === '"') {
        this.readDoubleQuoted();
      } else if (c === '`') {
        this.readBacktick();
      } else if (c === '$') {
        this.readDollar();
      } else if ((c === '<' || c === '>') && n === '(') {
        this.endWord();
        const end = closingParen(src, this.i + 1);
        this.addSubstitution(src.slice(this.i + 2, end));
        this.i = end + 1;
      } else if (c === '<' || c === '>') {
        this.readRedirect(c);
      } else if (c === '&') {
        if (n === '&') {
          this.endPipeline();
          this.i += 2;
        } else if (n === '>') {
          this.endWord();
          this.redirect = 'out';
          this.i += src[this.i + 2] === '>' ? 3 : 2;
        } else {
          this.endPipeline();
          this.i++;
        }
      } else if (c === '|') {
        if (n === '|') this.endPipeline();
        else this.endCommand();
        this.i += n === '|' || n === '&' ? 2 : 1;
      } else if (c === ';' || c === '(' || c === ')') {
        this.endPipeline();
        this.i++;
      } else {
        // `#` inside a word: an ordinary character.
        this.append(c);
        this.i++;
      }
    }
    this.endPipeline();
    // Heredocs opened on the last line with no body yet: nothing to read.
    return { pipelines: this.pipelines, substitutions: this.substitutions };
  }

  private append(text: string, quoted = false): void {
    this.word += text;
    this.inWord = true;
    if (quoted) this.wordQuoted = true;
  }

  private addSubstitution(source: string): void {
    this.substitutions.push(source);
    this.append(`$(${source})`);
  }

  private endWord(): void {
    if (!this.inWord) return;
    const word = this.word;
    const redirect = this.redirect;
    this.redirect = null;
    if (redirect === 'out') this.command.redirects.push(word);
    else if (redirect === 'herestring') this.command.stdinTexts.push(word);
    else if (redirect === 'heredoc' || redirect === 'heredoc-strip') {
      this.heredocs.push({ delimiter: word, strip: redirect === 'heredoc-strip', quoted: this.wordQuoted, command: this.command });
    } else if (redirect === null) this.command.words.push(word);
    this.word = '';
    this.inWord = false;
    this.wordQuoted = false;
  }

  private endCommand(): void {
    this.endWord();
    this.redirect = null;
    const cmd = this.command;
    if (cmd.words.length > 0 || cmd.redirects.length > 0 || cmd.stdinTexts.length > 0 || this.heredocs.some((h) => h.command === cmd)) {
      this.pipeline.push(cmd);
    }
    this.command = newCommand();
  }

  private endPipeline(): void {
    this.endCommand();
    if (this.pipeline.length > 0) this.pipelines.push(this.pipeline);
    this.pipeline = [];
  }

  private readHeredocBodies(): void {
    const src = this.src;
    for (const doc of this.heredocs) {
      let body: string;
      if (!doc.strip && doc.delimiter.indexOf('\n') < 0) {
        // The body is every line up to the delimiter line: one slice, not a join of lines.
        const end = delimiterLine(src, this.i, doc.delimiter);
        if (end < 0) {
          body = src.slice(this.i);
          if (body.endsWith('\n')) body = body.slice(0, -1);
          this.i = src.length;
        } else {
          body = end > this.i ? src.slice(this.i, end - 1) : '';
          this.i = end + doc.delimiter.length + 1;
        }
      } else {
        const lines: string[] = [];
        while (this.i < src.length) {
          const eol = src.indexOf('\n', this.i);
          const stop = eol < 0 ? src.length : eol;
          let line = src.slice(this.i, stop);
          this.i = stop + 1;
          if (doc.strip) line = line.replace(/^\t+/, '');
          if (line === doc.delimiter) break;
          lines.push(line);
        }
        body = lines.join('\n');
      }
      doc.command.stdinTexts.push(body);
      // An unquoted delimiter means the body is expanded: its substitutions run.
      if (!doc.quoted) for (const sub of findSubstitutions(body)) this.substitutions.push(sub);
    }
    this.heredocs = [];
  }

  private readDoubleQuoted(): void {
    const src = this.src;
    this.append('', true);
    this.i++;
    while (this.i < src.length && src[this.i] !== '"') {
      const c = src[this.i] as string;
      const n = src[this.i + 1];
      if (c === '\\') {
        if (n === '\n') {
          // line continuation inside quotes: both characters vanish
        } else if (n === '"' || n === '\\' || n === '$' || n === '`') this.append(n);
        else this.append(`\\${n ?? ''}`);
        this.i += 2;
      } else if (c === '`') {
        this.readBacktick();
      } else if (c === '$' && n === '(') {
        this.readDollar();
      } else if (c === '$') {
        this.append(c);
        this.i++;
      } else {
        // Up to the next character with a meaning inside double quotes, at once.
        QUOTED_RUN.lastIndex = this.i;
        const run = QUOTED_RUN.exec(src) as RegExpExecArray;
        this.append(run[0]);
        this.i += run[0].length;
      }
    }
    this.i++;
  }

  private readBacktick(): void {
    const end = closingBacktick(this.src, this.i);
    this.addSubstitution(this.src.slice(this.i + 1, end).replace(/\\`/g, '`'));
    this.i = end + 1;
  }

  private readDollar(): void {
    const src = this.src;
    const n = src[this.i + 1];
    if (n === '(') {
      const end = closingParen(src, this.i + 1);
      if (src[this.i + 2] === '(') this.append(src.slice(this.i, end + 1)); // $(( arithmetic ))
      else this.addSubstitution(src.slice(this.i + 2, end));
      this.i = end + 1;
    } else if (n === "'") {
      let end = this.i + 2;
      while (end < src.length && src[end] !== "'") end += src[end] === '\\' ? 2 : 1;
      this.append(ansiCEscape(src.slice(this.i + 2, end)), true);
      this.i = end + 1;
    } else if (n === '{') {
      const end = src.indexOf('}', this.i);
      const stop = end < 0 ? src.length : end;
      this.append(src.slice(this.i, stop + 1));
      this.i = stop + 1;
    } else {
      this.append('$');
      this.i++;
    }
  }

  private readRedirect(c: '<' | '>'): void {
    const src = this.src;
    // A word of digits directly before the operator is a file descriptor.
    if (this.inWord && !this.wordQuoted && /^\d+$/.test(this.word)) {
      this.word = '';
      this.inWord = false;
    } else {
      this.endWord();
    }
    const rest = src.slice(this.i, this.i + 3);
    if (c === '<' && rest === '<<<') {
      this.redirect = 'herestring';
      this.i += 3;
    } else if (c === '<' && rest.startsWith('<<')) {
      this.redirect = rest === '<<-' ? 'heredoc-strip' : 'heredoc';
      this.i += rest === '<<-' ? 3 : 2;
    } else if (rest[1] === '&') {
      // `>&2`, `<&0`, `>&-`: descriptor duplication, no file. `>&file` is `&>file`.
      this.i += 2;
      const m = /^(\d+|-)/.exec(src.slice(this.i));
      if (m) this.i += m[0].length;
      else this.redirect = c === '>' ? 'out' : 'in';
    } else {
      this.redirect = c === '>' ? 'out' : 'in';
      this.i += rest[1] === '>' || rest[1] === '|' || (c === '<' && rest[1] === '>') ? 2 : 1;
    }
  }
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
export function parseShell(src: string): ParsedShell {
  return new Lexer(src).parse();
}
