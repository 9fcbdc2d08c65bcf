import type { z } from 'zod';

/** A zod issue, as far as formatting needs it. */
export interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Formats an issue path as a JSON path: `hooks[1].timeoutMs`. Under a `root`
 * name the path reads `decision.reason` / `output.hookSpecificOutput`, and an
 * empty path is the root itself; without one it is `(root)`.
 */
export function jsonPath(path: readonly PropertyKey[], root?: string): string {
  let out = root ?? '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * The one formatter of zod issues: `<json path>: <message>` per issue, so
 * every message about bad input names where it was wrong and what was expected.
 */
export function issueLines(issues: z.ZodError | readonly Issue[], root?: string): string[] {
  const list: readonly Issue[] = 'issues' in issues ? issues.issues : issues;
  return list.map((issue) => `${jsonPath(issue.path, root)}: ${issue.message}`);
}

/** Every issue of a failed parse, one per line, each naming the file and the JSON path. */
export function describeIssues(file: string, error: z.ZodError): string {
  return issueLines(error)
    .map((line) => `${file}: ${line}`)
    .join('\n');
}
