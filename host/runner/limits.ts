/**
 * What a hook may use, as the runner enforces it. The runner owns these
 * shapes; `host/config` composes them into `hook.json` and the operator
 * config.
 */
import * as z from 'zod';

/**
 * hookbox's largest per-call deadline (`timeoutMs`), 600 s: also Claude
 * Code's and Codex's default command-hook timeout, which imported shell hooks
 * keep when they set none.
 */
export const MAX_TIMEOUT_MS = 600_000;

/** Limits every hook runs with when neither the manifest nor the operator sets one. */
export const DEFAULT_LIMITS = { timeoutMs: 1000, memoryMb: 64, maxOutputBytes: 1_048_576 } as const;

/** Limits a hook asks for (manifest) or an operator sets (config). Every hook always runs with all of them set. */
export const HookLimitsSchema = z.strictObject({
  /** Wall-clock deadline per call, enforced by the host. */
  timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  /** Cap on the guest's linear memory. */
  memoryMb: z.number().int().positive().max(4096).optional(),
  /** Largest output a call may return. */
  maxOutputBytes: z.number().int().positive().max(64 * 1024 * 1024).optional(),
  /** Deterministic instruction budget for engines that support one (the hookbox JS engine does). */
  instructionBudget: z.number().int().positive().optional(),
});
/** Limits a hook runs with; unset ones take `DEFAULT_LIMITS`. */
export type HookLimits = z.infer<typeof HookLimitsSchema>;

/**
 * One directory grant's guest side: the guest path (read-only), or
 * `{ "path": "/guest/path", "write": true }` to let the hook change files.
 */
export const PathGrantSchema = z.union([
  z.string().min(1),
  z.strictObject({
    /** The guest path the directory appears under. */
    path: z.string().min(1),
    /** Whether the hook may create, write, rename and delete under it (default false: read-only). */
    write: z.boolean().optional(),
  }),
]);
export type PathGrant = z.infer<typeof PathGrantSchema>;

/** A path grant as the guest path and whether it is writable. */
export function pathGrant(grant: PathGrant): { guest: string; write: boolean } {
  return typeof grant === 'string' ? { guest: grant, write: false } : { guest: grant.path, write: grant.write === true };
}

/** Capabilities are deny-by-default; a manifest requests them and the operator grants them. */
export const CapabilitiesSchema = z.strictObject({
  /** Hosts the hook may reach over Extism HTTP (exact names or `*.example.com`). */
  allowedHosts: z.array(z.string().min(1)).optional(),
  /**
   * Host directories mapped into the guest: `{ "host/path": "/guest/path" }`
   * (read-only) or `{ "host/path": { "path": "/guest/path", "write": true } }`.
   */
  allowedPaths: z.record(z.string(), PathGrantSchema).optional(),
  /** Environment variable names visible to the guest through WASI. */
  env: z.array(z.string().min(1)).optional(),
  /** Whether the guest may read a real clock through WASI. */
  clock: z.boolean().optional(),
  /**
   * The operator's signals (declared in the config's `signals`) the hook may read by name. The
   * operator's alone: a manifest requests `["*"]` (whatever is granted) or names, never declares one.
   */
  signals: z.array(z.string().regex(/^(\*|[a-z0-9][a-z0-9._-]{0,63})$/, 'a signal name (or "*" in a manifest)')).optional(),
});
/** What a hook may reach beyond its own memory; empty = nothing. */
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
