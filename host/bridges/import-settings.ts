import * as z from 'zod';
import { PERMISSION_BEHAVIOURS, type PermissionRules, compileRule } from './permission-rules.ts';

/** The config entry an importer writes for a settings file's `permissions`: a native rule hook. */
export interface PermissionsEntry {
  name: string;
  permissions: PermissionRules;
}

/** A settings-file field the importer did not carry over, and why (always reported, never dropped silently). */
export interface RefusedSetting {
  readonly at: string;
  readonly what: string;
  readonly why: string;
  /** A deny or ask rule that is not enforced: the report puts it first, as a warning. */
  readonly weakens: boolean;
}

/** The `permissions` and `env` sections of a Claude Code settings file (other keys are reported). */
export const SettingsSchema = z.looseObject({
  permissions: z
    .looseObject({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
    })
    .optional(),
  // Claude Code's env values are strings; numbers and booleans are written as the shell would see them.
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
type Settings = z.infer<typeof SettingsSchema>;

/** The name the permissions entry gets in the written config. */
export const PERMISSIONS_HOOK_NAME = 'claude-permissions';

/** Permission fields with no hookbox meaning: reported, not imported. A Map, so a key like `constructor` finds nothing inherited. */
const PERMISSION_FIELDS_NOT_IMPORTED: ReadonlyMap<string, string> = new Map([
  ['defaultMode', 'hookbox has no permission modes: tool calls run unless a hook denies or asks'],
  ['additionalDirectories', "hookbox's tools are not confined to directories; use a deny rule or a hook"],
  ['disableBypassPermissionsMode', 'hookbox has no bypass mode to disable'],
]);

/**
 * A settings file's `permissions` as one rule entry: every rule that can be
 * enforced, in its list's order (deny, then ask, then allow are checked in
 * that order at run time, as Claude Code does); every rule that cannot is
 * refused with the reason — a refused deny or ask rule is flagged as
 * weakening the policy. `root` is where `/path` patterns start.
 */
export function importPermissions(settings: Settings, root: string): { entry?: PermissionsEntry; refused: RefusedSetting[] } {
  const refused: RefusedSetting[] = [];
  const permissions = settings.permissions;
  if (permissions === undefined) return { refused };
  for (const key of Object.keys(permissions)) {
    if ((PERMISSION_BEHAVIOURS as readonly string[]).includes(key)) continue;
    refused.push({ at: `permissions.${key}`, what: `"${key}"`, why: PERMISSION_FIELDS_NOT_IMPORTED.get(key) ?? 'not a permissions field hookbox reproduces', weakens: false });
  }
  const rules: PermissionRules = { root };
  let count = 0;
  for (const behaviour of PERMISSION_BEHAVIOURS) {
    const kept: string[] = [];
    (permissions[behaviour] ?? []).forEach((rule, index) => {
      const at = `permissions.${behaviour}[${index}]`;
      const compiled = compileRule(behaviour, rule, at, root);
      if ('why' in compiled) {
        refused.push({ at, what: `${behaviour} rule ${JSON.stringify(rule)}`, why: compiled.why, weakens: behaviour !== 'allow' });
        return;
      }
      kept.push(rule);
    });
    if (kept.length > 0) rules[behaviour] = kept;
    count += kept.length;
  }
  return count === 0 ? { refused } : { entry: { name: PERMISSIONS_HOOK_NAME, permissions: rules }, refused };
}

/** A settings file's `env`, as the variables every imported shell hook gets. */
export function importEnv(settings: Settings): Record<string, string> {
  return Object.fromEntries(Object.entries(settings.env ?? {}).map(([name, value]) => [name, String(value)]));
}
