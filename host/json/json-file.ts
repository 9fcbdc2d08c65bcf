import { readFileSync } from 'node:fs';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import type { z } from 'zod';
import { ConfigError } from '../errors.ts';
import { describeIssues } from './issues.ts';

/**
 * Parses strict JSON text, naming the file, line and column of the first
 * syntax error. jsonc-parser finds the error's position; the value comes from
 * `JSON.parse`, because jsonc-parser builds objects by assignment, so a
 * `"__proto__"` key became the object's prototype: its contents (`"hooks"`…)
 * were then read through it and escaped the strict schemas' unknown-key check.
 */
export function parseJsonText(file: string, text: string): unknown {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ConfigError(`${file}: invalid JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  throw new ConfigError(`${file}:${line}:${column}: invalid JSON: ${printParseErrorCode(first.error)}`);
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
