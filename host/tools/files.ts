import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import type { Tool } from '../loop/tool.ts';

const MAX_READ_BYTES = 256 * 1024;

export const ReadFileArgumentsSchema = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the working directory.'),
});
export const WriteFileArgumentsSchema = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the working directory.'),
  content: z.string().describe('The whole new content of the file.'),
});
export const ListDirArgumentsSchema = z.strictObject({
  path: z.string().min(1).default('.').describe('Directory path, relative to the working directory.'),
});

export const readFileTool: Tool<z.infer<typeof ReadFileArgumentsSchema>> = {
  name: 'read_file',
  description: 'Read a UTF-8 text file.',
  arguments: ReadFileArgumentsSchema,
  async run(args, context) {
    const path = resolve(context.cwd, args.path);
    const info = await stat(path);
    if (!info.isFile()) return { content: `${args.path} is not a file`, isError: true };
    const bytes = await readFile(path);
    const text = bytes.subarray(0, MAX_READ_BYTES).toString('utf8');
    const note = bytes.length > MAX_READ_BYTES ? `\n[truncated: ${bytes.length - MAX_READ_BYTES} more bytes]` : '';
    return { content: text + note, isError: false };
  },
};

export const writeFileTool: Tool<z.infer<typeof WriteFileArgumentsSchema>> = {
  name: 'write_file',
  description: 'Create or overwrite a text file (parent directories are created).',
  arguments: WriteFileArgumentsSchema,
  async run(args, context) {
    const path = resolve(context.cwd, args.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, args.content);
    return { content: `wrote ${Buffer.byteLength(args.content)} bytes to ${args.path}`, isError: false };
  },
};

export const listDirTool: Tool<z.infer<typeof ListDirArgumentsSchema>> = {
  name: 'list_dir',
  description: 'List a directory: one entry per line, directories end with "/".',
  arguments: ListDirArgumentsSchema,
  async run(args, context) {
    const entries = await readdir(resolve(context.cwd, args.path), { withFileTypes: true });
    const lines = entries
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort((a, b) => a.localeCompare(b));
    return { content: lines.join('\n'), isError: false };
  },
};
