import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ImportProject, importProject, toolResults } from '../helpers/import-project.ts';

// tool arguments reach imported hooks as the model wrote them: a `..` in
// file_path stays visible to a hook that checks for it.
let project: ImportProject;
beforeEach(() => {
  project = importProject('hookbox-import-paths-');
});
afterEach(() => project.dispose());

describe('paths as the model wrote them', { timeout: 180_000 }, () => {
  it('a PreToolUse hook that refuses ".." in file_path sees it and denies; other paths arrive absolute, unnormalised', () => {
    // The traversal check many published Claude Code hooks make, in plain sh.
    project.write(
      'hooks/no-traversal.sh',
      [
        '#!/bin/sh',
        'input=$(cat)',
        `path=$(printf '%s' "$input" | node -e 'const i = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(i.tool_input.file_path ?? i.tool_input.path)')`,
        'printf "%s\\n" "$path" >> "$CLAUDE_PROJECT_DIR/seen-paths.txt"',
        'case "$path" in *..*) echo "path traversal: $path" >&2; exit 2;; esac',
        'exit 0',
      ].join('\n'),
      true,
    );
    project.write('.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Read|Write|LS', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/no-traversal.sh' }] }] },
    });
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    project.write('docs/readme.txt', 'read me');
    const run = project.run(
      [
        { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'docs/../../outside.txt' } }] },
        { toolCalls: [{ id: 'c2', name: 'read_file', arguments: { path: 'docs/readme.txt' } }] },
        { toolCalls: [{ id: 'c3', name: 'write_file', arguments: { path: `${project.dir}/docs/../../escape.txt`, content: 'x' } }] },
        { toolCalls: [{ id: 'c4', name: 'list_dir', arguments: { path: '.' } }] },
        { text: 'done' },
      ],
      ['go'],
    );
    expect(run.status).toBe(0);
    const results = toolResults(project.events());
    expect(results.c1).toBe(`error: Tool call denied by a hook: path traversal: ${project.dir}/docs/../../outside.txt`);
    expect(results.c2).toBe('read me');
    expect(results.c3).toBe(`error: Tool call denied by a hook: path traversal: ${project.dir}/docs/../../escape.txt`);
    expect(results.c4).not.toMatch(/^error/);
    expect(project.read('seen-paths.txt')).toBe(
      [`${project.dir}/docs/../../outside.txt`, `${project.dir}/docs/readme.txt`, `${project.dir}/docs/../../escape.txt`, project.dir, ''].join('\n'),
    );
  });
});
