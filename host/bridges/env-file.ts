/** What an env file declared, and the lines that were not applied (with why). */
export interface EnvFileResult {
  readonly vars: Record<string, string>;
  readonly refused: readonly string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads a `CLAUDE_ENV_FILE` as data, never as a script: each line
 * `export NAME=value` (or `NAME=value`) with a bare, `'single'` or
 * `"double"`-quoted value. `$NAME` / `${NAME}` in a bare or double-quoted value
 * expand from `base` and the lines before (so `export PATH="$PATH:/x"` works);
 * command substitution, backticks, several assignments on a line or anything
 * else a shell would have to run is refused, line by line, with the reason.
 * Blank lines and `#` comments are skipped.
 */
export function parseEnvFile(text: string, base: Readonly<Record<string, string | undefined>>): EnvFileResult {
  const vars: Record<string, string> = {};
  const refused: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const refuse = (why: string): void => {
      refused.push(`line ${index + 1}: ${why}`);
    };
    const assignment = line.replace(/^export\s+/, '');
    const equals = assignment.indexOf('=');
    const name = equals < 0 ? assignment : assignment.slice(0, equals);
    if (equals < 0 || !NAME.test(name)) return refuse('not an "export NAME=value" line');
    const value = readValue(assignment.slice(equals + 1), (key) => vars[key] ?? base[key]);
    if (typeof value !== 'string') return refuse(value.why);
    vars[name] = value;
  });
  return { vars, refused };
}

/** One shell value: bare, '…' or "…"; expansion of plain variables only. */
function readValue(text: string, lookup: (name: string) => string | undefined): string | { why: string } {
  if (/`|\$\(/.test(text)) return { why: 'command substitution is not run (hookbox reads the file, it does not source it)' };
  if (text.startsWith("'")) {
    const end = text.indexOf("'", 1);
    if (end !== text.length - 1) return { why: 'expected one single-quoted value' };
    return text.slice(1, -1);
  }
  let body = text;
  if (text.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) return { why: 'expected one double-quoted value' };
    body = text.slice(1, -1);
  } else if (/[\s;&|<>()"'\\]/.test(text)) {
    return { why: 'a bare value with spaces, quotes or shell operators (quote it)' };
  }
  const expanded = body.replace(/\\(["\\$])|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_all, escaped: string | undefined, braced, bare) => {
    if (escaped !== undefined) return escaped;
    // As a shell would: an unset variable expands to nothing.
    return lookup((braced ?? bare) as string) ?? '';
  });
  if (/\$\{/.test(body.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/g, ''))) return { why: 'only plain ${NAME} expansions are read' };
  return expanded;
}
