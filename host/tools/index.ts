import type { Tool } from '../loop/tool.ts';
import { type BashToolOptions, bashTool } from './bash.ts';
import { listDirTool, readFileTool, writeFileTool } from './files.ts';

export { bashTool } from './bash.ts';
export type { BashArguments, BashToolOptions } from './bash.ts';
export { listDirTool, readFileTool, writeFileTool } from './files.ts';

/** The built-in tools: bash, read_file, write_file, list_dir (`bash` takes its options). */
export function builtinTools(bash: BashToolOptions = {}): Tool<never>[] {
  return [bashTool(bash), readFileTool, writeFileTool, listDirTool] as unknown as Tool<never>[];
}
