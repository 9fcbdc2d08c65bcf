/**
 * The command check of hookbox's self-protection (host/guard/shell-touches.ts):
 * a table of shell commands an agent could run, each either refused (with
 * the protected path it names) or let through. The protected set is the real
 * one, built from every agent's setup module for a project and a home.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clineBridge } from '../../host/agents/cline/bridge.ts';
import { openCodeBridge } from '../../host/agents/opencode/bridge.ts';
import { ProtectedSet, changeOf, shellTouch } from '../../host/guard/index.ts';

const PROJECT = '/work/p';
const HOME = '/home/dev';
const set = new ProtectedSet({ project: PROJECT, home: HOME, configFiles: ['/etc/hookbox/config.json', `${HOME}/.config/hookbox/config.json`, `${PROJECT}/hookbox.config.json`] }, PROJECT);
const at = (relative: string): string => path.join(PROJECT, relative);
/** OpenCode's user plugin folder as its setup module places it (`$XDG_CONFIG_HOME` when set). */
const OPENCODE_USER_PLUGINS = openCodeBridge.setup.protectedPaths({ kind: 'user', home: HOME })[0]!.path;
/** Cline's user hooks folder as its setup module places it (`$CLINE_DIR/hooks` when set). */
const CLINE_USER_HOOKS = clineBridge.setup.protectedPaths({ kind: 'user', home: HOME })[0]!.path;

/** Commands that change a protected path, and the path each must name. */
const REFUSED: readonly [string, string][] = [
  [`printf %s '{"disableAllHooks":true}' > .claude/settings.local.json`, at('.claude/settings.local.json')],
  ['echo {} >> .claude/settings.json', at('.claude/settings.json')],
  ['echo x &> .gemini/settings.json', at('.gemini/settings.json')],
  ['cd .claude && echo x > settings.local.json', at('.claude/settings.local.json')],
  ['cd .claude\necho x > settings.local.json', at('.claude/settings.local.json')],
  ['cd src; cd ..; cd .codex; rm hooks.json', at('.codex/hooks.json')],
  ['sed -i s/hookbox/true/ ~/.claude/settings.json', `${HOME}/.claude/settings.json`],
  ['sed -i s/a/b/ "$HOME/.codex/config.toml"', `${HOME}/.codex/config.toml`],
  ['cat README.md | tee .codex/hooks.json', at('.codex/hooks.json')],
  ['cp /tmp/evil.json .github/hooks/x.json', at('.github/hooks')],
  ['mv .github/hooks /tmp/x', at('.github/hooks')],
  ['rm .clinerules/hooks/PreToolUse', at('.clinerules/hooks')],
  ["printf '#!/bin/sh\\necho {}' > .cline/hooks/PreToolUse.sh", at('.cline/hooks')],
  [`cp /tmp/evil ${CLINE_USER_HOOKS}/PostToolUse`, CLINE_USER_HOOKS],
  ['ln -sf /tmp/evil hookbox.config.json', at('hookbox.config.json')],
  ['rm -rf .claude', at('.claude/settings.json')],
  ['rm -rf .hookbox/run', at('.hookbox')],
  ['truncate -s 0 .qwen/settings.json', at('.qwen/settings.json')],
  ['install -m 644 x .factory/settings.json', at('.factory/settings.json')],
  ['dd if=/dev/zero of=.hookbox/run/serve.sock', at('.hookbox')],
  ['echo hi > .c*/settings.local.json', at('.claude/settings.local.json')],
  ['touch .opencode/plugin/evil.js', at('.opencode/plugin')],
  ['cp x.ts .pi/extensions/', at('.pi/extensions')],
  [`cp x.js ${OPENCODE_USER_PLUGINS}/`, OPENCODE_USER_PLUGINS],
  ['echo "{}" > /etc/hookbox/config.json', '/etc/hookbox/config.json'],
  ['python3 -c "open(\'.claude/settings.local.json\',\'w\').write(\'{}\')"', '.claude/settings.local.json'],
  ["bash -c 'cd .gemini; rm settings.json'", at('.gemini/settings.json')],
  ["sudo -u root sh -c 'echo > .claude/settings.json'", at('.claude/settings.json')],
  ['FOO=1 env BAR=2 cp /tmp/x .codex/config.toml', at('.codex/config.toml')],
  ['git checkout .claude/settings.json', at('.claude/settings.json')],
  ['find .github -name "*.json" -delete', at('.github/hooks')],
  ['npx hookbox setup claude-code --remove', 'hookbox setup'],
  ['node node_modules/hookbox/host/cli/hookbox.mjs setup codex --remove', 'hookbox setup'],
  ['echo `rm .claude/settings.json`', at('.claude/settings.json')],
  ['cd "$SOMEWHERE" && rm settings.local.json', at('.claude/settings.local.json')],
];

/** Commands that change nothing protected: self-protection stays out of the way. */
const LET_THROUGH: readonly string[] = [
  'cat .claude/settings.json',
  'ls -la .hookbox .github/hooks',
  'cat .clinerules/hooks/PreToolUse',
  'git diff .claude/settings.json',
  'git log -- .codex/hooks.json',
  'grep -r hookbox .claude',
  'jq . .gemini/settings.json',
  "echo '.claude/settings.json is protected'",
  'echo hello > out.txt',
  'npm test',
  'cp a.txt .',
  'rm -rf node_modules dist',
  'git add .github/workflows/ci.yml',
  "sed -i s/x/y/ .github/workflows/ci.yml",
  'echo x > .claude/commands/deploy.md',
  'curl -fsSL https://example.test/install.sh | sh',
  'find . -name "*.json"',
  'cd .claude && ls',
  'npx hookbox doctor claude-code',
  'ls # > .claude/settings.json',
];

describe('shellTouch: the command check of self-protection', () => {
  it.each(REFUSED)('refuses %j, naming %s', (command, protectedPath) => {
    const touch = shellTouch(command, PROJECT, HOME, set);
    expect(touch, command).toBeDefined();
    expect(touch!.path).toBe(protectedPath);
  });

  it.each(LET_THROUGH)('lets %j through', (command) => {
    expect(shellTouch(command, PROJECT, HOME, set)).toBeUndefined();
  });

  it('follows a cd into a protected folder from a subfolder of the project', () => {
    expect(shellTouch('cd ../.claude && cp /tmp/x settings.json', at('src'), HOME, set)?.path).toBe(at('.claude/settings.json'));
  });
});

describe('changeOf: every tool, by hookbox tool name', () => {
  it('refuses a write or edit tool on a protected file, relative or absolute', () => {
    expect(changeOf('write_file', { path: '.gemini/settings.json' }, PROJECT, HOME, set)?.path).toBe(at('.gemini/settings.json'));
    expect(changeOf('write_file', { path: `${HOME}/.copilot/hooks/a.json` }, PROJECT, HOME, set)?.path).toBe(`${HOME}/.copilot/hooks`);
    expect(changeOf('write_file', { path: '../.hookbox/run/token' }, at('src'), HOME, set)?.path).toBe(at('.hookbox'));
    // Cline's editor reaches hooks as write_file: every file of its hooks folders is guarded.
    expect(changeOf('write_file', { path: '.clinerules/hooks/PostToolUse', content: '#!/bin/sh' }, PROJECT, HOME, set)?.path).toBe(at('.clinerules/hooks'));
    expect(changeOf('write_file', { path: `${HOME}/Documents/Cline/Hooks/PreToolUse` }, PROJECT, HOME, set)?.path).toBe(`${HOME}/Documents/Cline/Hooks`);
  });

  it('lets reads and ordinary writes through', () => {
    expect(changeOf('read_file', { path: '.claude/settings.json' }, PROJECT, HOME, set)).toBeUndefined();
    expect(changeOf('list_dir', { path: '.hookbox' }, PROJECT, HOME, set)).toBeUndefined();
    expect(changeOf('write_file', { path: 'src/index.ts' }, PROJECT, HOME, set)).toBeUndefined();
  });

  it('refuses a tool hookbox does not know that names a protected path, unless its name says it reads', () => {
    expect(changeOf('mcp__fs__write', { target: { file: './.codex/hooks.json' } }, PROJECT, HOME, set)?.path).toBe(at('.codex/hooks.json'));
    expect(changeOf('Grep', { path: '.claude/settings.json', pattern: 'x' }, PROJECT, HOME, set)).toBeUndefined();
    // A reading-looking name that also says it changes something is not taken for a reader.
    expect(changeOf('findAndReplace', { file: '.claude/settings.json', find: 'hookbox', replace: '' }, PROJECT, HOME, set)?.path).toBe(at('.claude/settings.json'));
  });
});

describe('shellTouch: here-documents', () => {
  it('reads a here-document as the input of its program, not as commands (a patch through apply_patch is no glob)', () => {
    expect(shellTouch("apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: prod.env\n+TOKEN=2\n*** End Patch\nPATCH", PROJECT, HOME, set)).toBeUndefined();
    expect(shellTouch('cat <<EOF > notes.md\nsee .claude/settings.json\nEOF', PROJECT, HOME, set)).toBeUndefined();
  });

  it('still refuses a here-document fed to a program that is not read-only and names a protected path, and the commands after it', () => {
    expect(shellTouch("python3 <<'PY'\nopen('.claude/settings.local.json', 'w').write('{}')\nPY", PROJECT, HOME, set)?.path).toBe('.claude/settings.local.json');
    expect(shellTouch('cat <<EOF > x.txt\nhello\nEOF\nrm .codex/hooks.json', PROJECT, HOME, set)?.path).toBe(at('.codex/hooks.json'));
    expect(shellTouch('cat > .gemini/settings.json <<EOF\n{}\nEOF', PROJECT, HOME, set)?.path).toBe(at('.gemini/settings.json'));
  });

  it('a << inside quotes opens no here-document, so the next line is still read as a command', () => {
    expect(shellTouch('echo "a <<EOF"\nrm .codex/hooks.json', PROJECT, HOME, set)?.path).toBe(at('.codex/hooks.json'));
  });

  it('a glob the shell expands does not match a dot folder it does not spell (rm -rf * leaves .hookbox/ to the shell rules)', () => {
    expect(shellTouch('ls *; rm -rf build/*', PROJECT, HOME, set)).toBeUndefined();
  });
});
