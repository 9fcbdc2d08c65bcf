import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOOL_NAMES, convertToolMatcher } from '../../host/bridges/index.ts';
import { fromCodexTool } from '../../host/agents/codex/tools.ts';
import { type ImportProject, importProject, toolResults } from '../helpers/import-project.ts';

// Codex apply_patch / Edit / Write matchers select hookbox's file tools (one
// table shared with the Codex bridge); Bash tool_response has stdout / stderr / exit_code.
let project: ImportProject;
beforeEach(() => {
  project = importProject('hookbox-import-codex-');
});
afterEach(() => project.dispose());

describe('Codex file-tool matchers and the Bash tool_response', { timeout: 180_000 }, () => {
  it('a Codex apply_patch hook sees write_file as apply_patch with the patch, and denies a patch to .env', () => {
    project.write(
      'hooks/patch-guard.sh',
      [
        '#!/bin/sh',
        'input=$(cat)',
        `fields=$(printf '%s' "$input" | node -e 'const i = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(i.tool_name + " " + (i.tool_input.command ?? "").split("\\n")[1])')`,
        'printf "%s\\n" "$fields" >> seen.txt',
        'case "$fields" in "apply_patch *** Add File: "*.env*) echo "codex guard: no patches to .env" >&2; exit 2;; esac',
      ].join('\n'),
      true,
    );
    project.write('.codex/hooks.json', {
      hooks: { PreToolUse: [{ matcher: 'apply_patch|Edit|Write', hooks: [{ type: 'command', command: './hooks/patch-guard.sh' }] }] },
    });
    const imported = project.hookbox(['import-codex', '.codex/hooks.json', '-o', 'hookbox.config.json']);
    expect(imported.status).toBe(0);
    expect(JSON.parse(project.read('hookbox.config.json')).hooks[0].tools).toEqual(['write_file']);
    const run = project.run(
      [
        { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: '.env', content: 'KEY=1\n' } }] },
        { toolCalls: [{ id: 'w2', name: 'write_file', arguments: { path: 'notes.md', content: 'hi\n' } }] },
        { toolCalls: [{ id: 'b1', name: 'bash', arguments: { command: 'true' } }] },
        { text: 'done' },
      ],
      ['go'],
    );
    expect(run.status).toBe(0);
    const results = toolResults(project.events());
    expect(results.w1).toBe('error: Tool call denied by a hook: codex guard: no patches to .env');
    expect(results.w2).not.toMatch(/^error/);
    expect(project.read('notes.md')).toBe('hi\n');
    // The bash call did not reach the file hook at all.
    expect(project.read('seen.txt')).toBe('apply_patch *** Add File: .env\napply_patch *** Add File: notes.md\n');
  });

  it('a Claude Code PostToolUse hook gets Bash stdout and exit_code as fields, with no "exit code: N" line in stdout', () => {
    project.write('hooks/record.sh', '#!/bin/sh\ncat > "$CLAUDE_PROJECT_DIR/response-$(date +%s%N).json"\n', true);
    project.write('.claude/settings.json', { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/record.sh' }] }] } });
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    const run = project.run(
      [{ toolCalls: [{ id: 'b1', name: 'bash', arguments: { command: 'echo out; echo err >&2; exit 3' } }] }, { text: 'done' }],
      ['go'],
    );
    expect(run.status).toBe(0);
    const responses = readResponses(project);
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'echo out; echo err >&2; exit 3' } });
    expect(responses[0]!.tool_response).toEqual({ stdout: 'out\nerr', stderr: '', interrupted: false, isImage: false, exit_code: 3 });
  });

  it('one table: every Codex shell and file-tool name maps alike in the importer and the Codex bridge', () => {
    for (const name of TOOL_NAMES.codex.bash ?? []) {
      // `container.exec` is read as a regex (it has a dot): it still resolves to bash first.
      expect(convertToolMatcher('codex', name).tools?.[0]).toBe('bash');
      expect(fromCodexTool(name, { command: 'ls' }, '/p')).toEqual([{ toolName: 'bash', arguments: { command: 'ls' } }]);
    }
    for (const name of TOOL_NAMES.codex.write_file ?? []) expect(convertToolMatcher('codex', name).tools).toEqual(['write_file']);
    expect(convertToolMatcher('codex', 'apply.*').tools?.[0]).toBe('write_file');
    expect(fromCodexTool('apply_patch', { command: '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch' }, '/p')).toEqual([
      { toolName: 'write_file', arguments: { path: 'a.txt', content: 'x\n' } },
    ]);
  });
});

function readResponses(project: ImportProject): Record<string, unknown>[] {
  return readdirSync(project.dir)
    .filter((name) => name.startsWith('response-'))
    .map((name) => JSON.parse(project.read(name)) as Record<string, unknown>);
}
