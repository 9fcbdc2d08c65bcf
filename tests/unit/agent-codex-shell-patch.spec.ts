/**
 * Which Codex shell calls apply a patch, and the patch text (and `cd DIR`)
 * each yields: Codex's own forms (argv `apply_patch <patch>`, a shell's
 * `-c` script that is `apply_patch <<EOF … EOF` or `cd DIR && apply_patch
 * <<EOF …`), and the wider reading hookbox adds because Codex puts an
 * `apply_patch` program on the shell's PATH (any word naming it with a
 * heredoc or a `*** Begin Patch` after it).
 */
import { describe, expect, it } from 'vitest';
import { shellPatch } from '../../host/agents/codex/shell-patch.ts';

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';
const HEREDOC = `apply_patch <<'EOF'\n${PATCH}\nEOF\n`;

describe('argv apply_patch <patch>', () => {
  it('yields the second word verbatim, whatever it holds, under either name and any directory', () => {
    expect(shellPatch(['apply_patch', 'not even a patch'], '')).toStrictEqual({ patch: 'not even a patch' });
    expect(shellPatch(['applypatch', PATCH], '')).toStrictEqual({ patch: PATCH });
    expect(shellPatch(['applypatch', 'x'], '')).toStrictEqual({ patch: 'x' });
    expect(shellPatch(['/usr/local/bin/apply_patch', 'x'], '')).toStrictEqual({ patch: 'x' });
  });

  it('does not take a program whose name only contains apply_patch', () => {
    expect(shellPatch(['my_apply_patch', 'x'], '')).toBeUndefined();
    expect(shellPatch(['apply_patch.sh', 'x'], '')).toBeUndefined();
    expect(shellPatch(['apply_patch'], '')).toBeUndefined();
  });
});

describe("a shell's script", () => {
  it.each([
    [['bash', '-lc', HEREDOC]],
    [['bash', '-c', HEREDOC]],
    [['/bin/zsh', '-lc', HEREDOC]],
    [['zsh', '-c', HEREDOC]],
    [['sh', '-c', HEREDOC]],
    [['sh', '-lc', HEREDOC]],
    [['pwsh', '-Command', HEREDOC]],
    [['powershell.exe', '-command', HEREDOC]],
    [['cmd', '/C', HEREDOC]],
    [['pwsh', '-NoProfile', '-Command', HEREDOC]],
  ])('%j yields the heredoc body', (argv) => {
    expect(shellPatch(argv, 'ignored: the argv is read')).toStrictEqual({ patch: PATCH });
  });

  it('reads the argv, not the quoted command line, when Codex gave an argv', () => {
    const quoted = `bash -lc 'apply_patch <<'\\''EOF'\\''\n${PATCH}\nEOF\n'`;
    expect(shellPatch(['bash', '-lc', HEREDOC], quoted)).toStrictEqual({ patch: PATCH });
  });

  it('reads a [shell, flag, script] by its script alone', () => {
    // The first heredoc in argv order would be the -c word's; the script is the third word.
    expect(shellPatch(['bash', '-c', 'echo no patch here'], '')).toBeUndefined();
  });

  it.each([
    [['bash', HEREDOC, 'x']],
    [['zsh', HEREDOC, 'x']],
    [['sh', HEREDOC, 'x']],
    [['pwsh', HEREDOC, 'x']],
    [['powershell', HEREDOC, 'x']],
    [['cmd', HEREDOC, 'x']],
    [['pwsh', '-NoLogo', HEREDOC, 'x']],
    [['pwsh', '-NoProfile', HEREDOC, 'x']],
    [['pwsh', HEREDOC, '-Command', 'x']],
    [['bash', '-c', 'echo', HEREDOC]],
    [['env', 'apply_patch', PATCH]],
  ])('%j — not a shell script form — is read word by word', (argv) => {
    expect(shellPatch(argv, '')).toStrictEqual({ patch: PATCH });
  });

  it('yields nothing when no word names apply_patch, even with a patch in it', () => {
    expect(shellPatch([], `cat <<'EOF'\n${PATCH}\nEOF\n`)).toBeUndefined();
    expect(shellPatch(['bash', '-lc', `cat <<EOF\n${PATCH}\nEOF`], '')).toBeUndefined();
    expect(shellPatch([], 'echo apply_patches <<EOF\nx\nEOF')).toBeUndefined();
    expect(shellPatch([], 'git apply patch.diff')).toBeUndefined();
  });

  it('yields nothing when apply_patch is named but carries no heredoc or patch text', () => {
    expect(shellPatch([], 'apply_patch < changes.diff')).toBeUndefined();
  });
});

describe('the heredoc after apply_patch', () => {
  it('takes any delimiter, quoted or not, up to its line', () => {
    expect(shellPatch([], `apply_patch <<PATCH\n${PATCH}\nPATCH\necho done\n`)).toStrictEqual({ patch: PATCH });
    expect(shellPatch([], `applypatch << "END"\n${PATCH}\nEND`)).toStrictEqual({ patch: PATCH });
  });

  it('allows any spacing between apply_patch and <<, and words after the delimiter', () => {
    expect(shellPatch([], `apply_patch<<EOF\n${PATCH}\nEOF`)).toStrictEqual({ patch: PATCH });
    expect(shellPatch([], `apply_patch   <<EOF\n${PATCH}\nEOF`)).toStrictEqual({ patch: PATCH });
    expect(shellPatch([], `apply_patch <<'EOF' 2>&1 && echo ok\n${PATCH}\nEOF`)).toStrictEqual({ patch: PATCH });
  });

  it('runs to the end of the text when the delimiter never comes, dropping trailing newlines', () => {
    expect(shellPatch([], `apply_patch <<EOF\n${PATCH}\n\n`)).toStrictEqual({ patch: PATCH });
    expect(shellPatch([], `apply_patch <<EOF\n${PATCH}`)).toStrictEqual({ patch: PATCH });
    expect(shellPatch([], `apply_patch <<EOF\n${PATCH}\n\n\nEOF`)).toStrictEqual({ patch: PATCH });
  });

  it('ends at a CRLF delimiter line, keeping the carriage returns of the body', () => {
    expect(shellPatch([], "apply_patch <<'EOF'\r\n*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\nEOF\r\n")).toStrictEqual({
      patch: '*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r',
    });
  });

  it('<<- strips leading tabs from each line and from the delimiter line', () => {
    const text = 'apply_patch <<-EOF\n\t*** Begin Patch\n\t\t*** Add File: t.txt\n+a\tb\n\t*** End Patch\n\t\tEOF\nafter\n';
    expect(shellPatch([], text)).toStrictEqual({ patch: '*** Begin Patch\n*** Add File: t.txt\n+a\tb\n*** End Patch' });
  });

  it('<<- ends only at a line that is the delimiter once leading tabs are gone', () => {
    const text = 'apply_patch <<-EOF\n*** Begin Patch\nEOF\t\n*** End Patch\nEOF\n';
    expect(shellPatch([], text)).toStrictEqual({ patch: '*** Begin Patch\nEOF\t\n*** End Patch' });
  });

  it('plain << keeps tabs, and a tab-indented delimiter does not end it', () => {
    const text = 'apply_patch <<EOF\n*** Begin Patch\n*** Add File: t.txt\n+\tx\n\tEOF\n*** End Patch\nEOF\n';
    expect(shellPatch([], text)).toStrictEqual({ patch: '*** Begin Patch\n*** Add File: t.txt\n+\tx\n\tEOF\n*** End Patch' });
  });
});

describe('a *** Begin Patch without a heredoc', () => {
  it('is read from its line (however indented) to the end of the text', () => {
    expect(shellPatch([], `apply_patch "\n${PATCH}\n"`)).toStrictEqual({ patch: `${PATCH}\n"` });
    expect(shellPatch([], `apply_patch '\n   ${PATCH}'`)).toStrictEqual({ patch: `   ${PATCH}'` });
    expect(shellPatch([], `apply_patch "\n\t${PATCH}"`)).toStrictEqual({ patch: `\t${PATCH}"` });
  });

  it('is not found in the middle of a line', () => {
    expect(shellPatch([], `apply_patch "x ${PATCH}"`)).toBeUndefined();
  });
});

describe('cd DIR && apply_patch', () => {
  it.each([
    ['cd src && apply_patch', 'src'],
    ['  cd src && apply_patch', 'src'],
    ['cd  src && apply_patch', 'src'],
    ['cd src&&apply_patch', 'src'],
    ['cd src &&  applypatch', 'src'],
    ['cd pkg/app && apply_patch', 'pkg/app'],
    ['cd "my dir" && apply_patch', 'my dir'],
    ["cd 'my dir' && apply_patch", 'my dir'],
    ["cd '' && apply_patch", ''],
  ])('%s → the patch and its workdir %j', (prefix, workdir) => {
    expect(shellPatch([], `${prefix} <<'EOF'\n${PATCH}\nEOF\n`)).toStrictEqual({ patch: PATCH, workdir });
  });

  it.each([
    ['echo hi; cd src && apply_patch', 'src'],
    ['cd src; apply_patch', 'src'],
    ['cd src\napply_patch', 'src'],
    ['cd a && cd ../b && apply_patch', 'b'],
    ['cd a; cd b; apply_patch', 'a/b'],
    ['cd /abs; cd rel && apply_patch', '/abs/rel'],
    ['cd a; cd /abs && apply_patch', '/abs'],
    ['cd -P "my dir" && apply_patch', 'my dir'],
    ['cd -- src && apply_patch', 'src'],
    ["cd a; cd '' && apply_patch", 'a'],
  ])('follows every cd before it: %j → workdir %j', (prefix, workdir) => {
    expect(shellPatch([], `${prefix} <<'EOF'\n${PATCH}\nEOF\n`)).toStrictEqual({ patch: PATCH, workdir });
  });

  it.each([
    ['echo "a; cd b" && apply_patch'],
    ["echo 'cd b' && apply_patch"],
    ['echo cd && apply_patch'],
    ['mkdir -p src && apply_patch'],
    ['cdk deploy && apply_patch'],
    ['abcd src; apply_patch'],
    // An escaped or quoted separator does not end the command: no cd runs in a pipeline here.
    ['echo a \\| cd src; apply_patch'],
    ['echo "a\\" | cd b"; apply_patch'],
  ])('has no workdir when no command changes directory: %j', (prefix) => {
    expect(shellPatch([], `${prefix} <<'EOF'\n${PATCH}\nEOF\n`)).toStrictEqual({ patch: PATCH });
  });

  it.each([
    ['cd "$DIR" && apply_patch'],
    ['cd $DIR && apply_patch'],
    ['cd `pwd`/src && apply_patch'],
    ['cd ~ && apply_patch'],
    ['cd ~/src && apply_patch'],
    ['cd src* && apply_patch'],
    ['cd; apply_patch'],
    ['cd - && apply_patch'],
    ['cd a b && apply_patch'],
    ['pushd src && apply_patch'],
    ['popd; apply_patch'],
    ['chdir src; apply_patch'],
    ['(cd src && apply_patch'],
    ['{ cd src; apply_patch'],
    ['cd src || exit 1; apply_patch'],
    ['false || cd src; apply_patch'],
    ['cd src | cat; apply_patch'],
    ['cd src & apply_patch'],
    ['cd src; cd "$X"; apply_patch'],
    ['cat <<X\ncd y\nX\napply_patch'],
    // Words the shell would join or expand: quotes with text beside them, an escape.
    ["cd x'a' && apply_patch"],
    ["cd 'a'x && apply_patch"],
    ['cd x"a" && apply_patch'],
    ['cd "a"x && apply_patch'],
    ['cd my\\ dir && apply_patch'],
  ])('knows it cannot tell where it stands: %j → workdirUnknown', (prefix) => {
    expect(shellPatch([], `${prefix} <<'EOF'\n${PATCH}\nEOF\n`)).toStrictEqual({ patch: PATCH, workdirUnknown: true });
  });
});
