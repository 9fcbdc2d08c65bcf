import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCommandPrograms, onPath } from '../../host/bridges/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

// Real files with real modes, and a PATH made of folders in the workspace only:
// nothing of the machine's own PATH reaches these checks.
let workspace: TestWorkspace;
let bin: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-program-check-');
  bin = join(workspace.dir, 'bin');
  mkdirSync(bin);
  env = { PATH: bin, HOME: join(workspace.dir, 'home') };
});
afterEach(() => workspace.dispose());

/** Writes `rel` (under the workspace) with `mode`; returns its absolute path. */
function put(rel: string, content: string, mode: number): string {
  const file = join(workspace.dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

const check = (command: string, extra: NodeJS.ProcessEnv = {}) => checkCommandPrograms(command, { cwd: workspace.dir, env: { ...env, ...extra } });

describe('a bare name is looked up on PATH', () => {
  it('found when an executable file of that name is in a PATH folder', () => {
    put('bin/uv', '#!/bin/sh\n', 0o755);
    expect(check('uv run hook.py')).toStrictEqual({ missing: [] });
  });

  it('missing when no PATH folder holds it', () => {
    expect(check('uv run hook.py')).toStrictEqual({ missing: [{ program: 'uv', problem: 'not found on PATH' }] });
  });

  it('a file without the executable bit or a folder of that name does not count; a later PATH folder is searched', () => {
    put('bin/uv', '#!/bin/sh\n', 0o644);
    mkdirSync(join(workspace.dir, 'dirs', 'uv'), { recursive: true });
    const path = `${bin}:${join(workspace.dir, 'dirs')}`;
    expect(check('uv', { PATH: path })).toStrictEqual({ missing: [{ program: 'uv', problem: 'not found on PATH' }] });
    const later = put('later/uv', '#!/bin/sh\n', 0o755);
    expect(check('uv', { PATH: `${path}:${join(workspace.dir, 'later')}` })).toStrictEqual({ missing: [] });
    expect(onPath('uv', { PATH: `${path}:${join(workspace.dir, 'later')}` })).toBe(later);
  });

  it('onPath: the first PATH folder that holds it wins; an empty or unset PATH finds nothing, and an empty entry is skipped', () => {
    const first = put('bin/tool', '', 0o755);
    put('more/tool', '', 0o755);
    expect(onPath('tool', { PATH: `${bin}:${join(workspace.dir, 'more')}` })).toBe(first);
    expect(onPath('tool', { PATH: `:${join(workspace.dir, 'more')}` })).toBe(join(workspace.dir, 'more', 'tool'));
    expect(onPath('tool', {})).toBeUndefined();
    // An empty entry is not joined to the name: an absolute "name" is not found through it.
    expect(onPath(first, { PATH: '' })).toBeUndefined();
    expect(check('tool', { PATH: undefined })).toStrictEqual({ missing: [{ program: 'tool', problem: 'not found on PATH' }] });
  });
});

describe('a path must exist and be executable', () => {
  it('relative paths resolve against the cwd given, not the process cwd', () => {
    put('hooks/guard.sh', '#!/bin/sh\nexit 0\n', 0o755);
    expect(check('./hooks/guard.sh --strict')).toStrictEqual({ missing: [] });
    expect(check('hooks/guard.sh')).toStrictEqual({ missing: [] });
    expect(checkCommandPrograms('./hooks/guard.sh', { cwd: bin, env })).toStrictEqual({ missing: [{ program: './hooks/guard.sh', problem: 'no such file' }] });
  });

  it('a missing file, a folder, and a file without the executable bit are each named with what to do', () => {
    mkdirSync(join(workspace.dir, 'hooks', 'folder.sh'), { recursive: true });
    put('hooks/plain.sh', '#!/bin/sh\n', 0o644);
    expect(check('./hooks/gone.sh')).toStrictEqual({ missing: [{ program: './hooks/gone.sh', problem: 'no such file' }] });
    expect(check('./hooks/folder.sh')).toStrictEqual({ missing: [{ program: './hooks/folder.sh', problem: 'no such file' }] });
    expect(check('./hooks/plain.sh')).toStrictEqual({
      missing: [{ program: './hooks/plain.sh', problem: 'not executable (chmod +x it, or name its interpreter in the command)' }],
    });
  });

  it('a missing program is the only problem reported (its script argument is not checked on top)', () => {
    expect(check('./bin/python3 hooks/gone.py')).toStrictEqual({ missing: [{ program: './bin/python3', problem: 'no such file' }] });
  });
});

describe('the #! interpreter of a script', () => {
  it('an absolute interpreter must exist; a script without #! (a binary) is not read further', () => {
    const broken = put('hooks/broken.sh', '#!/opt/nowhere/bash -e\necho hi\n', 0o755);
    put('hooks/fine.sh', '#!/bin/sh\necho hi\n', 0o755);
    put('hooks/spaced.sh', '#!   /bin/sh   -e  \necho hi\n', 0o755);
    put('hooks/binary', '\u007fELF#!/opt/nowhere\n', 0o755);
    put('hooks/empty.sh', '#!\necho hi\n', 0o755);
    expect(check('./hooks/broken.sh')).toStrictEqual({ missing: [{ program: '/opt/nowhere/bash', problem: `no such file (the #! interpreter of ${broken})` }] });
    expect(check('./hooks/fine.sh')).toStrictEqual({ missing: [] });
    expect(check('./hooks/spaced.sh')).toStrictEqual({ missing: [] });
    expect(check('./hooks/binary')).toStrictEqual({ missing: [] });
    expect(check('./hooks/empty.sh')).toStrictEqual({ missing: [] });
  });

  it('#!/usr/bin/env uv run: the program env starts must be on the hook PATH (options and VAR=value skipped)', () => {
    const script = put('hooks/x.py', '#!/usr/bin/env uv run\nprint(1)\n', 0o755);
    const split = put('hooks/y.py', '#!/usr/bin/env -S PYTHONUTF8=1 uv run --script\nprint(1)\n', 0o755);
    put('hooks/bare-env', '#!/usr/bin/env\n', 0o755);
    expect(check('./hooks/x.py')).toStrictEqual({ missing: [{ program: 'uv', problem: `not found on PATH (the #! interpreter of ${script})` }] });
    expect(check('./hooks/y.py')).toStrictEqual({ missing: [{ program: 'uv', problem: `not found on PATH (the #! interpreter of ${split})` }] });
    expect(check('./hooks/bare-env')).toStrictEqual({ missing: [] });
    put('bin/uv', '', 0o755);
    expect(check('./hooks/x.py')).toStrictEqual({ missing: [] });
    expect(check('./hooks/y.py')).toStrictEqual({ missing: [] });
  });

  it('only the first line, within the first 256 bytes, is the #! line', () => {
    const long = put('hooks/long.sh', `#!/opt/${'d'.repeat(300)}/sh\n`, 0o755);
    expect(check('./hooks/long.sh')).toStrictEqual({ missing: [{ program: `/opt/${'d'.repeat(249)}`, problem: `no such file (the #! interpreter of ${long})` }] });
  });

  it('a program found on PATH is not read for a #! line, nor is a file of that name in the cwd', () => {
    put('bin/tool', '#!/opt/nowhere/sh\n', 0o755);
    put('tool', '#!/opt/nowhere/sh\n', 0o755);
    expect(check('tool')).toStrictEqual({ missing: [] });
  });

  it('an interpreter named by a non-env program keeps its own words (no PATH lookup of its argument)', () => {
    put('hooks/envish.sh', '#!/bin/sh uv\n', 0o755);
    expect(check('./hooks/envish.sh')).toStrictEqual({ missing: [] });
  });
});

describe("an interpreter's script argument", () => {
  beforeEach(() => {
    for (const name of ['python3', 'node', 'bash', 'uv']) put(`bin/${name}`, '', 0o755);
  });

  it('python3 x/hook.py: the script must be a file, relative to the cwd', () => {
    put('hooks/there.py', 'print(1)\n', 0o644);
    mkdirSync(join(workspace.dir, 'hooks', 'pkg'));
    expect(check('python3 hooks/there.py --flag')).toStrictEqual({ missing: [] });
    expect(check('python3 hooks/gone.py')).toStrictEqual({ missing: [{ program: 'hooks/gone.py', problem: 'no such file (the python3 script)' }] });
    expect(check('python3 hooks/pkg')).toStrictEqual({ missing: [{ program: 'hooks/pkg', problem: 'no such file (the python3 script)' }] });
    expect(check(`${bin}/node ./gone.js`)).toStrictEqual({ missing: [{ program: './gone.js', problem: 'no such file (the node script)' }] });
  });

  it('each interpreter hooks are commonly run with has its script checked', () => {
    const interpreters = ['sh', 'bash', 'zsh', 'node', 'python', 'python3', 'ruby', 'perl', 'deno', 'bun', 'tsx', 'npx'];
    for (const name of interpreters) put(`bin/${name}`, '', 0o755);
    for (const name of interpreters) {
      expect(check(`${name} hooks/gone`)).toStrictEqual({ missing: [{ program: 'hooks/gone', problem: `no such file (the ${name} script)` }] });
    }
  });

  it('an option, a bare word or no argument at all is not taken for a script; other programs are not interpreters', () => {
    expect(check('node --import=./gone.js hook')).toStrictEqual({ missing: [] });
    expect(check('python3 gone.py')).toStrictEqual({ missing: [] });
    expect(check('python3')).toStrictEqual({ missing: [] });
    expect(check('uv run/gone.py')).toStrictEqual({ missing: [] });
  });

  it('an interpreter given by path whose own #! is broken reports both', () => {
    const interpreter = put('tools/bash', '#!/opt/nowhere/bash\n', 0o755);
    expect(check('./tools/bash ./gone.sh')).toStrictEqual({
      missing: [
        { program: '/opt/nowhere/bash', problem: `no such file (the #! interpreter of ${interpreter})` },
        { program: './gone.sh', problem: 'no such file (the bash script)' },
      ],
    });
  });
});

describe('reading the first simple command', () => {
  it('VAR=value prefixes are skipped; a quoted assignment or one not named like a variable is the program', () => {
    put('bin/uv', '', 0o755);
    expect(check('FOO=1 _B2="a b" uv run')).toStrictEqual({ missing: [] });
    expect(check('FOO=1 gone')).toStrictEqual({ missing: [{ program: 'gone', problem: 'not found on PATH' }] });
    expect(check('"FOO=1" uv')).toStrictEqual({ missing: [{ program: 'FOO=1', problem: 'not found on PATH' }] });
    expect(check('1X=1 uv')).toStrictEqual({ missing: [{ program: '1X=1', problem: 'not found on PATH' }] });
    expect(check('A-B=1 uv')).toStrictEqual({ missing: [{ program: 'A-B=1', problem: 'not found on PATH' }] });
  });

  it('an assignment after the program is its argument, not a prefix', () => {
    put('bin/python3', '', 0o755);
    expect(check('python3 X=./gone.py')).toStrictEqual({ missing: [{ program: 'X=./gone.py', problem: 'no such file (the python3 script)' }] });
  });

  it('quotes are removed and quoted runs join into one word', () => {
    put('my hooks/guard.sh', '#!/bin/sh\n', 0o755);
    put('hooks/a"b.sh', '#!/bin/sh\n', 0o755);
    expect(check("'./my hooks/guard.sh' arg")).toStrictEqual({ missing: [] });
    expect(check('"./my hooks"/guard.sh')).toStrictEqual({ missing: [] });
    expect(check('./"my "\'hooks\'/guard.sh')).toStrictEqual({ missing: [] });
    expect(check('"./hooks/a\\"b.sh"')).toStrictEqual({ missing: [] });
    expect(check('"./my hooks/gone.sh"')).toStrictEqual({ missing: [{ program: './my hooks/gone.sh', problem: 'no such file' }] });
  });

  it('leading blanks are skipped; only the words before syntax are read', () => {
    put('bin/python3', '', 0o755);
    expect(check('  \tpython3 hooks/gone.py')).toStrictEqual({ missing: [{ program: 'hooks/gone.py', problem: 'no such file (the python3 script)' }] });
    expect(check('python3;./gone.py')).toStrictEqual({ missing: [] });
    expect(check('python3 $(pick)/gone.py')).toStrictEqual({ missing: [] });
    expect(check('python3 "unterminated/gone.py')).toStrictEqual({ missing: [] });
    expect(check('gone|cat')).toStrictEqual({ missing: [{ program: 'gone', problem: 'not found on PATH' }] });
  });

  it('only two words are read: a third with an unset variable does not matter', () => {
    put('bin/python3', '', 0o755);
    put('hooks/x.py', '', 0o644);
    expect(check('python3 hooks/x.py "$NOT_SET"')).toStrictEqual({ missing: [] });
  });

  it('an empty command has no program', () => {
    expect(check('')).toStrictEqual({ missing: [] });
    expect(check('   ')).toStrictEqual({ missing: [] });
  });
});

describe('variables', () => {
  it('$VAR and ${VAR} expand from the env given (CLAUDE_PROJECT_DIR, a plugin root), quoted or not', () => {
    const hook = put('plugin/hooks/x.sh', '#!/bin/sh\n', 0o755);
    const root = join(workspace.dir, 'plugin');
    expect(check('"$CLAUDE_PLUGIN_ROOT"/hooks/x.sh', { CLAUDE_PLUGIN_ROOT: root })).toStrictEqual({ missing: [] });
    expect(check('${CLAUDE_PLUGIN_ROOT}/hooks/x.sh', { CLAUDE_PLUGIN_ROOT: root })).toStrictEqual({ missing: [] });
    expect(check('$D/$F', { D: join(root, 'hooks'), F: 'x.sh' })).toStrictEqual({ missing: [] });
    expect(check('$CLAUDE_PROJECT_DIR/hooks/gone.sh', { CLAUDE_PROJECT_DIR: root })).toStrictEqual({
      missing: [{ program: `${root}/hooks/gone.sh`, problem: 'no such file' }],
    });
    expect(hook).toBe(`${root}/hooks/x.sh`);
  });

  it('a variable that is not set leaves the command unchecked, naming the word as written', () => {
    expect(check('"$NOT_SET"/hooks/x.sh')).toStrictEqual({ missing: [], unchecked: '$NOT_SET/hooks/x.sh uses a variable that is not set' });
    expect(check('${NOT_SET}')).toStrictEqual({ missing: [], unchecked: '${NOT_SET} uses a variable that is not set' });
    put('bin/python3', '', 0o755);
    expect(check('python3 $NOT_SET/x.py', { OTHER: 'x' })).toStrictEqual({ missing: [], unchecked: '$NOT_SET/x.py uses a variable that is not set' });
    // A set but empty variable is set.
    expect(check('python3$EMPTY', { EMPTY: '' })).toStrictEqual({ missing: [] });
  });

  it('$ not followed by a name is kept as it is', () => {
    expect(check('./$1/x.sh')).toStrictEqual({ missing: [{ program: './$1/x.sh', problem: 'no such file' }] });
  });

  it('~/ expands to HOME; without HOME it stays (and resolves as a relative path)', () => {
    put('home/bin/hook', '#!/bin/sh\n', 0o755);
    expect(check('~/bin/hook')).toStrictEqual({ missing: [] });
    expect(check('~/bin/gone')).toStrictEqual({ missing: [{ program: `${workspace.dir}/home/bin/gone`, problem: 'no such file' }] });
    expect(check('~/bin/hook', { HOME: undefined })).toStrictEqual({ missing: [{ program: '~/bin/hook', problem: 'no such file' }] });
    expect(check('x~/bin/hook')).toStrictEqual({ missing: [{ program: 'x~/bin/hook', problem: 'no such file' }] });
  });
});

describe('what is not looked up', () => {
  it('shell builtins and keywords: sh runs them itself', () => {
    const commands = [
      '. ./env.sh', ': noop', '[ -f x ]', '[[ -f x ]]', '! gone', '{ gone; }', 'alias x=y', 'cd sub && ./gone', 'command -v gone', 'echo hi',
      'eval gone', 'exec gone', 'exit 0', 'export A=1', 'false', 'printf x', 'pwd', 'read x', 'return', 'set -e', 'shift', 'source ./env.sh',
      'test -f x', 'trap x EXIT', 'true', 'type gone', 'ulimit -n', 'umask 022', 'unset A', 'wait', 'if true; then gone; fi',
      'case x in *) gone;; esac', 'for x in y; do gone; done', 'while false; do gone; done', 'until true; do gone; done', 'function f { gone; }',
      'time gone',
    ];
    for (const command of commands) expect({ command, check: check(command) }).toStrictEqual({ command, check: { missing: [] } });
  });

  it('a command that opens with syntax is noted as not checked', () => {
    const unchecked = { missing: [], unchecked: 'starts with shell syntax hookbox does not read' };
    for (const command of ['(cd hooks && ./gone.sh)', '$(which uv) run', '`which uv` run', '; gone', '&& gone', '| gone', '< in gone', '> out gone', '"unterminated']) {
      expect({ command, check: check(command) }).toStrictEqual({ command, check: unchecked });
    }
  });
});
