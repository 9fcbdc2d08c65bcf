import { describe, expect, it } from 'vitest';
import { parseEnvFile } from '../../host/bridges/env-file.ts';

const NOT_AN_EXPORT = 'not an "export NAME=value" line';
const SUBSTITUTION = 'command substitution is not run (hookbox reads the file, it does not source it)';
const BARE = 'a bare value with spaces, quotes or shell operators (quote it)';

/** One line read on its own, against `base`. */
const one = (line: string, base: Record<string, string | undefined> = {}) => parseEnvFile(line, base);

describe('parseEnvFile: lines', () => {
  it('reads "export NAME=value" and "NAME=value" lines, skipping blanks and comments', () => {
    const text = ['# written by setup.sh', 'export A=1', '', '   ', 'B=two', '  # indented comment', '\texport   C=three  ', 'export\tD=four'].join('\n');
    expect(parseEnvFile(text, {})).toStrictEqual({ vars: { A: '1', B: 'two', C: 'three', D: 'four' }, refused: [] });
  });

  it('reads CRLF files and values holding "="', () => {
    expect(parseEnvFile('export A=1\r\nexport URL=http://x/?a=b\r\n', {})).toStrictEqual({ vars: { A: '1', URL: 'http://x/?a=b' }, refused: [] });
  });

  it('a later line overrides an earlier one', () => {
    expect(parseEnvFile('A=1\nA=2', {})).toStrictEqual({ vars: { A: '2' }, refused: [] });
  });

  it('refuses a line that is not an assignment to a valid name, by its 1-based line number, and reads the rest', () => {
    const text = ['echo hi', '', 'export A=1', '1X=2', 'A-B=3', '=4', 'export', 'X Y=5', 'source ./env.sh', 'B_2=ok'].join('\n');
    expect(parseEnvFile(text, {})).toStrictEqual({
      vars: { A: '1', B_2: 'ok' },
      refused: [
        `line 1: ${NOT_AN_EXPORT}`,
        `line 4: ${NOT_AN_EXPORT}`,
        `line 5: ${NOT_AN_EXPORT}`,
        `line 6: ${NOT_AN_EXPORT}`,
        `line 7: ${NOT_AN_EXPORT}`,
        `line 8: ${NOT_AN_EXPORT}`,
        `line 9: ${NOT_AN_EXPORT}`,
      ],
    });
  });

  it('"export" is the keyword only at the start of the line', () => {
    expect(one('A="export B=1"')).toStrictEqual({ vars: { A: 'export B=1' }, refused: [] });
  });

  it('"export" must be followed by blanks to be the keyword', () => {
    expect(one('exportA=1')).toStrictEqual({ vars: { exportA: '1' }, refused: [] });
    expect(one('export=1')).toStrictEqual({ vars: { export: '1' }, refused: [] });
  });
});

describe('parseEnvFile: values', () => {
  it('a bare value is taken as is; an empty one is the empty string', () => {
    expect(one('A=/usr/local/bin:/opt/x-1.2_3,+@%')).toStrictEqual({ vars: { A: '/usr/local/bin:/opt/x-1.2_3,+@%' }, refused: [] });
    expect(one('A=')).toStrictEqual({ vars: { A: '' }, refused: [] });
  });

  it('refuses a bare value a shell would split or interpret', () => {
    for (const value of ['a b', 'a\tb', 'a;b', 'a&b', 'a|b', 'a<b', 'a>b', 'a(b', 'a)b', 'a"b', "a'b", 'a\\b']) {
      expect([value, one(`A=${value}`)]).toStrictEqual([value, { vars: {}, refused: [`line 1: ${BARE}`] }]);
    }
  });

  it('a single-quoted value is literal', () => {
    expect(one("A='x $HOME ${B} \\ \" y'", { HOME: '/home/u', B: 'b' })).toStrictEqual({ vars: { A: 'x $HOME ${B} \\ " y' }, refused: [] });
    expect(one("A=''")).toStrictEqual({ vars: { A: '' }, refused: [] });
  });

  it('refuses a single-quoted value that does not end at its closing quote', () => {
    for (const value of ["'a'b", "'a' 'b'", "'unterminated", "'"]) {
      expect([value, one(`A=${value}`)]).toStrictEqual([value, { vars: {}, refused: ['line 1: expected one single-quoted value'] }]);
    }
  });

  it('a double-quoted value expands variables and takes \\" \\\\ \\$ as escapes', () => {
    expect(one('A="a b; c | d"')).toStrictEqual({ vars: { A: 'a b; c | d' }, refused: [] });
    expect(one('A="say \\"hi\\" \\\\ \\$HOME $HOME"', { HOME: '/home/u' })).toStrictEqual({ vars: { A: 'say "hi" \\ $HOME /home/u' }, refused: [] });
    expect(one('A="\\n"')).toStrictEqual({ vars: { A: '\\n' }, refused: [] });
    expect(one('A=""')).toStrictEqual({ vars: { A: '' }, refused: [] });
  });

  it('refuses a double-quoted value that does not end at its closing quote', () => {
    for (const value of ['"a"b', '"a" "b"', '"unterminated', '"', '"a\\"']) {
      expect([value, one(`A=${value}`)]).toStrictEqual([value, { vars: {}, refused: ['line 1: expected one double-quoted value'] }]);
    }
  });

  it('refuses command substitution and backticks, quoted or not: nothing is run', () => {
    for (const value of ['$(id)', '"$(id)"', "'$(id)'", '`id`', '"`id`"', 'x`']) {
      expect([value, one(`A=${value}`)]).toStrictEqual([value, { vars: {}, refused: [`line 1: ${SUBSTITUTION}`] }]);
    }
  });
});

describe('parseEnvFile: expansion', () => {
  it('$NAME and ${NAME} expand from the base environment and from the lines before, the file winning', () => {
    const text = ['export PATH="$PATH:/opt/tool/bin"', 'export TOOL_HOME=${HOME}/tool', 'export BIN=$TOOL_HOME/bin', 'export BOTH="${PATH}|$USER"'].join('\n');
    expect(parseEnvFile(text, { PATH: '/usr/bin', HOME: '/home/u', USER: 'u' })).toStrictEqual({
      vars: { PATH: '/usr/bin:/opt/tool/bin', TOOL_HOME: '/home/u/tool', BIN: '/home/u/tool/bin', BOTH: '/usr/bin:/opt/tool/bin|u' },
      refused: [],
    });
  });

  it('an unset variable expands to nothing, as in a shell', () => {
    expect(one('A=x${NOPE}y$NOPE', { OTHER: '1' })).toStrictEqual({ vars: { A: 'xy' }, refused: [] });
    expect(one('A=$UNDEF_BASE', { UNDEF_BASE: undefined })).toStrictEqual({ vars: { A: '' }, refused: [] });
  });

  it('a bare $NAME takes the longest name; ${NAME} ends at its brace', () => {
    expect(one('A=$Xy', { X: 'x', Xy: 'long' })).toStrictEqual({ vars: { A: 'long' }, refused: [] });
    expect(one('A=${X}y', { X: 'x', Xy: 'long' })).toStrictEqual({ vars: { A: 'xy' }, refused: [] });
    expect(one('A=$X_1.$X', { X: 'x', X_1: 'one' })).toStrictEqual({ vars: { A: 'one.x' }, refused: [] });
  });

  it('a "$" that starts no name is kept', () => {
    expect(one('A=cost$1$', { 1: 'no' })).toStrictEqual({ vars: { A: 'cost$1$' }, refused: [] });
    expect(one('A="$ ${"', {})).toStrictEqual({ vars: {}, refused: ['line 1: only plain ${NAME} expansions are read'] });
  });

  it('refuses any ${…} form other than a plain name', () => {
    for (const value of ['${A:-default}', '"${A%.txt}"', '${#A}', '${}', '${1}', '"x ${A} ${B/c/d}"']) {
      expect([value, one(`V=${value}`, { A: 'a' })]).toStrictEqual([value, { vars: {}, refused: ['line 1: only plain ${NAME} expansions are read'] }]);
    }
  });

  it('a refused line sets nothing, so a later line does not see it', () => {
    const text = ['export A="unterminated', 'export B=$A-x'].join('\n');
    expect(parseEnvFile(text, { A: 'base' })).toStrictEqual({ vars: { B: 'base-x' }, refused: ['line 1: expected one double-quoted value'] });
  });
});
