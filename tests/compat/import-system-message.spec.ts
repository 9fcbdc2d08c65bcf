import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { protocolOutcome } from '../../host/bridges/index.ts';
import { type ImportProject, importProject, toolResults } from '../helpers/import-project.ts';

// systemMessage is shown to the user (sanitized) and recorded in the log,
// never dropped; a deny whose only reason is the systemMessage uses it.
let project: ImportProject;
beforeEach(() => {
  project = importProject('hookbox-import-sysmsg-');
});
afterEach(() => project.dispose());

describe('systemMessage from imported Claude Code hooks', { timeout: 180_000 }, () => {
  it('is shown on the transcript without escape sequences, recorded as hook/log, and is the reason of a deny that has no other', () => {
    // A deny that explains itself only in systemMessage, with a terminal escape in it.
    project.write(
      'hooks/guard.sh',
      [
        '#!/bin/sh',
        'cat > /dev/null',
        `printf '%s' '{"systemMessage":"\\u001b[31mrefusing: .env holds secrets\\u001b]0;pwned\\u0007","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'`,
      ].join('\n'),
      true,
    );
    // A message with no decision at all: still shown and recorded.
    project.write('hooks/post.sh', `#!/bin/sh\ncat > /dev/null\necho '{"systemMessage":"formatted 1 file"}'\n`, true);
    project.write('.claude/settings.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: './hooks/guard.sh' }] }],
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/post.sh' }] }],
      },
    });
    expect(project.hookbox(['import-claude', '.claude/settings.json', '-o', 'hookbox.config.json']).status).toBe(0);
    project.write('.env', 'KEY=1');
    const run = project.run(
      [
        { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: '.env' } }] },
        { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'true' } }] },
        { text: 'ok' },
      ],
      ['go'],
    );
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toContain('\u0007');
    expect(run.stdout).toMatch(/log claude-pre-tool-use-1 \[info\] .*refusing: \.env holds secrets/);
    expect(run.stdout).toMatch(/log claude-post-tool-use-1 \[info\] formatted 1 file/);
    const all = project.events();
    expect(toolResults(all).c1).toMatch(/^error: Tool call denied by a hook: .*refusing: \.env holds secrets/);
    const logs = all.filter((event) => event.type === 'hook/log').map((event) => [event.hook, event.level, event.message]);
    expect(logs).toEqual([
      ['claude-pre-tool-use-1', 'info', expect.stringContaining('refusing: .env holds secrets')],
      ['claude-post-tool-use-1', 'info', 'formatted 1 file'],
    ]);
  });

  it('a block, stop or deny without its own reason takes the systemMessage', () => {
    const out = (json: unknown) => ({ exitCode: 0, stdout: JSON.stringify(json), stderr: '' });
    expect(protocolOutcome('claude-code', 'agent/prompt-submit', out({ decision: 'block', systemMessage: 'no secrets in prompts' }))).toEqual({
      type: 'decision',
      decision: { action: 'block', reason: 'no secrets in prompts' },
    });
    expect(protocolOutcome('claude-code', 'tools/pre-execute', out({ decision: 'block', systemMessage: 'old form' }))).toEqual({
      type: 'decision',
      decision: { action: 'deny', reason: 'old form' },
    });
    expect(protocolOutcome('claude-code', 'tools/post-execute', out({ continue: false, systemMessage: 'halt' }))).toEqual({
      type: 'decision',
      decision: { action: 'block', reason: 'halt' },
    });
    // An explicit reason still wins over the message for the user.
    expect(
      protocolOutcome('claude-code', 'tools/pre-execute', out({ systemMessage: 'shown', hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'why' } })),
    ).toEqual({ type: 'decision', decision: { action: 'deny', reason: 'why' } });
  });
});
