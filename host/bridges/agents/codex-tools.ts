import path from 'node:path';
import { type OurToolCall, fromProtocolToolInput, fromProtocolToolName } from '../tool-names.ts';
import { patchFileChanges } from './codex-patch.ts';

/** Codex's patch tool: hooks see `apply_patch {command: <the patch envelope>}`. */
const PATCH_TOOL = 'apply_patch';

/**
 * One Codex tool call → the hookbox tool call(s) hooks decide on:
 *
 * - shell (`Bash {command}`, `exec_command {cmd}`, `shell {command: [argv]}`)
 *   → `bash {command}`;
 * - `apply_patch` → one `write_file {path, content}` per path the patch
 *   touches (added, updated, deleted, moved from or to; `content` is the new
 *   file for an add, the hunk text for an update, empty for a delete or the
 *   old side of a move), so a patch editing `.env` is a write to `.env`;
 *   a patch with no file header stays `apply_patch` (nothing to map);
 * - anything else keeps Codex's name and arguments.
 *
 * Paths inside the session's cwd become relative, as hookbox's own tools
 * take them.
 */
export function fromCodexTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall[] {
  // Shell tools by every name Codex may use for them: the table in ../tool-names.ts.
  if (fromProtocolToolName('codex', toolName) === 'bash') {
    const command = shellCommand(input);
    return [command === undefined ? { toolName, arguments: { ...input } } : { toolName: 'bash', arguments: { command } }];
  }
  if (toolName === PATCH_TOOL) {
    const patch = [input.command, input.input, input.patch].find((value): value is string => typeof value === 'string');
    const changes = patch === undefined ? [] : patchFileChanges(patch);
    if (changes.length === 0) return [{ toolName, arguments: { ...input } }];
    return changes.map((change) => ({ toolName: 'write_file', arguments: { path: relativeInside(cwd, change.path), content: change.content } }));
  }
  return [fromProtocolToolInput('codex', toolName, input, cwd)];
}

function shellCommand(input: Readonly<Record<string, unknown>>): string | undefined {
  const value = input.command ?? input.cmd;
  if (typeof value === 'string') return value;
  // The older `shell` tool takes argv (`["bash", "-lc", "…"]`): hooks get it as one command line.
  if (Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string')) {
    return (value as string[]).map(quoteWord).join(' ');
  }
  return undefined;
}

function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function relativeInside(cwd: string, file: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
