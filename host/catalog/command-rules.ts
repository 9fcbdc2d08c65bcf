import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** One of `command-rules`' rules (what `examples-hooks/policies/command-rules/rules.ts` reads); `permission-requests` takes the same. */
export const CommandRuleSchema = z.strictObject({
  /** Words the normalised command starts with: `git push --force`; `*` any one word; a final `**` any rest. */
  command: z
    .string()
    .trim()
    .min(1, 'name at least the program')
    .refine((words) => !words.split(/\s+/).slice(0, -1).includes('**'), '"**" may only be the last word'),
  action: z.enum(['deny', 'ask', 'allow']),
  /** Shown to the agent with a deny or an ask. */
  reason: z.string().min(1).max(500).optional(),
});

/** `command-rules`' config. */
export const CommandRulesConfigSchema = z.strictObject({
  /** In order: for each program a command runs, the first rule whose words match decides it. */
  rules: z.array(CommandRuleSchema).min(1, 'list at least one rule'),
});

export const COMMAND_RULES: CatalogPolicy = {
  name: 'command-rules',
  summary: 'deny / ask / allow rules on every program a shell command runs (sudo, env, bash -c, $(…) and heredocs seen through), the most restrictive wins',
  seams: ['tools/pre-execute'],
  rules: ['deny', 'ask', 'allow', 'unreadable', 'config-error'],
  configSchema: CommandRulesConfigSchema,
  example: {
    rules: [
      { command: 'terraform destroy', action: 'deny', reason: 'infrastructure is destroyed by CI only' },
      { command: 'npm publish', action: 'deny' },
      { command: 'git push origin feature/*', action: 'allow' },
      { command: 'git push', action: 'ask', reason: 'pushes to a remote' },
    ],
  },
};
