import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CompiledRule, commandParts, compileRule } from '../../host/bridges/permission-rules.ts';
import type { PermissionBehaviour } from '../../host/bridges/permission-schema.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
/** The workspace as its real path: a symlink rule must not depend on where the temp dir lives. */
let dir: string;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-permission-rules-');
  dir = realpathSync(workspace.dir);
});
afterEach(() => workspace.dispose());

/** `rule` compiled as the first rule of its list; a rule that cannot be enforced fails the test with its reason. */
function compiled(behaviour: PermissionBehaviour, rule: string, root = dir): CompiledRule {
  const result = compileRule(behaviour, rule, `permissions.${behaviour}[0]`, root);
  if ('why' in result) throw new Error(`${rule} was refused: ${result.why}`);
  return result;
}

/** Does `rule` (a deny unless said) match the bash command `command`? */
const bash = (rule: string, command: string, behaviour: PermissionBehaviour = 'deny'): boolean =>
  compiled(behaviour, rule).matches('bash', { command }, dir);

/** Does `rule` match `tool` touching `file` from the workspace (or `cwd`)? */
const touches = (rule: string, tool: string, file: string, cwd = dir): boolean =>
  compiled('deny', rule).matches(tool, { path: file }, cwd);

function write(relative: string, content = 'x'): string {
  const file = join(dir, relative);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  return file;
}

describe('compileRule: what it refuses', () => {
  it('refuses text that is not "Tool" or "Tool(specifier)", and a specifier for a tool hookbox does not have', () => {
    expect(compileRule('deny', 'Bash(rm', 'permissions.deny[0]', '/p')).toStrictEqual({ why: 'not a permission rule ("Tool" or "Tool(specifier)")' });
    expect(compileRule('deny', '9tool', 'permissions.deny[0]', '/p')).toStrictEqual({ why: 'not a permission rule ("Tool" or "Tool(specifier)")' });
    expect(compileRule('deny', 'Bash x', 'permissions.deny[0]', '/p')).toStrictEqual({ why: 'not a permission rule ("Tool" or "Tool(specifier)")' });
    expect(compileRule('ask', 'WebFetch(domain:example.com)', 'permissions.ask[2]', '/p')).toStrictEqual({
      why: 'hookbox has no WebFetch tool to apply "domain:example.com" to',
    });
    expect(compileRule('deny', 'mcp__db__query(drop *)', 'permissions.deny[0]', '/p')).toStrictEqual({
      why: 'hookbox has no mcp__db__query tool to apply "drop *" to',
    });
  });

  it('keeps the rule as written and where it sits; surrounding blanks are ignored', () => {
    const rule = compileRule('ask', '  Bash(npm test)  ', 'permissions.ask[3]', '/p');
    expect(rule).toStrictEqual({ behaviour: 'ask', rule: '  Bash(npm test)  ', at: 'permissions.ask[3]', matches: expect.any(Function) });
    expect((rule as CompiledRule).matches('bash', { command: 'npm test' }, '/p')).toBe(true);
  });
});

describe('compileRule: bare tool names', () => {
  it('a bare rule (or "()" / "(*)") covers every call of the hookbox tools it names, whatever the arguments', () => {
    const calls: Array<[tool: string, args: Record<string, unknown>]> = [
      ['bash', { command: 'rm -rf /' }],
      ['bash', {}],
      ['read_file', { path: 'a' }],
      ['list_dir', { path: '.' }],
      ['write_file', { path: 'a', content: '' }],
      ['mcp__db__drop', {}],
    ];
    const covered = (rule: string): string[] =>
      calls.filter(([tool, args]) => compiled('deny', rule).matches(tool, args, dir)).map(([tool]) => tool);
    expect(covered('Bash')).toStrictEqual(['bash', 'bash']);
    expect(covered('Bash()')).toStrictEqual(['bash', 'bash']);
    expect(covered('Bash(*)')).toStrictEqual(['bash', 'bash']);
    expect(covered('Read')).toStrictEqual(['read_file', 'list_dir']);
    expect(covered('LS')).toStrictEqual(['list_dir']);
    expect(covered('Edit')).toStrictEqual(['write_file']);
    expect(covered('Write')).toStrictEqual(['write_file']);
    expect(covered('MultiEdit')).toStrictEqual(['write_file']);
    // A name hookbox has no tool for matches a tool of exactly that name (an MCP tool, say).
    expect(covered('mcp__db__drop')).toStrictEqual(['mcp__db__drop']);
    expect(covered('mcp__db.drop-v2')).toStrictEqual([]);
  });
});

describe('compileRule: Bash specifiers', () => {
  it('a specifier without "*" is the exact command', () => {
    expect(bash('Bash(npm test)', 'npm test')).toBe(true);
    expect(bash('Bash(npm test)', '  npm test  ')).toBe(true);
    expect(bash('Bash(npm test)', 'npm test --watch')).toBe(false);
    expect(bash('Bash(npm test)', 'npm  test')).toBe(false);
    expect(bash('Bash(npm test)', 'xnpm test')).toBe(false);
  });

  it('"word:*" and "word *" are the word, then anything (or nothing); never a longer word', () => {
    for (const rule of ['Bash(rm:*)', 'Bash(rm *)']) {
      expect([rule, bash(rule, 'rm')]).toStrictEqual([rule, true]);
      expect([rule, bash(rule, 'rm -rf build')]).toStrictEqual([rule, true]);
      expect([rule, bash(rule, 'rmdir build')]).toStrictEqual([rule, false]);
      expect([rule, bash(rule, 'echo rm x')]).toStrictEqual([rule, false]);
    }
    expect(bash('Bash(npm run:*)', 'npm run build')).toBe(true);
    expect(bash('Bash(npm run:*)', 'npm test')).toBe(false);
  });

  it('"*" elsewhere is any text, the whole command anchored', () => {
    expect(bash('Bash(git * main)', 'git push origin main')).toBe(true);
    expect(bash('Bash(git * main)', 'git push origin main2')).toBe(false);
    expect(bash('Bash(git * main)', 'xgit push main')).toBe(false);
    expect(bash('Bash(git * main *)', 'git push origin main --force')).toBe(true);
    expect(bash('Bash(git * main *)', 'git push origin main')).toBe(true);
    expect(bash('Bash(git * main *)', 'git push origin dev')).toBe(false);
    // No space before the star: any continuation of the word.
    expect(bash('Bash(ls*)', 'lsof -i')).toBe(true);
    expect(bash('Bash(ls *)', 'lsof -i')).toBe(false);
  });

  it('regex characters in a specifier are literal', () => {
    expect(bash('Bash(cat a.b+c?[d]{e}^$\\x *)', 'cat a.b+c?[d]{e}^$\\x now')).toBe(true);
    expect(bash('Bash(cat a.b+c?[d]{e}^$\\x *)', 'cat aXb+c?[d]{e}^$\\x now')).toBe(false);
    expect(bash('Bash(grep a.c *)', 'grep abc file')).toBe(false);
  });

  it('"*" spans a carriage return inside a command (CRLF pasted into a command line)', () => {
    expect(bash('Bash(rm *)', 'rm -rf a\rb')).toBe(true);
    expect(bash('Bash(echo x*)', 'echo x\ry')).toBe(true);
  });

  it('a specifier may span lines', () => {
    expect(bash('Bash(cat <<EOF\nsecret\nEOF)', 'cat <<EOF')).toBe(false);
    expect(compileRule('deny', 'Bash(a\nb)', 'permissions.deny[0]', '/p')).toStrictEqual({
      behaviour: 'deny',
      rule: 'Bash(a\nb)',
      at: 'permissions.deny[0]',
      matches: expect.any(Function),
    });
  });

  it('a deny or ask matches when any part of a compound command does; an allow only when every part does', () => {
    const compound = 'npm test && rm -rf /';
    expect(bash('Bash(rm:*)', compound, 'deny')).toBe(true);
    expect(bash('Bash(rm:*)', compound, 'ask')).toBe(true);
    expect(bash('Bash(npm test)', compound, 'allow')).toBe(false);
    expect(bash('Bash(npm test)', 'npm test; npm test', 'allow')).toBe(true);
    expect(bash('Bash(npm test)', 'npm test', 'allow')).toBe(true);
    expect(bash('Bash(npm *)', 'npm ci && npm test | npm x', 'allow')).toBe(true);
    expect(bash('Bash(npm *)', 'npm ci && npm test | tee out', 'allow')).toBe(false);
    // A command with no parts at all is not allowed by a specifier.
    expect(bash('Bash(npm test)', '', 'allow')).toBe(false);
    expect(bash('Bash(npm *)', ' ; && ', 'allow')).toBe(false);
    expect(bash('Bash(rm:*)', '', 'deny')).toBe(false);
  });

  it('a Bash specifier applies to the bash tool with a string command only', () => {
    const rule = compiled('deny', 'Bash(ls)');
    expect(rule.matches('bash', { command: 'ls' }, dir)).toBe(true);
    expect(rule.matches('read_file', { command: 'ls' }, dir)).toBe(false);
    expect(rule.matches('bash', { command: ['ls'] }, dir)).toBe(false);
    expect(rule.matches('bash', {}, dir)).toBe(false);
  });
});

describe('commandParts', () => {
  it('splits at &&, ||, ;, |, &, newlines, $(, backticks and parentheses', () => {
    expect(commandParts('a && b || c; d | e & f\ng `h` $(i) (j)')).toStrictEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect(commandParts('echo $(rm -rf /)')).toStrictEqual(['echo', 'rm -rf /']);
    // The split is textual: a quoted separator splits too.
    expect(commandParts("echo 'a;b'")).toStrictEqual(["echo 'a", "b'"]);
  });

  it('drops VAR=value prefixes, not assignments later in the command', () => {
    expect(commandParts('FOO=1 BAR_2=x npm test')).toStrictEqual(['npm test']);
    expect(commandParts('_A= CI=true  make')).toStrictEqual(['make']);
    expect(commandParts('A=1  B=2\tmake')).toStrictEqual(['make']);
    expect(commandParts('cd x && NODE_ENV=prod node app.js')).toStrictEqual(['cd x', 'node app.js']);
    expect(commandParts('echo X=1 y')).toStrictEqual(['echo X=1 y']);
    expect(commandParts('1X=2 ls')).toStrictEqual(['1X=2 ls']);
    // A lone assignment is kept (there is no command after it).
    expect(commandParts('FOO=1')).toStrictEqual(['FOO=1']);
  });

  it('trims parts and drops empty ones', () => {
    expect(commandParts('  ls  ;;  ')).toStrictEqual(['ls']);
    expect(commandParts('')).toStrictEqual([]);
    expect(commandParts('\n\n')).toStrictEqual([]);
  });

  it('a prefixed or chained command is still matched by its own rule', () => {
    expect(bash('Bash(rm:*)', 'DEBUG=1 rm -rf build')).toBe(true);
    expect(bash('Bash(rm:*)', 'echo `rm -rf build`')).toBe(true);
    expect(bash('Bash(npm test)', 'CI=1 npm test', 'allow')).toBe(true);
  });
});

describe('compileRule: path rules', () => {
  it('Read covers read_file and list_dir, LS list_dir only, Edit / Write / MultiEdit write_file; a non-string path never matches', () => {
    write('secrets/key.txt');
    const tools = ['read_file', 'list_dir', 'write_file', 'bash'];
    const covered = (rule: string): string[] => tools.filter((tool) => touches(rule, tool, 'secrets/key.txt'));
    expect(covered('Read(./secrets)')).toStrictEqual(['read_file', 'list_dir']);
    expect(covered('LS(./secrets)')).toStrictEqual(['list_dir']);
    expect(covered('Edit(./secrets)')).toStrictEqual(['write_file']);
    expect(covered('Write(./secrets)')).toStrictEqual(['write_file']);
    expect(covered('MultiEdit(./secrets)')).toStrictEqual(['write_file']);
    expect(compiled('deny', 'Read(./secrets)').matches('read_file', { path: 7 }, dir)).toBe(false);
    expect(compiled('deny', 'Read(./secrets)').matches('read_file', {}, dir)).toBe(false);
  });

  it('"./p" and "a/b" are under the session cwd, whatever cwd each call has', () => {
    const rule = compiled('deny', 'Read(./config/app.json)');
    const other = join(dir, 'other');
    expect(rule.matches('read_file', { path: 'config/app.json' }, dir)).toBe(true);
    expect(rule.matches('read_file', { path: 'config/app.json' }, other)).toBe(true);
    expect(rule.matches('read_file', { path: join(other, 'config/app.json') }, dir)).toBe(false);
    expect(rule.matches('read_file', { path: join(dir, 'config/app.json') }, other)).toBe(false);
    expect(rule.matches('read_file', { path: join(dir, 'config/app.json') }, dir)).toBe(true);
    expect(touches('Read(config/app.json)', 'read_file', 'config/app.json')).toBe(true);
    expect(touches('Read(config/app.json)', 'read_file', 'sub/config/app.json')).toBe(false);
    expect(touches('Read(config/*.json)', 'read_file', 'config/db.json')).toBe(true);
    expect(touches('Read(config/*.json)', 'read_file', 'config/db.yaml')).toBe(false);
  });

  it('"." and ".." are the cwd and its parent, with or without a slash, not names at any depth', () => {
    const cwd = join(dir, 'app');
    for (const rule of ['Edit(.)', 'Edit(./)']) {
      expect([rule, touches(rule, 'write_file', 'src/index.ts', cwd)]).toStrictEqual([rule, true]);
      expect([rule, touches(rule, 'write_file', '../lib/x.ts', cwd)]).toStrictEqual([rule, false]);
    }
    for (const rule of ['Edit(..)', 'Edit(../)']) {
      expect([rule, touches(rule, 'write_file', '../lib/x.ts', cwd)]).toStrictEqual([rule, true]);
      expect([rule, touches(rule, 'write_file', 'src/index.ts', cwd)]).toStrictEqual([rule, true]);
      expect([rule, touches(rule, 'write_file', '../../elsewhere/x.ts', cwd)]).toStrictEqual([rule, false]);
    }
    // A name that merely starts with dots is still a name at any depth.
    expect(touches('Read(...)', 'read_file', 'a/...', cwd)).toBe(true);
  });

  it('a path is normalised against the cwd before it is matched ("..", ".", absolute)', () => {
    expect(touches('Read(./secrets)', 'read_file', 'src/../secrets/key.txt')).toBe(true);
    expect(touches('Read(./secrets)', 'read_file', './secrets/./key.txt')).toBe(true);
    expect(touches('Read(./secrets)', 'read_file', join(dir, 'secrets', 'key.txt'))).toBe(true);
    expect(touches('Read(./secrets)', 'read_file', 'secrets/../public/key.txt')).toBe(false);
  });

  it('a pattern covers everything under a directory it names, with or without a trailing slash', () => {
    for (const rule of ['Edit(./build)', 'Edit(./build/)', 'Edit(./build//)']) {
      expect([rule, touches(rule, 'write_file', 'build')]).toStrictEqual([rule, true]);
      expect([rule, touches(rule, 'write_file', 'build/a/b/out.js')]).toStrictEqual([rule, true]);
      expect([rule, touches(rule, 'write_file', 'build/.cache/x')]).toStrictEqual([rule, true]);
      expect([rule, touches(rule, 'write_file', 'buildx/out.js')]).toStrictEqual([rule, false]);
    }
  });

  it('a pattern without a slash (a trailing one aside) is a file or folder name at any depth, dot-folders included', () => {
    expect(touches('Read(.env*)', 'read_file', '.env')).toBe(true);
    expect(touches('Read(.env*)', 'read_file', 'app/.env.local')).toBe(true);
    expect(touches('Read(.env*)', 'read_file', 'app/env.local')).toBe(false);
    expect(touches('Read(id_rsa)', 'read_file', '.ssh/keys/id_rsa')).toBe(true);
    expect(touches('Read(*.pem)', 'read_file', '.certs/.server.pem')).toBe(true);
    expect(touches('Edit(dist/)', 'write_file', 'packages/a/dist/index.js')).toBe(true);
    expect(touches('Edit(dist/)', 'write_file', 'packages/a/distx/index.js')).toBe(false);
    // Anywhere means anywhere: the name matches outside the cwd too.
    expect(touches('Read(id_rsa)', 'read_file', '/elsewhere/id_rsa')).toBe(true);
  });

  it('"/p" is under the project root, not the cwd', () => {
    const root = join(dir, 'project');
    const rule = compiled('deny', 'Read(/secrets/**)', root);
    expect(rule.matches('read_file', { path: 'secrets/a.txt' }, root)).toBe(true);
    expect(rule.matches('read_file', { path: '../secrets/a.txt' }, join(root, 'src'))).toBe(true);
    expect(rule.matches('read_file', { path: 'secrets/a.txt' }, dir)).toBe(false);
    expect(rule.matches('read_file', { path: '/secrets/a.txt' }, root)).toBe(false);
  });

  it('"//p" is an absolute path', () => {
    const rule = compiled('deny', `Read(/${dir}/vault)`, join(dir, 'project'));
    expect(rule.matches('read_file', { path: join(dir, 'vault', 'k') }, '/')).toBe(true);
    expect(rule.matches('read_file', { path: 'vault/k' }, dir)).toBe(true);
    expect(rule.matches('read_file', { path: 'vault/k' }, join(dir, 'sub'))).toBe(false);
    // Extra trailing slashes still name the folder.
    const slashed = compiled('deny', `Read(/${dir}/vault//)`, join(dir, 'project'));
    expect(slashed.matches('read_file', { path: join(dir, 'vault', 'k') }, '/')).toBe(true);
    expect(slashed.matches('read_file', { path: join(dir, 'vault') }, '/')).toBe(true);
  });

  it('"~/p" is under the home directory', () => {
    const home = process.env.HOME ?? '/';
    const rule = compiled('deny', 'Read(~/.ssh)');
    expect(rule.matches('read_file', { path: join(home, '.ssh', 'id_ed25519') }, dir)).toBe(true);
    expect(rule.matches('read_file', { path: '~/.ssh/id_ed25519' }, dir)).toBe(false);
    expect(rule.matches('read_file', { path: '.ssh/id_ed25519' }, dir)).toBe(false);
  });

  it('a path that exists is also matched through symlinks; one that does not is matched as written only', () => {
    write('secrets/key.txt');
    mkdirSync(join(dir, 'pub'));
    symlinkSync(join(dir, 'secrets'), join(dir, 'pub', 'alias'));
    symlinkSync(join(dir, 'secrets', 'key.txt'), join(dir, 'innocent.txt'));
    expect(touches('Read(./secrets)', 'read_file', 'pub/alias/key.txt')).toBe(true);
    expect(touches('Read(./secrets)', 'read_file', 'innocent.txt')).toBe(true);
    expect(touches('Read(./secrets)', 'list_dir', 'pub/alias')).toBe(true);
    expect(touches('Read(key.txt)', 'read_file', 'innocent.txt')).toBe(true);
    // Not there (yet): no real path to follow.
    expect(touches('Edit(./secrets)', 'write_file', 'pub/alias/new.txt')).toBe(false);
    // A real file outside the pattern stays unmatched.
    write('pub/readme.md');
    expect(touches('Read(./secrets)', 'read_file', 'pub/readme.md')).toBe(false);
  });

  it('a symlink the rule names is matched as written, wherever it points', () => {
    write('real/notes.txt');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(touches('Read(./link)', 'read_file', 'link/notes.txt')).toBe(true);
    expect(touches('Read(./link)', 'read_file', 'real/notes.txt')).toBe(false);
  });
});
