/**
 * secret-redactor's pure policy: redacts secrets from a tool result and
 * explains what was redacted by kind and count — never by value. The rule is
 * the `secrets` catalog policy's redact-output (one implementation); this
 * example words its note its own way.
 */
import { outputRedaction } from '../policies/secrets/rules.ts';
import { describeSecretCounts, type SecretCounts } from '../shared/secrets.ts';

/** What to send on when a result held secrets. */
export interface RedactedResult {
  /** The result content with each secret replaced by `[REDACTED:<kind>]`. */
  readonly content: string;
  /** Model-facing note naming the kinds and counts redacted. */
  readonly additionalContext: string;
  readonly counts: SecretCounts;
  readonly total: number;
}

/**
 * Redacts a tool result's content; `undefined` when it holds no secret (the
 * hook then has no opinion).
 *
 * @example
 * ```ts
 * redactToolResult('bash', 'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\n');
 * // → { content: 'GITHUB_TOKEN=[REDACTED:github-token]\n',
 * //     additionalContext: 'secret-redactor: redacted 1 secret from the bash result (1 github-token). …', … }
 * ```
 */
export function redactToolResult(toolName: string, content: string): RedactedResult | undefined {
  const redaction = outputRedaction(content);
  if (redaction === undefined) return undefined;
  const noun = redaction.total === 1 ? 'secret' : 'secrets';
  const additionalContext =
    `secret-redactor: redacted ${redaction.total} ${noun} from the ${toolName} result ` +
    `(${describeSecretCounts(redaction.counts)}). The values were replaced with [REDACTED:<kind>] markers; ` +
    'do not try to recover or print them — refer to them by name (e.g. the environment variable) instead.';
  return { content: redaction.content, additionalContext, counts: redaction.counts, total: redaction.total };
}

/** The one-line log record for a redaction: tool, counts and kinds, never values. */
export function redactionLogLine(toolName: string, toolCallId: string, result: RedactedResult): string {
  return `secret-redactor: ${toolName} call ${toolCallId}: redacted ${result.total} (${describeSecretCounts(result.counts)})`;
}
