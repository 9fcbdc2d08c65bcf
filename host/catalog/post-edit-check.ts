import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** A signal's name as the config declares it (host/runner/signal-spec.ts; the catalog sits below the runner). */
export const SignalRefSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'the name of a signal the config declares in "signals"');

/** `post-edit-check`'s config (what `examples-hooks/policies/post-edit-check/rules.ts` reads). */
export const PostEditCheckConfigSchema = z.strictObject({
  /** The declared signal that checks the project (a linter, a type-check); the entry must grant it (`grant.signals`). */
  signal: SignalRefSchema,
  /** A failing check: `context` tells the model (the result goes on), `block` withholds the result with the failure as the reason. */
  onFailure: z.enum(['context', 'block']).default('context'),
  /** Characters of the check's (cleaned) output passed on. */
  maxChars: z.number().int().min(200).max(20_000).default(4000),
});

export const POST_EDIT_CHECK: CatalogPolicy = {
  name: 'post-edit-check',
  summary: 'after a tool changed a file, runs the operator\'s check signal (a linter) and gives its failure to the model as context, or blocks the result',
  seams: ['tools/post-execute'],
  rules: ['failed', 'config-error'],
  configSchema: PostEditCheckConfigSchema,
  example: { signal: 'lint', onFailure: 'context', maxChars: 4000 },
  signals: (config) => [(config as { signal: string }).signal],
};
