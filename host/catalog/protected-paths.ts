import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** `protected-paths`' config (what `examples-hooks/policies/protected-paths/rules.ts` reads). */
export const ProtectedPathsConfigSchema = z.strictObject({
  /**
   * Globs of paths no tool may write, edit, delete or move: `*`, `?`, `**`,
   * `{a,b}`; a bare name (`.env`) at any depth, a path with `/` relative to
   * the session's working folder, `/…` absolute, `~/…` under the home folder.
   */
  paths: z.array(z.string().trim().min(1, 'an empty glob protects nothing')).min(1, 'list at least one glob'),
});

export const PROTECTED_PATHS: CatalogPolicy = {
  name: 'protected-paths',
  summary: 'denies writing, editing, deleting or moving a path matching a glob, through any tool (write/edit tools, apply_patch, shell commands)',
  seams: ['tools/pre-execute'],
  rules: ['write', 'delete', 'move', 'unreadable', 'config-error'],
  configSchema: ProtectedPathsConfigSchema,
  example: { paths: ['.env', '.env.*', '.github/workflows/**', 'package-lock.json'] },
};
