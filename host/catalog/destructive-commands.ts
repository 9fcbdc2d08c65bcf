import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** The rules a config may leave out: the cloud and database ones, then the fixed command rules it shares with the guard-bash example. */
const OPTIONAL_RULES = ['infrastructure', 'cloud', 'kubernetes', 'database', 'recursive-delete', 'chmod-777', 'block-device-write', 'fork-bomb', 'obfuscated-script'] as const;
const RULES = [...OPTIONAL_RULES, 'unreadable', 'config-error'] as const;

/** `destructive-commands`' config (what `examples-hooks/policies/destructive-commands/rules.ts` reads, defaults filled in). */
export const DestructiveCommandsConfigSchema = z.strictObject({
  /** What a destructive command gets: `deny`, or `ask` (the user decides). */
  action: z.enum(['deny', 'ask']).default('deny'),
  /** Rules left out (`["kubernetes"]` where the agent may delete pods). */
  allow: z.array(z.enum(OPTIONAL_RULES)).default([]),
});

export const DESTRUCTIVE_COMMANDS: CatalogPolicy = {
  name: 'destructive-commands',
  summary: 'denies (or asks for) terraform destroy, cloud deletes (aws s3 rm --recursive, gcloud/az … delete), kubectl delete, helm uninstall, DROP/TRUNCATE sent through psql, mysql and the like, and rm -rf of / ~ or the workspace, chmod -R 777, writes to block devices, fork bombs',
  seams: ['tools/pre-execute'],
  rules: [...RULES],
  configSchema: DestructiveCommandsConfigSchema,
  example: { action: 'deny', allow: [] },
};
