import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeTranscriptPath } from '../../host/bridges/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { sequence } from '../helpers/session.ts';
import { type ImportProject, importProject } from '../helpers/import-project.ts';

// transcript_path names a Claude Code-format transcript written beside the
// session log, so Stop hooks that read it (the ralph-wiggum pattern) work.
let project: ImportProject;
beforeEach(() => {
  project = importProject('hookbox-import-transcript-');
});
afterEach(() => project.dispose());

/**
 * A Stop hook written the way transcript-reading hooks are: it greps the
 * transcript for the last `"role":"assistant"` line, takes its text blocks,
 * and keeps the turn going until the model says DONE.
 */
function writeStopHook(): void {
  project.write(
    'hooks/last-text.js',
    [
      "const line = require('fs').readFileSync(0, 'utf8').trim();",
      "const entry = JSON.parse(line);",
      "process.stdout.write(entry.message.content.filter((block) => block.type === 'text').map((block) => block.text).join('\\n'));",
    ].join('\n'),
  );
  project.write(
    'hooks/stop.sh',
    [
      '#!/bin/sh',
      'input=$(cat)',
      `transcript=$(printf '%s' "$input" | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).transcript_path ?? "")')`,
      'if [ -z "$transcript" ] || [ ! -f "$transcript" ]; then echo "no transcript: [$transcript]" >&2; exit 1; fi',
      `last=$(grep '"role":"assistant"' "$transcript" | tail -1 | node "$CLAUDE_PROJECT_DIR/hooks/last-text.js")`,
      `tools=$(grep -c '"type":"tool_result"' "$transcript")`,
      'case "$last" in *DONE*) exit 0;; esac',
      'echo "{\\"decision\\":\\"block\\",\\"reason\\":\\"keep going: last said [$last] after $tools tool result(s)\\"}"',
    ].join('\n'),
    true,
  );
  project.write('.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/stop.sh' }] }] } });
}

describe('transcript_path for imported Claude Code hooks', { timeout: 180_000 }, () => {
  it('a Stop hook reads the last assistant text from the transcript and continues the turn until it says DONE', () => {
    writeStopHook();
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    const run = project.run(
      [
        { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo building' } }] },
        { text: 'still working' },
        { text: 'all DONE' },
      ],
      ['build it'],
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(sequence(project.events())).toEqual([
      'turn/start 1',
      'user/message 1: build it',
      'assistant/message 1.1:  [c1]',
      'tool/call 1.1 c1 bash',
      'tool/result 1.1 c1: building\nexit code: 0',
      'assistant/message 1.2: still working',
      'steering/message 1: keep going: last said [still working] after 1 tool result(s)',
      'assistant/message 1.3: all DONE',
      'turn/end 1 completed steps=3',
    ]);
  });

  it('writes user, assistant (text and tool_use with Claude Code names) and tool_result lines; the session log stays hookbox events only', () => {
    writeStopHook();
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    project.write('notes.txt', 'hello');
    const run = project.run(
      [{ text: 'reading', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'DONE' }],
      ['read the notes'],
    );
    expect(run.status).toBe(0);
    const file = claudeTranscriptPath(project.workspace.logPath);
    expect(file).toBe(`${project.dir}/session.claude-transcript.jsonl`);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const sessionId = project.events().find((event) => event.type === 'session/start')?.sessionId;
    expect(lines.map((line) => line.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(lines[0]).toMatchObject({ parentUuid: null, sessionId, cwd: project.dir, message: { role: 'user', content: 'read the notes' } });
    expect(lines[1]).toMatchObject({
      parentUuid: lines[0]!.uuid,
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'reading' },
          { type: 'tool_use', id: 'c1', name: 'Read', input: { file_path: `${project.dir}/notes.txt` } },
        ],
      },
    });
    expect(lines[2]).toMatchObject({
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'hello', is_error: false }] },
      toolUseResult: { type: 'text', file: { filePath: `${project.dir}/notes.txt`, content: 'hello' } },
    });
    expect(lines[3]).toMatchObject({ message: { role: 'assistant', content: [{ type: 'text', text: 'DONE' }] } });
    // The session log is untouched: every line is a valid hookbox event, none is a transcript line.
    const log = readSessionLog(project.workspace.logPath);
    expect(log.events.length).toBeGreaterThan(5);
    expect(readFileSync(project.workspace.logPath, 'utf8')).not.toContain('"role":"assistant"');
  });

  it('Codex hooks keep transcript_path null (hookbox does not write Codex rollouts)', () => {
    project.write('stop.sh', '#!/bin/sh\ninput=$(cat)\ncase "$input" in *\'"transcript_path":null\'*) exit 0;; esac\necho "got a transcript path" >&2; exit 1\n', true);
    project.write('hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: './stop.sh' }] }] } });
    expect(project.hookbox(['import-codex', 'hooks.json', '-o', 'hookbox.config.json']).status).toBe(0);
    expect(project.run([{ text: 'ok' }], ['hi']).status).toBe(0);
    const invoke = project.events().find((event) => event.type === 'hook/invoke');
    expect(invoke).toMatchObject({ hook: 'codex-stop-1', outcome: 'no-opinion' });
  });
});
