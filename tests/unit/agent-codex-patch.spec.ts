/**
 * Codex's apply_patch envelope read as Codex 0.169.0's lenient parser reads
 * it (`parseCodexPatch`: the changes, or undefined where Codex refuses the
 * patch), and what hooks decide on (`patchFileChanges`: those changes, or
 * every header a refused patch names, with no content).
 */
import { describe, expect, it } from 'vitest';
import { parseCodexPatch, patchFileChanges } from '../../host/agents/codex/patch.ts';

const envelope = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('the markers', () => {
  it('an empty envelope is a patch with no changes', () => {
    expect(parseCodexPatch('*** Begin Patch\n*** End Patch')).toStrictEqual([]);
    expect(parseCodexPatch('  *** Begin Patch  \n\t*** End Patch\t\n')).toStrictEqual([]);
  });

  it('without the begin marker first or the end marker last, only the headers are read', () => {
    const noBegin = 'junk\n*** Add File: a\n+x\n*** End Patch';
    expect(parseCodexPatch(noBegin)).toBeUndefined();
    expect(patchFileChanges(noBegin)).toStrictEqual([{ kind: 'add', path: 'a', content: '' }]);
    const noEnd = '*** Begin Patch\n*** Add File: a\n+x\n+y\njunk';
    expect(parseCodexPatch(noEnd)).toBeUndefined();
    expect(patchFileChanges(noEnd)).toStrictEqual([{ kind: 'add', path: 'a', content: '' }]);
    expect(parseCodexPatch('*** Begin Patch')).toBeUndefined();
  });

  it.each([['<<EOF'], ["<<'EOF'"], ['<<"EOF"']])('takes off a %s heredoc wrapper', (start) => {
    expect(parseCodexPatch(`${start}\n${envelope('*** Add File: a', '+x')}\nEOF`)).toStrictEqual([{ kind: 'add', path: 'a', content: 'x\n' }]);
    expect(parseCodexPatch(`${start}\n*** Begin Patch\n*** End Patch\nEOF`)).toStrictEqual([]);
    expect(parseCodexPatch(`${start}\n${envelope('*** Add File: a', '+x')}\n  EOF`)).toStrictEqual([{ kind: 'add', path: 'a', content: 'x\n' }]);
  });

  it('refuses any other wrapper: another first line, a last line not ending in EOF, fewer than 4 lines', () => {
    expect(parseCodexPatch(`cat <<EOF\n${envelope('*** Add File: a', '+x')}\nEOF`)).toBeUndefined();
    expect(parseCodexPatch(`<<EOF\n${envelope('*** Add File: a', '+x')}\nEND`)).toBeUndefined();
    expect(parseCodexPatch(`<<EOF\n${envelope('*** Add File: a', '+x')}\nEOF!`)).toBeUndefined();
    expect(parseCodexPatch(`x\n${envelope('*** Add File: a', '+x')}\ny`)).toBeUndefined();
    expect(parseCodexPatch('<<EOF\n*** Begin Patch\nEOF')).toBeUndefined();
  });
});

describe('update chunks', () => {
  it('the first chunk may have no @@ line; its new lines are context and added lines', () => {
    expect(parseCodexPatch(envelope('*** Update File: a', '+x', ' keep', '-gone', '+y'))).toStrictEqual([{ kind: 'update', path: 'a', content: 'x\nkeep\ny' }]);
  });

  it('an empty line inside a chunk is an empty context line', () => {
    expect(parseCodexPatch(envelope('*** Update File: a', '@@', '+x', '', '+y'))).toStrictEqual([{ kind: 'update', path: 'a', content: 'x\n\ny' }]);
  });

  it('blank (whitespace) lines between chunks are skipped; chunks join with newlines', () => {
    expect(parseCodexPatch(envelope('*** Update File: a', '@@', '+x', '\t', '@@ fn main', '+y'))).toStrictEqual([{ kind: 'update', path: 'a', content: 'x\ny' }]);
  });

  it('a later chunk without @@ is refused, and the patch read for headers only', () => {
    const patch = envelope('*** Update File: a', '@@', '+x', '\t', '+y');
    expect(parseCodexPatch(patch)).toBeUndefined();
    expect(patchFileChanges(patch)).toStrictEqual([{ kind: 'update', path: 'a', content: '' }]);
  });

  it('refuses an @@ with nothing after it, an End of File first, a bad first line, an update with no chunk', () => {
    expect(parseCodexPatch(envelope('*** Update File: a', '@@'))).toBeUndefined();
    expect(parseCodexPatch(envelope('*** Update File: a', '@@', '*** End of File'))).toBeUndefined();
    expect(parseCodexPatch(envelope('*** Update File: a', '@@', '*** Delete File: b'))).toBeUndefined();
    expect(parseCodexPatch(envelope('*** Update File: a', '@@', 'bad'))).toBeUndefined();
    expect(parseCodexPatch(envelope('*** Update File: a', '*** Delete File: b'))).toBeUndefined();
    expect(parseCodexPatch(envelope('*** Update File: a', '@@x', '+y'))).toBeUndefined();
  });

  it('an End of File line closes a chunk', () => {
    expect(parseCodexPatch(envelope('*** Update File: a', '@@', '+x', '*** End of File', '*** Delete File: b'))).toStrictEqual([
      { kind: 'update', path: 'a', content: 'x' },
      { kind: 'delete', path: 'b', content: '' },
    ]);
  });

  it('a move takes the Move to line right after its header', () => {
    expect(parseCodexPatch(envelope('*** Update File: a', '*** Move to: b', '+x'))).toStrictEqual([
      { kind: 'move-from', path: 'a', content: '' },
      { kind: 'move-to', path: 'b', content: 'x' },
    ]);
  });
});

describe('file headers', () => {
  it('are read trimmed; a line that is no header refuses the patch', () => {
    expect(parseCodexPatch(envelope('  *** Add File: a  ', '+x', '\t*** Delete File: b'))).toStrictEqual([
      { kind: 'add', path: 'a', content: 'x\n' },
      { kind: 'delete', path: 'b', content: '' },
    ]);
    const patch = envelope('*** Add File: a', '+x', '-y', '@@', '+z');
    expect(parseCodexPatch(patch)).toBeUndefined();
    expect(patchFileChanges(patch)).toStrictEqual([{ kind: 'add', path: 'a', content: '' }]);
  });

  it('a refused patch yields every header it names, trimmed, in order, with no content', () => {
    const patch = ['*** Begin Patch', '  *** Add File: a', '+x', '*** Delete File: b', '*** Update File: c', '*** Move to: d', '@@ junk', '*** Add File:', 'plain text'].join('\n');
    expect(patchFileChanges(patch)).toStrictEqual([
      { kind: 'add', path: 'a', content: '' },
      { kind: 'delete', path: 'b', content: '' },
      { kind: 'update', path: 'c', content: '' },
      { kind: 'move-to', path: 'd', content: '' },
    ]);
    expect(patchFileChanges('')).toStrictEqual([]);
  });
});
