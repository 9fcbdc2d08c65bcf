/**
 * The secret detector shared by `secret-redactor` (post-tool) and
 * `prompt-guard` (prompt-submit). Pure, portable ES2020: it runs in Node for
 * the unit tests and inside the QuickJS engine of a compiled hook.
 *
 * Nothing here ever returns a secret's value except inside the redacted text
 * it was found in: callers get kinds and counts, never matches.
 */

/** Every kind of secret the detector knows, in the order the rules run. */
export const SECRET_KINDS = [
  'private-key',
  'aws-secret-access-key',
  'aws-access-key-id',
  'github-token',
  'gitlab-token',
  'slack-token',
  'jwt',
  'env-secret',
] as const;
/** One kind of secret, named in `[REDACTED:<kind>]` markers and in reasons. */
export type SecretKind = (typeof SECRET_KINDS)[number];

/** How many secrets of each kind were found; kinds not found are absent. */
export type SecretCounts = Partial<Record<SecretKind, number>>;

/** The result of {@link redactSecrets}. */
export interface Redaction {
  /** The text with every secret replaced by `[REDACTED:<kind>]`. */
  readonly content: string;
  readonly counts: SecretCounts;
  /** Sum of `counts`. */
  readonly total: number;
}

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

interface Rule {
  readonly kind: SecretKind;
  readonly pattern: RegExp;
  /**
   * Replacement for one match. Rules that redact only a value (assignments)
   * keep the name and separator so the reader still sees what was set.
   */
  readonly replace: (match: string, groups: readonly (string | undefined)[]) => string | undefined;
  /**
   * A cheap test on the text (and its lower-case copy) that must pass for the
   * rule to possibly match: native `indexOf` scans skip the regex entirely on
   * most outputs, which matters in the hook's interpreted engine.
   */
  readonly mayMatch: (text: string, lower: string) => boolean;
}

const containsAny = (text: string, needles: readonly string[]) => needles.some((n) => text.indexOf(n) >= 0);

const whole = (kind: SecretKind) => () => redactionMarker(kind);

// Key-name tests for `.env`-style assignments. `_KEY` only counts in
// upper-case (env) names: `sort_key=name` in code is not a secret.
function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (/SECRET|PASSWORD|PASSWD|PASSPHRASE|PRIVATE_KEY/.test(upper)) return true;
  if (/(^|_)(TOKEN|PAT)$/.test(upper) || /_TOKEN_/.test(upper)) return true;
  if (name === upper && /(^|_)(API_?)?KEY$/.test(upper)) return true;
  return /(^|_)API_?KEY$/.test(upper);
}

// A value that is a reference or already redacted is not a secret.
function isSecretValue(value: string): boolean {
  if (value.length === 0) return false;
  if (value.startsWith('[REDACTED:')) return false;
  // `$VAR`, `${VAR}`, `$VAR/x`: a reference (bcrypt's `$2b$…` starts with a digit and stays a secret).
  if (/^\$\{?[A-Za-z_]/.test(value)) return false;
  if (/^\*+$/.test(value) || /^<[^>]*>$/.test(value)) return false;
  return true;
}

/**
 * The rules in the order they run. Each runs on the output of the previous
 * one, so a token inside an assignment (`GITHUB_TOKEN=ghp_…`) is reported as
 * its specific kind and the generic assignment rule then skips the marker.
 */
const RULES: readonly Rule[] = [
  {
    kind: 'private-key',
    // A whole PEM block; an unterminated block (a truncated `cat`) is
    // redacted to the end of the text rather than leaked.
    pattern:
      /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----|[\s\S]*$)/g,
    replace: whole('private-key'),
    mayMatch: (text) => text.indexOf('PRIVATE KEY') >= 0,
  },
  {
    kind: 'aws-secret-access-key',
    pattern: /(aws_secret_access_key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (_m, g) => `${g[0] ?? ''}${redactionMarker('aws-secret-access-key')}`,
    mayMatch: (_text, lower) => lower.indexOf('aws_secret_access_key') >= 0,
  },
  {
    kind: 'aws-access-key-id',
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g,
    replace: whole('aws-access-key-id'),
    mayMatch: (text) => containsAny(text, ['AKIA', 'ASIA']),
  },
  {
    kind: 'github-token',
    pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})(?![A-Za-z0-9_])/g,
    replace: whole('github-token'),
    mayMatch: (text) => containsAny(text, ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_']),
  },
  {
    kind: 'gitlab-token',
    pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g,
    replace: whole('gitlab-token'),
    mayMatch: (text) => text.indexOf('glpat-') >= 0,
  },
  {
    kind: 'slack-token',
    pattern: /(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}/g,
    replace: whole('slack-token'),
    mayMatch: (text) => text.indexOf('xox') >= 0,
  },
  {
    kind: 'jwt',
    // header.payload.signature, both JSON parts start `{"` = `eyJ` in base64url.
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
    replace: whole('jwt'),
    mayMatch: (text) => text.indexOf('eyJ') >= 0,
  },
  {
    kind: 'env-secret',
    // NAME=value at a line start or after whitespace/`;` (so `export X=…` too);
    // the value may be quoted. `==` is a comparison, not an assignment.
    pattern:
      /(^|[\s;,{(])(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\2([ \t]*[:]?=(?!=)[ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s"'`;,)}]+)/gm,
    replace: (_m, g) => {
      const [lead = '', quote = '', name = '', sep = '', rawValue = ''] = g;
      const quoted = rawValue.length >= 2 && (rawValue[0] === '"' || rawValue[0] === "'");
      const value = quoted ? rawValue.slice(1, -1) : rawValue;
      if (!isSecretName(name) || !isSecretValue(value)) return undefined;
      // `token = getToken()` is code, `password = hunter2` (INI) is a secret: with spaces
      // around `=`, an unquoted value must look like a literal (a digit, no call/member syntax).
      if (/\s/.test(sep) && !quoted && !/^(?=.*\d)(?!\d+$)[^()[\]{}.]+$/.test(value)) return undefined;
      const marker = redactionMarker('env-secret');
      return `${lead}${quote}${name}${quote}${sep}${quoted ? `${rawValue[0]}${marker}${rawValue[0]}` : marker}`;
    },
    // Every name `isSecretName` accepts contains one of these (lower-cased).
    mayMatch: (text, lower) => text.indexOf('=') >= 0 && containsAny(lower, ['secret', 'passw', 'passphrase', 'private_key', 'token', 'pat', 'key']),
  },
];

/**
 * Replaces every secret in `text` with `[REDACTED:<kind>]` and counts them.
 *
 * @example
 * ```ts
 * redactSecrets('token: ghp_0123456789abcdefghijABCDEFGHIJ012345');
 * // → { content: 'token: [REDACTED:github-token]', counts: { 'github-token': 1 }, total: 1 }
 * ```
 */
export function redactSecrets(text: string): Redaction {
  const counts: SecretCounts = {};
  let total = 0;
  let content = text;
  let lower = text.toLowerCase();
  for (const rule of RULES) {
    if (!rule.mayMatch(content, lower)) continue;
    rule.pattern.lastIndex = 0;
    const before = total;
    content = content.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // `rest` is (...groups, offset, whole string): groups end at the offset.
      const groups = rest.slice(0, rest.findIndex((x) => typeof x === 'number')) as (string | undefined)[];
      const replacement = rule.replace(match, groups);
      if (replacement === undefined) return match;
      counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
      total += 1;
      return replacement;
    });
    if (total !== before) lower = content.toLowerCase();
  }
  return { content, counts, total };
}

/**
 * The kinds of secret found in `text` with their counts, without the text.
 *
 * @example
 * ```ts
 * detectSecrets('AWS_SECRET_ACCESS_KEY=…'); // → { 'aws-secret-access-key': 1 }
 * ```
 */
export function detectSecrets(text: string): SecretCounts {
  return redactSecrets(text).counts;
}

/**
 * A human summary of counts that names kinds only, e.g. `2 github-token, 1 jwt`
 * (in rule order, so the text is deterministic).
 */
export function describeSecretCounts(counts: SecretCounts): string {
  const parts: string[] = [];
  for (const kind of SECRET_KINDS) {
    const n = counts[kind];
    if (n !== undefined && n > 0) parts.push(`${n} ${kind}`);
  }
  return parts.join(', ');
}
