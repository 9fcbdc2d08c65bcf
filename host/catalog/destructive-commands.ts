import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

const RULES = ['infrastructure', 'cloud', 'kubernetes', 'database', 'unreadable', 'config-error'] as const;

/** `destructive-commands`' config (what `examples-hooks/policies/destructive-commands/rules.ts` reads, defaults filled in). */
export const DestructiveCommandsConfigSchema = z.strictObject({
  /** What a destructive command gets: `deny`, or `ask` (the user decides). */
  action: z.enum(['deny', 'ask']).default('deny'),
  /** Rules left out (`["kubernetes"]` where the agent may delete pods). */
  allow: z.array(z.enum(['infrastructure', 'cloud', 'kubernetes', 'database'])).default([]),
});

export const DESTRUCTIVE_COMMANDS: CatalogPolicy = {
  name: 'destructive-commands',
  summary: 'denies (or asks for) terraform destroy, cloud deletes (aws s3 rm --recursive, gcloud/az … delete), kubectl delete, helm uninstall, and DROP/TRUNCATE sent through psql, mysql and the like',
  seams: ['tools/pre-execute'],
  rules: [...RULES],
  configSchema: DestructiveCommandsConfigSchema,
  example: { action: 'deny', allow: [] },
};
