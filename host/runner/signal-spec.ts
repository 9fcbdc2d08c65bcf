/**
 * A signal as the operator declares it in the config (`signals.<name>`):
 * a fixed argv run without a shell, in a folder, under a timeout, its output
 * capped. The hook that is granted it names it; it never chooses what runs.
 */
import * as z from 'zod';

/** A signal's name: what a grant lists and a hook asks for. */
export const SignalNameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'a lowercase name of letters, digits, ".", "_" or "-" (at most 64)');

/** Largest output cap (per stream) a signal may declare: what crosses to the guest is bounded. */
export const MAX_SIGNAL_OUTPUT_BYTES = 1_048_576;
/** Longest timeout a signal may declare. */
export const MAX_SIGNAL_TIMEOUT_MS = 600_000;

/** One `signals` entry of the operator config. */
export const SignalDeclarationSchema = z.strictObject({
  /** The program and its arguments, run as they are (no shell: no globs, pipes or variables). */
  argv: z.array(z.string().min(1)).min(1),
  /** The working folder, relative to the config file's folder (the project, for the project's config). Default: that folder. */
  cwd: z.string().min(1).optional(),
  /** The run is killed (with its process group) after this long; the hook's call then faults `timeout`. */
  timeoutMs: z.number().int().positive().max(MAX_SIGNAL_TIMEOUT_MS).default(30_000),
  /** Bytes of stdout and of stderr kept, each; the rest is read and dropped. */
  maxOutputBytes: z.number().int().positive().max(MAX_SIGNAL_OUTPUT_BYTES).default(65_536),
});
export type SignalDeclaration = z.infer<typeof SignalDeclarationSchema>;

/** A declared signal with its folder absolute: what the runner runs. Structured-cloneable. */
export interface SignalSpec {
  readonly name: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** Where it was declared (`/p/hookbox.config.json: signals.lint`), for messages. */
  readonly declaredAt: string;
}

/** What a hook reads back from a signal (JSON across the host function). */
export interface SignalOutput {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
}
