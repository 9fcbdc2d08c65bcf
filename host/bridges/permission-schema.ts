/**
 * The shape of a settings file's `permissions` (Claude Code's rule lists), apart
 * from the rule compiler (permission-rules.ts, which loads picomatch): the
 * operator config's schema needs only this, and so does every command that
 * reads the config (`hookbox call` included).
 */
import * as z from 'zod';

/** Claude Code's `permissions` lists, in the order Claude Code checks them: a deny wins over an ask, an ask over an allow. */
export const PERMISSION_BEHAVIOURS = ['deny', 'ask', 'allow'] as const;
export type PermissionBehaviour = (typeof PERMISSION_BEHAVIOURS)[number];

/** The rule lists of a settings file's `permissions`, and the directory `/path` rules are relative to. */
export const PermissionRulesSchema = z.strictObject({
  deny: z.array(z.string().min(1)).optional(),
  ask: z.array(z.string().min(1)).optional(),
  allow: z.array(z.string().min(1)).optional(),
  /** Where `/path` patterns start (the project the settings file belongs to); relative to the config file. */
  root: z.string().min(1),
});
export type PermissionRules = z.infer<typeof PermissionRulesSchema>;
