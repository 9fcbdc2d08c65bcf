import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** `file-limits`' config (what `examples-hooks/policies/file-limits/rules.ts` reads, defaults filled in). */
export const FileLimitsConfigSchema = z.strictObject({
  /** Most UTF-8 bytes one call may write into one file (a patch: a file's added lines). */
  maxBytes: z.number().int().positive().default(1_000_000),
  /** What a write over `maxBytes` gets. */
  oversize: z.enum(['deny', 'ask']).default('deny'),
  /** What binary content (a NUL, or mostly control characters) gets. */
  binary: z.enum(['deny', 'ask', 'allow']).default('deny'),
});

export const FILE_LIMITS: CatalogPolicy = {
  name: 'file-limits',
  summary: 'denies or asks for a write over a size limit or of binary content, through write/edit tools, apply_patch and shell here-documents',
  seams: ['tools/pre-execute'],
  rules: ['size', 'binary', 'config-error'],
  configSchema: FileLimitsConfigSchema,
  example: { maxBytes: 200_000, oversize: 'ask', binary: 'deny' },
};
