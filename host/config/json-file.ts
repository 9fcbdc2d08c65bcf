import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError } from '../errors.ts';

/** Formats a zod issue path as a JSON path: `hooks[1].timeoutMs`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** Describes every issue of a failed parse, one per line, naming the file and the JSON path. */
export function describeIssues(file: string, error: z.ZodError): string {
  return error.issues.map((issue) => `${file}: ${jsonPath(issue.path)}: ${issue.message}`).join('\n');
}

/** Parses JSON text, naming the file, line and column of a syntax error. */
export function parseJsonText(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    if (position?.[1] !== undefined) {
      const offset = Number(position[1]);
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      throw new ConfigError(`${file}:${line}:${column}: invalid JSON: ${message}`, { cause: error });
    }
    throw new ConfigError(`${file}: invalid JSON: ${message}`, { cause: error });
  }
}

/** Reads and validates a JSON file; every error names the file and where in it. */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read: ${(error as Error).message}`, { cause: error });
  }
  const parsed = schema.safeParse(parseJsonText(file, text));
  if (!parsed.success) throw new ConfigError(describeIssues(file, parsed.error));
  return parsed.data;
}
