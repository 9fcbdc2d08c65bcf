import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeContext, importClaudeSettingsFile, importCodexHooksFile } from '../../host/bridges/index.ts';
import { TomlError } from 'smol-toml';
import { ConfigError } from '../../host/errors.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
let cwd: string;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-import-files-');
  cwd = join(workspace.dir, 'cwd');
  mkdirSync(cwd);
});
afterEach(() => workspace.dispose());

function put(rel: string, content: unknown): string {
  const file = join(workspace.dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** A hook whose program names the project folder, so the import's missing-program report shows which folder it used. */
const probe = { hooks: { Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/probe.sh' }] }] } };
function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const probedProject = (missing: readonly { program: string }[]) => missing.map((gone) => dirname(gone.program));

describe('claudeContext', () => {
  it("a project's .claude/settings*.json belongs to the folder above .claude", () => {
    expect(claudeContext(put('proj/.claude/settings.json', {}), cwd)).toStrictEqual({ projectDir: join(workspace.dir, 'proj') });
    expect(claudeContext(put('proj/.claude/settings.local.json', {}), cwd)).toStrictEqual({ projectDir: join(workspace.dir, 'proj') });
  });

  it("the user's ~/.claude settings and any other file belong to the project hookbox runs in (cwd, made absolute)", () => {
    // The user's own settings are only named, never read or written (HOME cannot be moved for a test: Stryker runs it in a worker thread).
    expect(claudeContext(join(homedir(), '.claude', 'settings.json'), cwd)).toStrictEqual({ projectDir: cwd });
    expect(claudeContext(put('elsewhere/settings.json', {}), cwd)).toStrictEqual({ projectDir: cwd });
    expect(claudeContext(put('elsewhere/settings.json', {}), 'rel')).toStrictEqual({ projectDir: resolve('rel') });
  });

  it('a plugin is the nearest folder above the file holding .claude-plugin/', () => {
    mkdirSync(join(workspace.dir, 'outer', '.claude-plugin'), { recursive: true });
    mkdirSync(join(workspace.dir, 'outer', 'inner', '.claude-plugin'), { recursive: true });
    expect(claudeContext(put('outer/inner/config/deep/hooks.json', {}), cwd)).toStrictEqual({ projectDir: cwd, pluginRoot: join(workspace.dir, 'outer', 'inner') });
    expect(claudeContext(put('outer/hooks/hooks.json', {}), cwd)).toStrictEqual({ projectDir: cwd, pluginRoot: join(workspace.dir, 'outer') });
    expect(claudeContext(put('outer/hooks.json', {}), cwd)).toStrictEqual({ projectDir: cwd, pluginRoot: join(workspace.dir, 'outer') });
  });

  it('else a file in a hooks/ folder belongs to the plugin above that folder', () => {
    expect(claudeContext(put('plug/hooks/hooks.json', {}), cwd)).toStrictEqual({ projectDir: cwd, pluginRoot: join(workspace.dir, 'plug') });
    expect(claudeContext(put('plug/hooks/sub/hooks.json', {}), cwd)).toStrictEqual({ projectDir: cwd });
  });
});

describe('importClaudeSettingsFile', () => {
  it('checks programs from the project the file belongs to, and gives a plugin its CLAUDE_PLUGIN_ROOT', () => {
    const project = importClaudeSettingsFile(put('proj/.claude/settings.json', probe), cwd);
    expect(probedProject(project.missing)).toStrictEqual([join(workspace.dir, 'proj')]);
    const user = importClaudeSettingsFile(put('user/settings.json', probe), cwd);
    expect(probedProject(user.missing)).toStrictEqual([cwd]);
    expect(user.config.hooks[0]?.env).toBeUndefined();
    const plugin = importClaudeSettingsFile(put('plug/hooks/hooks.json', probe), cwd);
    expect(plugin.config.hooks[0]?.env).toStrictEqual({ CLAUDE_PLUGIN_ROOT: join(workspace.dir, 'plug') });
  });

  it('a file it cannot read is a ConfigError naming the file, carrying the system error as its cause', () => {
    const gone = join(workspace.dir, 'gone.json');
    expect(() => importClaudeSettingsFile(gone, cwd)).toThrow(new ConfigError(`${gone}: cannot read: ENOENT: no such file or directory, open '${gone}'`));
    expect(caught(() => importClaudeSettingsFile(gone, cwd))).toMatchObject({ name: 'ConfigError', cause: { code: 'ENOENT', path: gone } });
  });
});

describe('importCodexHooksFile', () => {
  it('hooks.json and config.toml both import as Codex hooks', () => {
    const toml = put('config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "true"\n');
    const json = put('hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    for (const file of [toml, json]) {
      const result = importCodexHooksFile(file, cwd);
      expect(result.protocol).toBe('codex');
      expect(result.config.hooks).toStrictEqual([
        { name: 'codex-stop-1', command: 'true', protocol: 'codex', unsandboxed: true, seams: ['agent/turn-continuation'], timeoutMs: 600_000, failPolicy: 'closed' },
      ]);
    }
  });

  it("a project's .codex/ belongs to the folder above it; other files to the cwd", () => {
    expect(probedProject(importCodexHooksFile(put('proj/.codex/hooks.json', probe), cwd).missing)).toStrictEqual([join(workspace.dir, 'proj')]);
    expect(probedProject(importCodexHooksFile(put('other/hooks.json', probe), cwd).missing)).toStrictEqual([cwd]);
    expect(probedProject(importCodexHooksFile(put('proj/.codex/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "\\"$CLAUDE_PROJECT_DIR\\"/probe.sh"\n'), cwd).missing)).toStrictEqual([
      join(workspace.dir, 'proj'),
    ]);
  });

  it('config.toml: only its [hooks] tables are read; without them there is nothing to import', () => {
    const file = put('config.toml', 'model = "o4-mini"\n[sandbox]\nmode = "read-only"\n');
    const result = importCodexHooksFile(file, cwd);
    expect(result.imported).toStrictEqual([]);
    expect(result.skipped).toStrictEqual([]);
    expect(result.notes).toStrictEqual(['no "hooks" section: nothing to import']);
  });

  it('a TOML error names the file, line and column and the first line of the parser message', () => {
    const file = put('config.toml', 'a = 1\n[[hooks.Stop]\n');
    expect(() => importCodexHooksFile(file, cwd)).toThrow(new ConfigError(`${file}:2:14: invalid TOML: Invalid TOML document: expected end of table array declaration`));
    expect(caught(() => importCodexHooksFile(file, cwd))).toMatchObject({ name: 'ConfigError', cause: expect.any(TomlError) });
  });

  it('a file it cannot read is a ConfigError naming the file; a hooks.json is read as JSON, whatever it holds', () => {
    const gone = join(workspace.dir, 'gone.toml');
    expect(() => importCodexHooksFile(gone, cwd)).toThrow(new ConfigError(`${gone}: cannot read: ENOENT: no such file or directory, open '${gone}'`));
    const json = put('hooks.json', 'model = "x"\n');
    expect(() => importCodexHooksFile(json, cwd)).toThrow(/hooks\.json:1:\d+: invalid JSON/);
  });
});
