import * as z from 'zod';

/** Every way a hook can fail, as recorded in the audit log and returned by `hookbox call`. */
export const HookFaultKindSchema = z.enum([
  'timeout',
  'trap',
  'memory',
  'output-too-large',
  'decode',
  'schema',
  'plugin-error',
  'missing-export',
  'load',
]);
/** The kind of a hook fault: a closed set. */
export type HookFaultKind = z.infer<typeof HookFaultKindSchema>;

export const HookFaultSchema = z.strictObject({
  kind: HookFaultKindSchema,
  message: z.string(),
});
/** A hook failure as a value: the sandbox boundary never throws into the loop. */
export type HookFault = z.infer<typeof HookFaultSchema>;

/** How a seam treats a failing hook: `closed` applies the seam's restrictive fault decision, `open` passes `next` through. */
export const FailPolicySchema = z.enum(['closed', 'open']);
/** `closed` (the seam's restrictive fault decision) or `open` (pass `next` through). */
export type FailPolicy = z.infer<typeof FailPolicySchema>;

export function hookFault(kind: HookFaultKind, message: string): HookFault {
  return { kind, message };
}
