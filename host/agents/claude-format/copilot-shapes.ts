import path from 'node:path';
import * as z from 'zod';
import type { ToolResult } from '../../seams/index.ts';
import { type EventFrame, hookEventFrame } from '../bridge-parts.ts';
import { SESSION_ID_PATTERN } from '../event-input.ts';
import type { CopilotToolResultSchema } from './protocol.ts';

/**
 * Copilot CLI (1.0.102) reads a project's `.claude/settings.json` and runs
 * its hooks with Claude-format events, but in its own shapes: the file tools
 * carry Claude Code's names with Copilot's arguments (`Read {path}`, `Write
 * {path, file_text}`, `Edit {path, old_str, new_str}`, measured by logging
 * what a hook received), and a result comes as `tool_result`. These are
 * read here into Claude Code's shapes, so one hook decides alike in both.
 */
const COPILOT_FILE_ARGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Read: { path: 'file_path' },
  Write: { path: 'file_path', file_text: 'content' },
  Edit: { path: 'file_path', old_str: 'old_string', new_str: 'new_string' },
};

/**
 * A Claude-named file tool's input in Copilot's shape (`path`, no
 * `file_path`) → Claude Code's; anything else as it came. A Copilot key
 * never overwrites a Claude one.
 */
export function claudeShapedInput(toolName: string, input: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const renames = Object.hasOwn(COPILOT_FILE_ARGS, toolName) ? COPILOT_FILE_ARGS[toolName]! : undefined;
  if (renames === undefined || input.file_path !== undefined || typeof input.path !== 'string') return input;
  const shaped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const claude = Object.hasOwn(renames, key) ? renames[key]! : key;
    if (!Object.hasOwn(shaped, claude)) shaped[claude] = value;
  }
  return shaped;
}

/** Copilot's shell result trailer: `<shellId: N completed with exit code X>` on the last line. */
const SHELL_TRAILER = /\n?<shellId: [^>\n]* completed with exit code (-?\d+)>\s*$/;

/**
 * Copilot's `tool_result` → hookbox's tool result: the text the model would
 * be shown, an error unless `result_type` is `success`. A shell result's
 * trailer becomes hookbox's own `exit code: N` line, the one test-gate reads.
 */
export function fromCopilotToolResult(result: z.infer<typeof CopilotToolResultSchema>): ToolResult {
  return copilotResult(result.result_type, result.text_result_for_llm);
}

/** A Copilot result (its type, the text for the model) → hookbox's, in either of Copilot's formats (Claude's names or its own). */
export function copilotResult(resultType: string, text: string): ToolResult {
  const isError = resultType !== 'success';
  const trailer = SHELL_TRAILER.exec(text);
  if (trailer === null) return { content: text, isError };
  return { content: `${text.slice(0, trailer.index)}\nexit code: ${trailer[1]!}`, isError };
}

/**
 * Copilot CLI 1.0.102 runs a `.claude/settings.json` PermissionRequest hook
 * with its own event, not a Claude-format one (measured, even with
 * `--allow-all-tools`: `{hookName: "permissionRequest", sessionId, cwd,
 * toolName, toolInput}`, no `hook_event_name`).
 */
const CopilotPermissionRequestSchema = z.looseObject({
  hookName: z.literal('permissionRequest'),
  sessionId: z.string().regex(SESSION_ID_PATTERN),
  cwd: z.string().refine((cwd) => path.isAbsolute(cwd)),
});

/**
 * The Claude format's frame, which also knows that Copilot event: it is
 * framed under Copilot's own name, which no Claude-format table lists, so it
 * passes with no opinion — Copilot asks as it does without hooks, and
 * hookbox's own Copilot setup (`hookbox setup copilot`) is what decides its
 * permission prompt. Read as an unreadable Claude event it would fail
 * closed, and Copilot would refuse every tool call it asks about.
 */
export const claudeFormatFrame: EventFrame = (input, named) => {
  const copilot = CopilotPermissionRequestSchema.safeParse(input);
  if (copilot.success && !Object.hasOwn(input as object, 'hook_event_name')) return { kind: 'framed', event: 'permissionRequest', sessionId: copilot.data.sessionId, cwd: copilot.data.cwd };
  return hookEventFrame(input, named);
};
