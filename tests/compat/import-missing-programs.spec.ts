import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onPath } from '../../host/bridges/index.ts';
import { type ImportProject, importProject } from '../helpers/import-project.ts';
import { skipUnless } from '../helpers/skips.ts';

// the importers say which programs do not exist before writing the config;
// at run time a missing program is one clear error per hook, not a bare `sh: uv: not found`
// denying every prompt.
const MISSING = 'hookbox-test-no-such-uv';
let project: ImportProject;
beforeEach(() => {
  project = importProject('hookbox-import-missing-');
});
afterEach(() => project.dispose());

function writeSettings(): void {
  project.write('hooks/check.py', 'print("never runs")\n');
  // A script whose #! names an interpreter that is not installed (the `uv run --script` pattern).
  project.write('hooks/lint.sh', `#!/usr/bin/env ${MISSING}\necho hi\n`, true);
  project.write('.claude/settings.json', {
    hooks: {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: `${MISSING} run "$CLAUDE_PROJECT_DIR"/hooks/check.py` }] }],
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/gone.sh' }] },
        { matcher: 'Write', hooks: [{ type: 'command', command: 'python3 "$CLAUDE_PROJECT_DIR/hooks/absent.py"' }] },
      ],
      PostToolUse: [{ hooks: [{ type: 'command', command: './hooks/lint.sh' }] }],
    },
  });
}

describe.skipIf(skipUnless('hooks whose program does not exist', onPath(MISSING, process.env) === undefined ? undefined : `${MISSING} exists on PATH here`))('hooks whose program does not exist', { timeout: 180_000 }, () => {
  it('the importer names each missing program and interpreter before writing the config', () => {
    writeSettings();
    const imported = project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']);
    expect(imported.status).toBe(0);
    const python = onPath('python3', process.env) !== undefined;
    expect(imported.stdout).toContain(`WARNING: ${python ? 4 : 3} program(s) the hooks start were not found`);
    expect(imported.stdout).toContain(`claude-user-prompt-submit-1: ${MISSING}: not found on PATH`);
    expect(imported.stdout).toContain('claude-pre-tool-use-1: ./hooks/gone.sh: no such file');
    expect(imported.stdout).toContain(`claude-post-tool-use-1: ${MISSING}: not found on PATH (the #! interpreter of ${project.dir}/hooks/lint.sh)`);
    if (python) expect(imported.stdout).toContain(`claude-pre-tool-use-2: ${project.dir}/hooks/absent.py: no such file (the python3 script)`);
    expect(existsSync(`${project.dir}/hookbox.config.json`)).toBe(true);
  });

  it('hookbox run refuses to start a session whose fail-closed hooks cannot run, naming each hook once', () => {
    writeSettings();
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    const run = project.run([{ text: 'hi' }], ['first', 'second']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('hook command(s) cannot run, and each would fail closed on every call');
    expect(run.stderr).toContain(`claude-user-prompt-submit-1: ${MISSING}: not found on PATH (command: ${MISSING} run "$CLAUDE_PROJECT_DIR"/hooks/check.py)`);
    expect(run.stderr).toContain('claude-pre-tool-use-1: ./hooks/gone.sh: no such file');
    expect(run.stderr).not.toContain('sh: 1:');
    expect(existsSync(project.workspace.logPath)).toBe(false);
  });

  it('a fail-open hook that cannot run faults with the program named, announced once, and the prompts go through', () => {
    project.write('.claude/settings.json', {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `${MISSING} run hooks/check.py` }] }] },
    });
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    const config = JSON.parse(project.read('hookbox.config.json')) as { hooks: Record<string, unknown>[] };
    config.hooks[0]!.failPolicy = 'open';
    project.write('hookbox.config.json', config);
    const run = project.run([{ text: 'one' }, { text: 'two' }], ['first', 'second']);
    expect(run.status).toBe(0);
    const all = project.events();
    const faults = all.filter((event) => event.type === 'hook/invoke' && event.outcome === 'fault');
    expect(faults).toHaveLength(2);
    for (const fault of faults) {
      expect(fault).toMatchObject({ fault: { kind: 'load', message: expect.stringContaining(`the hook's command cannot run (${MISSING}: not found on PATH)`) }, applied: null });
    }
    const notices = all.filter((event) => event.type === 'hook/log');
    expect(notices).toEqual([expect.objectContaining({ hook: 'claude-user-prompt-submit-1', level: 'error', message: expect.stringContaining(`${MISSING}: not found on PATH`) })]);
    expect(all.filter((event) => event.type === 'user/message').map((event) => event.content)).toEqual(['first', 'second']);
  });
});
