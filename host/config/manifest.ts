import * as z from 'zod';
import { TOOL_PROTOCOLS } from '../bridges/protocol.ts';
import { CapabilitiesSchema, HookLimitsSchema } from '../runner/limits.ts';
import { PROTOCOL_VERSION, SEAM_IDS, type SeamId } from '../seams/index.ts';

const SeamIdSchema = z.enum(SEAM_IDS as [SeamId, ...SeamId[]]);

/**
 * The wire a hook speaks: hookbox's msgpack envelope (the protocol version,
 * `1`), or a coding agent's hook protocol (`"claude-code"`, `"codex"`: the
 * tool's JSON in, its output / exit code / stderr out).
 */
export const HookProtocolSchema = z.union([z.literal(PROTOCOL_VERSION), z.enum(TOOL_PROTOCOLS)], {
  error: `expected ${PROTOCOL_VERSION} (the hookbox wire), "claude-code" or "codex"`,
});
/** The wire a hook speaks: `1` (hookbox's msgpack envelope) or an agent protocol (`"claude-code"`, `"codex"`). */
export type HookProtocol = z.infer<typeof HookProtocolSchema>;

/** `hook.json`, shipped beside the wasm by the hook's author. */
export const HookManifestSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'a lowercase name of letters, digits, ".", "_" or "-"'),
  version: z.string().min(1),
  /** Wire protocol the hook speaks: hookbox's version `1`, or `"claude-code"` / `"codex"`. */
  protocol: HookProtocolSchema.default(PROTOCOL_VERSION),
  /** Path of the wasm, relative to the manifest. */
  wasm: z.string().min(1),
  /** Hex sha256 of the wasm bytes; a mismatch refuses to load. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a 64-digit lowercase hex sha256'),
  /** Seams handled; must be a subset of what the module exports. */
  seams: z.array(SeamIdSchema).min(1),
  /** Tool-name matchers (anchored regular expressions) for the tool seams. */
  tools: z.array(z.string().min(1)).optional(),
  limits: HookLimitsSchema.optional(),
  capabilities: CapabilitiesSchema.optional(),
  /** Config keys the hook reads, with a description of each. */
  config: z.record(z.string(), z.string()).optional(),
  description: z.string().optional(),
});
/** A parsed `hook.json`. */
export type HookManifest = z.infer<typeof HookManifestSchema>;
