/**
 * What a hook may use, as the runner enforces it. The runner owns these
 * shapes; `host/config` composes them into `hook.json` and the operator
 * config.
 */
import { z } from 'zod';

/** Limits a hook asks for (manifest) or an operator sets (config). Every hook always runs with all of them set. */
export const HookLimitsSchema = z.strictObject({
  /** Wall-clock deadline per call, enforced by the host. */
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  /** Cap on the guest's linear memory. */
  memoryMb: z.number().int().positive().max(4096).optional(),
  /** Largest output a call may return. */
  maxOutputBytes: z.number().int().positive().max(64 * 1024 * 1024).optional(),
  /** Deterministic instruction budget for engines that support one (the hookbox JS engine does). */
  instructionBudget: z.number().int().positive().optional(),
});
export type HookLimits = z.infer<typeof HookLimitsSchema>;

/** Capabilities are deny-by-default; a manifest requests them and the operator grants them. */
export const CapabilitiesSchema = z.strictObject({
  /** Hosts the hook may reach over Extism HTTP (exact names or `*.example.com`). */
  allowedHosts: z.array(z.string().min(1)).optional(),
  /** Host directories mapped into the guest: `{ "host/path": "/guest/path" }`. */
  allowedPaths: z.record(z.string(), z.string()).optional(),
  /** Environment variable names visible to the guest through WASI. */
  env: z.array(z.string().min(1)).optional(),
  /** Whether the guest may read a real clock through WASI. */
  clock: z.boolean().optional(),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
