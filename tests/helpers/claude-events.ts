/** Claude Code hook events as its hooks read them on stdin, for the server and hook-client suites. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One event of session `session` in `cwd`, with the event's own `fields`. */
export function claudeEvent(cwd: string, session: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd, permission_mode: 'default', ...fields });
}

export const preBash = (cwd: string, session: string, command: string, id = 'toolu_1'): string =>
  claudeEvent(cwd, session, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: id });

export const postBash = (cwd: string, session: string, output: string): string =>
  claudeEvent(cwd, session, {
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'cat .env', description: 'x' },
    tool_response: { stdout: output, stderr: '', interrupted: false },
    tool_use_id: 'toolu_1',
  });

export const promptSubmit = (cwd: string, session: string, text: string): string => claudeEvent(cwd, session, { hook_event_name: 'UserPromptSubmit', prompt: text });

/** Writes `hooks` as `dir/hookbox.config.json` (creating `dir`) and returns its path. */
export function writeHookConfig(dir: string, hooks: unknown[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'hookbox.config.json');
  writeFileSync(file, `${JSON.stringify({ hooks }, null, 2)}\n`);
  return file;
}

/** What `hookbox doctor` sends a Claude-format agent's hooks: a PreToolUse of `tool` with `input` in `/p`, with or without a `tool_use_id`. */
export function doctorProbe(tool: string, input: Record<string, unknown>, withId = true): Record<string, unknown> {
  return {
    session_id: 'hookbox-doctor-probe',
    transcript_path: null,
    cwd: '/p',
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: tool,
    tool_input: input,
    ...(withId && { tool_use_id: 'hookbox-doctor-probe' }),
  };
}

/**
 * The seam call a doctor probe with a `tool_use_id` becomes: hookbox's bash
 * running `true`, carrying the agent's own call (`tool`) that a rewrite is mapped back onto.
 */
export function doctorProbeSeam(tool: string) {
  return {
    kind: 'seam',
    event: {
      event: 'PreToolUse',
      sessionId: 'hookbox-doctor-probe',
      cwd: '/p',
      seam: 'tools/pre-execute',
      payload: { toolCallId: 'hookbox-doctor-probe', toolName: 'bash', arguments: { command: 'true' } },
      agentCall: { toolName: tool, input: { command: 'true' } },
    },
  };
}
