import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** `secrets`' config (what `examples-hooks/policies/secrets/rules.ts` reads, defaults filled in). */
export const SecretsConfigSchema = z.strictObject({
  /** Replace secrets in every tool result with `[REDACTED:<kind>]` (tools/post-execute). */
  redactOutput: z.boolean().default(true),
  /** Block a prompt holding a secret before the model sees it (agent/prompt-submit). */
  blockPrompts: z.boolean().default(true),
  /** Deny a write/edit/patch that writes a secret into a file, and a shell command holding one (tools/pre-execute). */
  refuseWrites: z.boolean().default(true),
});

export const SECRETS: CatalogPolicy = {
  name: 'secrets',
  summary: 'redacts secrets from tool output, blocks prompts holding one, refuses writing one into a file or a shell command',
  seams: ['tools/pre-execute', 'tools/post-execute', 'agent/prompt-submit'],
  rules: ['redact-output', 'block-prompt', 'write-secret', 'command-secret', 'config-error'],
  configSchema: SecretsConfigSchema,
  example: { redactOutput: true, blockPrompts: true, refuseWrites: true },
};
