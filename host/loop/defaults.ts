/**
 * The loop's defaults, used by the session, the tool registry and the CLI's
 * help texts alike.
 */
export const LOOP_DEFAULTS = {
  /** Steps (model calls) per turn before it ends with `max-steps`. */
  maxSteps: 25,
  /** The continuation loop guard: how many times hooks may force one turn on. */
  maxContinuations: 3,
  /** How long a pre-tool `ask` waits for the prompter before it degrades to deny. */
  askTimeoutMs: 60_000,
} as const;
