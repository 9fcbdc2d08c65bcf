import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** `server` (all its tools), `server/tool`; `*` in either part. */
const PatternSchema = z
  .string()
  .trim()
  .regex(/^[\w.*-]+(?:\/[\w.*-]+)?$/, 'a server name or server/tool, with * for any characters');

/** `mcp-allowlist`'s config (what `examples-hooks/policies/mcp-allowlist/rules.ts` reads, defaults filled in). */
export const McpAllowlistConfigSchema = z
  .strictObject({
    /** When set, every MCP tool called must match one of these. */
    allow: z.array(PatternSchema).default([]),
    /** MCP servers and tools never called (checked first). */
    deny: z.array(PatternSchema).default([]),
    /** What an MCP tool outside a non-empty allow list gets. */
    unlisted: z.enum(['deny', 'ask']).default('deny'),
  })
  .refine((config) => config.allow.length > 0 || config.deny.length > 0, 'list servers or tools in allow, deny or both');

export const MCP_ALLOWLIST: CatalogPolicy = {
  name: 'mcp-allowlist',
  summary: 'denies or asks for MCP servers and tools (mcp__<server>__<tool>) by allow list and deny list',
  seams: ['tools/pre-execute'],
  rules: ['denied', 'unlisted', 'config-error'],
  configSchema: McpAllowlistConfigSchema,
  example: { allow: ['github/get_*', 'github/list_*', 'context7'], deny: ['github/delete_*'], unlisted: 'ask' },
};
