import type { ToolResult } from '../../seams/index.ts';
import { type OurToolCall, relativeInside } from '../tool-names.ts';
import { PASSED, type RewriteWay, editWay, fileWay, shellWay } from '../tool-rewrite.ts';
import { type AgentToolRow, passedCall } from '../tool-table.ts';

/**
 * Every tool pi 0.73.1 can run (its built-ins: `bash`, `read`, `edit`,
 * `write` active by default, `grep`, `find`, `ls` on `--tools`) and how each
 * reaches hookbox's hooks. A tool an extension registers is passed under its
 * own name, flagged `_hookbox.unmappedTool`.
 */
export const PI_TOOLS: readonly AgentToolRow[] = [
  { tool: 'bash', as: 'bash', how: '`{command}` → `{command}` (`timeout` dropped)' },
  { tool: 'read', as: 'read_file', how: '`{path}` → `{path}` (`offset`, `limit` dropped)' },
  { tool: 'write', as: 'write_file', how: '`{path, content}` → `{path, content}`' },
  {
    tool: 'edit',
    as: 'write_file',
    how: '`{path, edits: [{oldText, newText}]}` → `{path, content}`, every `newText` joined by newlines (the text written, not the resulting file)',
  },
  { tool: 'ls', as: 'list_dir', how: '`{path}` → `{path}` (none: `.`)' },
  { tool: 'grep', as: 'grep', how: 'passed: searches file contents — a read guard must name `grep` too' },
  { tool: 'find', as: 'find', how: 'passed: lists file names by glob, reads no content' },
];

/**
 * One pi tool call → the hookbox call hooks decide on (the table above).
 * A known tool of an unexpected shape is passed as it came, flagged
 * unmapped: no guard should take it for mapped.
 */
export function fromPiTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall {
  const str = (key: string): string | undefined => (typeof input[key] === 'string' ? (input[key] as string) : undefined);
  const path = str('path');
  const unmapped = (): OurToolCall => passedCall([], toolName, input);
  switch (toolName) {
    case 'bash': {
      const command = str('command');
      return command === undefined ? unmapped() : { toolName: 'bash', arguments: { command } };
    }
    case 'read':
      return path === undefined ? unmapped() : { toolName: 'read_file', arguments: { path: relativeInside(cwd, path) } };
    case 'write': {
      const content = str('content');
      return path === undefined || content === undefined ? unmapped() : { toolName: 'write_file', arguments: { path: relativeInside(cwd, path), content } };
    }
    case 'edit': {
      const content = editText(input);
      return path === undefined || content === undefined ? unmapped() : { toolName: 'write_file', arguments: { path: relativeInside(cwd, path), content } };
    }
    case 'ls':
      return input.path !== undefined && path === undefined ? unmapped() : { toolName: 'list_dir', arguments: { path: relativeInside(cwd, path ?? '.') } };
    default:
      return passedCall(PI_TOOLS.filter((row) => row.as === row.tool), toolName, input);
  }
}

/** The text an edit writes: each `newText` (the older single `{oldText, newText}` form too), joined by newlines. */
function editText(input: Readonly<Record<string, unknown>>): string | undefined {
  const edits: unknown[] = Array.isArray(input.edits) ? [...(input.edits as unknown[])] : [];
  if (typeof input.newText === 'string') edits.push({ newText: input.newText });
  if (edits.length === 0) return undefined;
  const texts = edits.map((edit) => (typeof edit === 'object' && edit !== null ? (edit as Record<string, unknown>).newText : undefined));
  return texts.every((text): text is string => typeof text === 'string') ? texts.join('\n') : undefined;
}

/**
 * pi's tool result (`content` blocks, `isError`) → hookbox's: the text
 * blocks joined (an image block is named, not passed). A shell result gets
 * hookbox's bash ending, `exit code: N`: pi ends a failed command's text with
 * `Command exited with code N` and marks it an error; a success has neither.
 */
export function fromPiToolResult(toolName: string, content: readonly { type: string; text?: unknown }[], isError: boolean): ToolResult {
  const text = content.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : `[${block.type} content]`)).join('\n');
  if (toolName !== 'bash') return { content: text, isError };
  const exit = /Command exited with code (-?\d+)\s*$/.exec(text)?.[1] ?? (isError ? undefined : '0');
  return { content: exit === undefined ? text : `${text}\nexit code: ${exit}`, isError };
}

/**
 * How each pi tool takes a rewrite back: pi's `tool_call` event lets an
 * extension change `event.input` in place (pi 0.73.1, `ToolCallEvent`: "no
 * re-validation is performed after mutation"), so the extension replaces its
 * keys with the input sent back, every key pi sent kept (`timeout`,
 * `offset`); `edit` only when its path changed (old/new text pairs); a passed
 * tool never.
 */
export const PI_REWRITES: Readonly<Record<string, RewriteWay>> = {
  ...Object.fromEntries(PI_TOOLS.map((row) => [row.tool, PASSED])),
  bash: shellWay('command'),
  read: fileWay('path'),
  write: fileWay('path', 'content'),
  edit: editWay('path', 'edit'),
  ls: fileWay('path'),
};
