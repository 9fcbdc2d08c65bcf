/**
 * secrets' pure policy: redacts secrets from tool output, blocks prompts
 * holding one, and refuses a tool call that would write one into a file or
 * carries one in a shell command — with the detectors the example hooks use
 * (`examples-hooks/shared/secrets.ts`, one implementation). Reasons (and the
 * redaction note) start `secrets: <rule>:`; they name kinds, never values.
 */
import { describeSecretCounts, detectSecrets, redactSecrets } from '../../shared/secrets.ts';
import { SHELL_TOOLS } from '../shared/shell-walk.ts';
import { callTargets } from '../shared/tool-targets.ts';

export const RULES = ['redact-output', 'block-prompt', 'write-secret', 'command-secret', 'config-error'] as const;

/** The config as the host validated it (defaults filled in): `host/catalog/secrets.ts`. */
export interface SecretsConfig {
  readonly redactOutput: boolean;
  readonly blockPrompts: boolean;
  readonly refuseWrites: boolean;
}

export function parseConfig(raw: string | undefined): SecretsConfig | { error: string } {
  try {
    const parsed = JSON.parse(raw ?? '') as SecretsConfig;
    for (const key of ['redactOutput', 'blockPrompts', 'refuseWrites'] as const) if (typeof parsed[key] !== 'boolean') return { error: `${key}: expected a boolean` };
    return parsed;
  } catch {
    return { error: 'the policy config is not JSON' };
  }
}

/**
 * The redact-output rule: a text's secrets replaced by `[REDACTED:<kind>]`, with their counts, or
 * `undefined` when it holds none. The secret-redactor example hook is built on it.
 */
export function outputRedaction(content: string): ReturnType<typeof redactSecrets> | undefined {
  const redaction = redactSecrets(content);
  return redaction.total === 0 ? undefined : redaction;
}

/**
 * The block-prompt rule: the kinds of secret a prompt holds (`1 aws-access-key-id`), or
 * `undefined` when it holds none. The prompt-guard example hook is built on it.
 */
export function promptSecretKinds(content: string): string | undefined {
  const kinds = describeSecretCounts(detectSecrets(content));
  return kinds === '' ? undefined : kinds;
}

/** A tool result with its secrets replaced by `[REDACTED:<kind>]`, or `undefined` when it holds none. */
export function redactOutput(toolName: string, content: string): { content: string; note: string } | undefined {
  const redaction = outputRedaction(content);
  if (redaction === undefined) return undefined;
  return {
    content: redaction.content,
    note: `secrets: redact-output: ${redaction.total} secret(s) redacted from the ${toolName} result (${describeSecretCounts(redaction.counts)}); refer to them by name, do not try to recover them`,
  };
}

/** The block reason for a prompt holding a secret, or `undefined`. */
export function judgePrompt(content: string): string | undefined {
  const kinds = promptSecretKinds(content);
  return kinds === undefined ? undefined : `secrets: block-prompt: the prompt contains a secret (${kinds}); it was not sent to the model — refer to it by name (an environment variable) instead`;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The deny reason for a call that writes a secret into a file or carries one in a shell command, or `undefined`. */
export function judgeCall(toolName: string, args: Record<string, unknown>): string | undefined {
  if (SHELL_TOOLS.has(toolName)) {
    const command = typeof args.command === 'string' ? args.command : Array.isArray(args.command) ? args.command.join(' ') : str(args.cmd);
    const kinds = describeSecretCounts(detectSecrets(command));
    return kinds === '' ? undefined : `secrets: command-secret: the ${toolName} command holds a secret (${kinds}); read it from the environment instead of writing it out`;
  }
  const targets = callTargets(toolName, args).targets.filter((t) => t.op === 'write');
  if (targets.length === 0) return undefined;
  // What the call writes: a write/edit tool's content, or the whole patch (its added lines).
  const written = [args.content, args.new_string, args.new_str, args.new_source, args.file_text, args.command, args.patch, args.input].map(str).join('\n');
  const kinds = describeSecretCounts(detectSecrets(written));
  if (kinds === '') return undefined;
  return `secrets: write-secret: ${toolName} would write a secret (${kinds}) into ${JSON.stringify(targets[0]?.path)}; keep secrets out of files the agent writes`;
}
