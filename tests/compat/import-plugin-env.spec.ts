import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEnvFile } from '../../host/bridges/index.ts';
import { type ImportProject, importProject, toolResults } from '../helpers/import-project.ts';

// a Claude Code plugin's hooks.json runs with CLAUDE_PLUGIN_ROOT and
// CLAUDE_PROJECT_DIR set, and SessionStart hooks export variables through CLAUDE_ENV_FILE.
let project: ImportProject;
beforeEach(() => {
  project = importProject('hookbox-import-plugin-');
});
afterEach(() => project.dispose());

/** A plugin laid out as Claude Code installs one: .claude-plugin/plugin.json, hooks/hooks.json, scripts/. */
function writePlugin(): void {
  project.write('plugins/guard/.claude-plugin/plugin.json', { name: 'guard', version: '1.0.0' });
  project.write(
    'plugins/guard/scripts/guard.sh',
    [
      '#!/bin/sh',
      'input=$(cat)',
      // The plugin finds its own data through CLAUDE_PLUGIN_ROOT, as real plugins do.
      'words=$(cat "$CLAUDE_PLUGIN_ROOT/data/blocked.txt")',
      'for word in $words; do case "$input" in *"$word"*) echo "guard plugin ($CLAUDE_PLUGIN_ROOT): $word is blocked" >&2; exit 2;; esac; done',
      'printf "%s|%s\\n" "$GREETING" "$CLAUDE_PROJECT_DIR" >> "$CLAUDE_PROJECT_DIR/seen.txt"',
      'exit 0',
    ].join('\n'),
    true,
  );
  project.write('plugins/guard/data/blocked.txt', 'shutdown\n');
  project.write(
    'plugins/guard/scripts/session.sh',
    [
      '#!/bin/sh',
      'cat > /dev/null',
      'echo "export GREETING=hello-from-session-start" >> "$CLAUDE_ENV_FILE"',
      `echo 'export TOOL_PATH="$PATH:/opt/plugin-bin"' >> "$CLAUDE_ENV_FILE"`,
      `echo 'export STOLEN=$(whoami)' >> "$CLAUDE_ENV_FILE"`,
    ].join('\n'),
    true,
  );
  project.write('plugins/guard/hooks/hooks.json', {
    description: 'blocks dangerous commands',
    hooks: {
      SessionStart: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/session.sh' }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh', timeout: 10 }] }],
    },
  });
}

describe('a Claude Code plugin hooks.json, imported and run', { timeout: 180_000 }, () => {
  it('sets CLAUDE_PLUGIN_ROOT from the plugin folder and CLAUDE_PROJECT_DIR to the session, so the hooks run instead of failing closed', () => {
    writePlugin();
    const imported = project.hookbox(['import-claude', 'plugins/guard/hooks/hooks.json', '-o', 'hookbox.config.json']);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain(`CLAUDE_PLUGIN_ROOT is set to ${project.dir}/plugins/guard`);
    expect(imported.stdout).not.toContain('WARNING');
    const config = JSON.parse(project.read('hookbox.config.json')) as { hooks: { env?: Record<string, string> }[] };
    for (const hook of config.hooks) expect(hook.env).toEqual({ CLAUDE_PLUGIN_ROOT: `${project.dir}/plugins/guard` });

    const run = project.run(
      [
        { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo shutdown now' } }] },
        { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'echo "$GREETING"; echo "$TOOL_PATH"; echo "stolen=${STOLEN-unset}"' } }] },
        { text: 'done' },
      ],
      ['go'],
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const results = toolResults(project.events());
    expect(results.c1).toBe(`error: Tool call denied by a hook: guard plugin (${project.dir}/plugins/guard): shutdown is blocked`);
    // CLAUDE_ENV_FILE: what the SessionStart hook exported reaches a later hook and the bash tool.
    expect(project.read('seen.txt')).toBe(`hello-from-session-start|${project.dir}\n`);
    expect(results.c2).toMatch(/^hello-from-session-start\n.*:\/opt\/plugin-bin\nstolen=unset\nexit code: 0$/);
    // The line a shell would have had to execute is refused, said once, and not applied.
    const logs = project.events().filter((event) => event.type === 'hook/log');
    expect(logs).toEqual([
      expect.objectContaining({ hook: 'claude-session-start-1', level: 'warn', message: expect.stringContaining('CLAUDE_ENV_FILE line 3: command substitution is not run') }),
    ]);
  });
});

describe('parseEnvFile reads export lines as data', { timeout: 180_000 }, () => {
  it('takes bare, quoted and expanded values; refuses what a shell would have to run', () => {
    const result = parseEnvFile(
      [
        '# comment',
        'export A=1',
        "export B='two words $A'",
        'export C="${A}-$HOME-\\$x"',
        'D=plain',
        'export E=$(id)',
        'export F=`id`',
        'export G=a b',
        'not a line',
      ].join('\n'),
      { HOME: '/home/me' },
    );
    expect(result.vars).toEqual({ A: '1', B: 'two words $A', C: '1-/home/me-$x', D: 'plain' });
    expect(result.refused).toEqual([
      expect.stringMatching(/^line 6: command substitution/),
      expect.stringMatching(/^line 7: command substitution/),
      expect.stringMatching(/^line 8: a bare value with spaces/),
      expect.stringMatching(/^line 9: not an "export NAME=value" line/),
    ]);
  });
});
