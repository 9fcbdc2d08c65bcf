import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ToolResult } from '../../seams/index.ts';
import type { OurToolCall } from '../tool-names.ts';

/**
 * One Gemini CLI tool call → the hookbox tool call hooks decide on:
 *
 * - `run_shell_command {command}` → `bash {command}` (its `description` and
 *   `dir_path` are display/working-folder fields hookbox's bash has none of);
 * - `read_file {file_path}` → `read_file {path}`;
 * - `write_file {file_path, content}` → `write_file {path, content}`;
 * - `replace {file_path, old_string, new_string}` (an edit) →
 *   `write_file {path, content: new_string}`: a write to that path, whose
 *   content is the replacement text, not the whole file;
 * - `list_directory {dir_path}` → `list_dir {path}`;
 * - anything else (and a known tool of an unexpected shape) keeps Gemini's
 *   name and arguments.
 *
 * Paths inside the session's cwd become relative, as hookbox's tools take them.
 */
export function fromGeminiTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const str = (...keys: string[]): string | undefined => {
    for (const key of keys) if (typeof input[key] === 'string') return input[key] as string;
    return undefined;
  };
  const same: OurToolCall = { toolName, arguments: { ...input } };
  const file = str('file_path', 'absolute_path', 'path');
  switch (toolName) {
    case 'run_shell_command': {
      const command = str('command');
      return command === undefined ? same : { toolName: 'bash', arguments: { command } };
    }
    case 'read_file':
      return file === undefined ? same : { toolName: 'read_file', arguments: { path: relativeInside(cwd, file) } };
    case 'write_file': {
      const content = str('content');
      return file === undefined || content === undefined ? same : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
    }
    case 'replace': {
      const content = str('new_string');
      return file === undefined || content === undefined ? same : { toolName: 'write_file', arguments: { path: relativeInside(cwd, file), content } };
    }
    case 'list_directory': {
      const dir = str('dir_path', 'path');
      return dir === undefined ? same : { toolName: 'list_dir', arguments: { path: relativeInside(cwd, dir) } };
    }
    default:
      return same;
  }
}

/**
 * Gemini CLI's `tool_response` (`{llmContent, returnDisplay, error?}`) →
 * hookbox's tool result: what the model would read (`llmContent`), an error
 * when `error` is set. A shell result also gets hookbox's bash ending,
 * `exit code: N`: Gemini writes an `Exit Code: N` line only for a non-zero
 * exit, so none (and no `Signal:` or `Error:` line) means 0.
 */
export function fromGeminiToolResponse(toolName: string, response: unknown): ToolResult {
  if (typeof response === 'string') return { content: response, isError: false };
  if (typeof response !== 'object' || response === null) return { content: JSON.stringify(response) ?? '', isError: false };
  const record = response as Record<string, unknown>;
  const llm = record.llmContent;
  const content = typeof llm === 'string' ? llm : JSON.stringify(llm ?? response);
  const isError = record.error !== undefined && record.error !== null;
  if (toolName !== 'run_shell_command' || typeof llm !== 'string') return { content, isError };
  const exit = /^Exit Code: (-?\d+)$/m.exec(llm)?.[1] ?? (/^(Signal|Error): /m.test(llm) ? undefined : '0');
  return { content: exit === undefined ? content : `${content}\nexit code: ${exit}`, isError: isError || (exit !== undefined && exit !== '0') };
}

/**
 * Gemini CLI's hook input carries no tool call id; pre and post of one call
 * get the same id from the call itself (name and arguments), so the session
 * log pairs them.
 */
export function geminiToolCallId(toolName: string, input: unknown): string {
  return `gemini-${createHash('sha256').update(toolName).update('\0').update(JSON.stringify(input) ?? '').digest('hex').slice(0, 16)}`;
}

function relativeInside(cwd: string, file: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
