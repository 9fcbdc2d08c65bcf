import { parse } from 'smol-toml';

/**
 * Small, comment-preserving edits to a TOML file's `[a.b."key"]` tables,
 * done on the text: a user's `config.toml` keeps its comments, order and
 * formatting; only the tables named are removed, renamed or appended. The
 * result is parsed before it is returned, so an edit that would make the
 * file invalid (say, the same key also written inline) throws instead of
 * being written.
 */
export interface TomlTableEdit {
  /** Tables to drop, by their dotted path (`['hooks', 'state', '/x/hooks.json:stop:0:0']`). */
  readonly remove?: readonly (readonly string[])[];
  /** Tables to rename (header only, body kept). */
  readonly rename?: readonly { readonly from: readonly string[]; readonly to: readonly string[] }[];
  /** Tables to append (or replace, when a table of that path exists): path → key/value pairs. */
  readonly set?: readonly { readonly path: readonly string[]; readonly values: Readonly<Record<string, string | boolean>> }[];
}

const HEADER = /^\s*\[\s*([^[\]]+?)\s*\]\s*(#.*)?$/;

/** Applies the edits; throws (with the parser's message) when the result is not valid TOML. */
export function editTomlTables(text: string, edit: TomlTableEdit): string {
  const lines = text.split('\n');
  const same = (a: readonly string[], b: readonly string[] | undefined): boolean => b !== undefined && a.length === b.length && a.every((part, i) => part === b[i]);
  const drop = [...(edit.remove ?? []), ...(edit.set ?? []).map((table) => table.path)];
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    const header = line.trimStart().startsWith('[[') ? null : HEADER.exec(line);
    if (header !== null) {
      const path = parseDottedKey(header[1]!);
      skipping = path !== undefined && drop.some((candidate) => same(candidate, path));
      if (skipping) continue;
      const rename = path === undefined ? undefined : edit.rename?.find((entry) => same(entry.from, path));
      if (rename !== undefined) {
        out.push(`[${formatDottedKey(rename.to)}]`);
        continue;
      }
    } else if (line.trimStart().startsWith('[[')) {
      skipping = false;
    }
    if (!skipping) out.push(line);
  }
  while (out.length > 0 && out.at(-1) === '') out.pop();
  let result = out.join('\n');
  for (const table of edit.set ?? []) {
    const body = Object.entries(table.values).map(([key, value]) => `${formatKey(key)} = ${JSON.stringify(value)}`);
    result += `${result === '' ? '' : '\n\n'}[${formatDottedKey(table.path)}]\n${body.join('\n')}`;
  }
  result = result === '' ? '' : `${result}\n`;
  parse(result);
  return result;
}

/** `a.b."c d".'e'` → `['a', 'b', 'c d', 'e']`; undefined when it is not a plain dotted key. */
export function parseDottedKey(text: string): string[] | undefined {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest !== '') {
    let part: string;
    if (rest.startsWith('"')) {
      const match = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
      if (match === null) return undefined;
      try {
        part = JSON.parse(match[0]) as string;
      } catch {
        return undefined;
      }
      rest = rest.slice(match[0].length);
    } else if (rest.startsWith("'")) {
      const end = rest.indexOf("'", 1);
      if (end < 0) return undefined;
      part = rest.slice(1, end);
      rest = rest.slice(end + 1);
    } else {
      const match = /^[A-Za-z0-9_-]+/.exec(rest);
      if (match === null) return undefined;
      part = match[0];
      rest = rest.slice(part.length);
    }
    parts.push(part);
    rest = rest.trimStart();
    if (rest === '') break;
    if (!rest.startsWith('.')) return undefined;
    rest = rest.slice(1).trimStart();
  }
  return parts;
}

function formatKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

function formatDottedKey(path: readonly string[]): string {
  return path.map(formatKey).join('.');
}
