import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** `example.com` (that host), `*.example.com` (its subdomains), `*` (any). */
const HostPatternSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:\*|(?:\*\.)?[a-z0-9.-]+|\[[0-9a-f:]+\])$/, 'a host (example.com), *.example.com for its subdomains, or *');

/** `network-egress`' config (what `examples-hooks/policies/network-egress/rules.ts` reads, defaults filled in). */
export const NetworkEgressConfigSchema = z
  .strictObject({
    /** When set, every host a call reaches must match one of these. */
    allow: z.array(HostPatternSchema).default([]),
    /** Hosts no call may reach (checked first). */
    deny: z.array(HostPatternSchema).default([]),
    /** What a host outside a non-empty allow list gets. */
    unlisted: z.enum(['deny', 'ask']).default('deny'),
  })
  .refine((config) => config.allow.length > 0 || config.deny.length > 0, 'list hosts in allow, deny or both');

export const NETWORK_EGRESS: CatalogPolicy = {
  name: 'network-egress',
  summary: 'denies or asks for hosts reached by shell downloaders (curl, wget, git, ssh, nc), fetch tools (WebFetch, web_fetch) and MCP tools, by allow list and deny list',
  seams: ['tools/pre-execute'],
  rules: ['denied-host', 'unlisted-host', 'unreadable', 'config-error'],
  configSchema: NetworkEgressConfigSchema,
  example: { allow: ['github.com', '*.github.com', 'registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org'], deny: ['pastebin.com', '*.ngrok.io'], unlisted: 'ask' },
};
