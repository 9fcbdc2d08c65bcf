import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileRule } from '../../host/bridges/index.ts';
import { type ImportProject, importProject, toolResults } from '../helpers/import-project.ts';

// settings.json `permissions` become a native rule hook (deny, then ask, then
// allow; fail closed) or are refused loudly; `env` reaches the imported shell hooks.
let project: ImportProject;
beforeEach(() => {
  project = importProject('hookbox-import-perms-');
});
afterEach(() => project.dispose());

function writeSettings(): void {
  project.write('hooks/audit.sh', '#!/bin/sh\ncat > /dev/null\nprintf "%s %s\\n" "$AUDIT_LABEL" "$RETRIES" >> "$CLAUDE_PROJECT_DIR/audit.txt"\n', true);
  project.write('.claude/settings.json', {
    env: { AUDIT_LABEL: 'from-settings', RETRIES: 3 },
    permissions: {
      allow: ['Bash(ls:*)', 'Read'],
      ask: ['Bash(git push:*)'],
      deny: ['Read(.env*)', 'Bash(rm:*)', 'Edit(/config/**)', 'WebFetch(domain:example.com)', 'mcp__db__drop'],
      defaultMode: 'acceptEdits',
    },
    hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: './hooks/audit.sh' }] }] },
  });
}

describe('permissions and env of a Claude Code settings file', { timeout: 180_000 }, () => {
  it('imports enforceable rules as one rule entry, refuses the rest loudly, and carries env to the hooks', () => {
    writeSettings();
    const imported = project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('WARNING: 1 deny/ask rule(s) of');
    expect(imported.stdout).toContain('permissions.deny[3]: deny rule "WebFetch(domain:example.com)" — hookbox has no WebFetch tool to apply "domain:example.com" to');
    expect(imported.stdout).toContain('permissions.defaultMode: "defaultMode" — hookbox has no permission modes');
    const config = JSON.parse(project.read('hookbox.config.json')) as { hooks: Record<string, unknown>[] };
    expect(config.hooks[0]).toEqual({
      name: 'claude-permissions',
      permissions: {
        root: project.dir,
        deny: ['Read(.env*)', 'Bash(rm:*)', 'Edit(/config/**)', 'mcp__db__drop'],
        ask: ['Bash(git push:*)'],
        allow: ['Bash(ls:*)', 'Read'],
      },
    });
    expect(config.hooks[1]).toMatchObject({ name: 'claude-post-tool-use-1', env: { AUDIT_LABEL: 'from-settings', RETRIES: '3' } });
  });

  it('hookbox run denies what the rules deny (in any part of a command, through .. and symlinks), asks, allows', () => {
    writeSettings();
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    project.write('.env.local', 'KEY=1');
    project.write('sub/notes.txt', 'notes');
    project.write('config/app.json', '{}');
    symlinkSync(join(project.dir, '.env.local'), join(project.dir, 'innocent.txt'));
    const calls = [
      { id: 'r1', name: 'read_file', arguments: { path: '.env.local' } },
      { id: 'r2', name: 'read_file', arguments: { path: 'sub/../.env.local' } },
      { id: 'r3', name: 'read_file', arguments: { path: 'innocent.txt' } },
      { id: 'r4', name: 'read_file', arguments: { path: 'sub/notes.txt' } },
      { id: 'b1', name: 'bash', arguments: { command: 'ls && rm -rf sub' } },
      { id: 'b2', name: 'bash', arguments: { command: 'FOO=1 rm x' } },
      { id: 'b3', name: 'bash', arguments: { command: 'git push origin main' } },
      { id: 'b4', name: 'bash', arguments: { command: 'ls sub' } },
      { id: 'b5', name: 'bash', arguments: { command: 'rmdir nothing-here || true' } },
      { id: 'w1', name: 'write_file', arguments: { path: 'config/app.json', content: 'x' } },
      { id: 'w2', name: 'write_file', arguments: { path: 'sub/out.txt', content: 'x' } },
    ];
    const run = project.run([...calls.map((call) => ({ toolCalls: [call] })), { text: 'done' }], ['go']);
    expect(run.status).toBe(0);
    const results = toolResults(project.events());
    const denied = (rule: string) => `error: Tool call denied by a hook: denied by the imported Claude Code rule ${rule}`;
    expect(results.r1).toBe(denied('permissions.deny[0] "Read(.env*)"'));
    expect(results.r2).toBe(denied('permissions.deny[0] "Read(.env*)"'));
    expect(results.r3).toBe(denied('permissions.deny[0] "Read(.env*)"'));
    expect(results.r4).toBe('notes');
    expect(results.b1).toBe(denied('permissions.deny[1] "Bash(rm:*)"'));
    expect(results.b2).toBe(denied('permissions.deny[1] "Bash(rm:*)"'));
    // An ask with no one to answer it (stdin is not a terminal) degrades to deny, naming the rule.
    expect(results.b3).toMatch(/^error: .*needs approval by the imported Claude Code rule permissions\.ask\[0\] "Bash\(git push:\*\)"/);
    expect(results.b4).toBe('notes.txt\nexit code: 0');
    // `rm:*` is the word rm, not every word starting with it.
    expect(results.b5).toContain('exit code: 0');
    expect(results.w1).toBe(denied('permissions.deny[2] "Edit(/config/**)"'));
    expect(results.w2).not.toMatch(/^error/);
    // env from settings.json reached the imported shell hook (one line per post-tool call that ran).
    expect(project.read('audit.txt').split('\n')[0]).toBe('from-settings 3');
  });

  it('an allow covers a command line only when every part is allowed, a deny when any part is; a malformed rule says so', () => {
    const root = '/project';
    const allow = compileRule('allow', 'Bash(ls:*)', 'permissions.allow[0]', root);
    const deny = compileRule('deny', 'Bash(ls:*)', 'permissions.deny[0]', root);
    if ('why' in allow || 'why' in deny) throw new Error('rules should compile');
    // An allow covers a command line only when every part of it is allowed.
    expect(allow.matches('bash', { command: 'ls; rm -rf /' }, root)).toBe(false);
    expect(allow.matches('bash', { command: 'ls -la' }, root)).toBe(true);
    expect(deny.matches('bash', { command: 'echo x | ls' }, root)).toBe(true);
    expect(compileRule('deny', 'Bash(rm', 'x', root)).toEqual({ why: 'not a permission rule ("Tool" or "Tool(specifier)")' });
  });
});
