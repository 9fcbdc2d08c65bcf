/**
 * prompt-guard's pure policy: a prompt holding a secret is blocked (the
 * reason names the kinds only); any other prompt is allowed with the
 * project's conventions as additional context. The block is the `secrets`
 * catalog policy's block-prompt rule (one implementation), in this example's
 * words.
 */
import { promptSecretKinds } from '../policies/secrets/rules.ts';

/** What prompt-guard decides about one prompt (the hook maps it to a PDK decision). */
export type PromptVerdict =
  | { readonly action: 'block'; readonly reason: string }
  | { readonly action: 'allow'; readonly additionalContext?: string };

/**
 * Judges one submitted prompt.
 *
 * @example
 * ```ts
 * judgePrompt('deploy with key AKIAABCDEFGHIJKLMNOP', undefined);
 * // → { action: 'block', reason: 'prompt-guard: the prompt contains a secret (1 aws-access-key-id); …' }
 * judgePrompt('fix the tests', 'Use pnpm.'); // → { action: 'allow', additionalContext: 'Use pnpm.' }
 * ```
 */
export function judgePrompt(content: string, conventions: string | undefined): PromptVerdict {
  const kinds = promptSecretKinds(content);
  if (kinds !== undefined) {
    return {
      action: 'block',
      reason:
        `prompt-guard: the prompt contains a secret (${kinds}); it was not sent to the model. ` +
        'Remove it and refer to the secret by name (e.g. an environment variable) instead.',
    };
  }
  const context = conventions?.trim();
  return context === undefined || context === '' ? { action: 'allow' } : { action: 'allow', additionalContext: context };
}
