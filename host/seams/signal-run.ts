/**
 * One signal run as a hook invocation reports it and the session log keeps
 * it (`hook/invoke`'s `signals`). Here, below both `host/events` and
 * `host/log`, because the invocation carries it and the log's schema checks
 * it. A signal is an operator-declared command a granted hook reads the
 * output of (host/runner/signal-*.ts).
 */
import * as z from 'zod';

export const SignalRunSchema = z.strictObject({
  /** The signal's declared name (`lint`). */
  name: z.string(),
  /** The program the signal runs (`argv[0]`), for the reader of the log; the whole argv is in the config. */
  program: z.string(),
  /** The exit code; `null` when it was killed (its timeout) or never started. */
  exitCode: z.number().int().nullable(),
  /** How long the run took, in µs (`0` for a run another hook of the same event already made). */
  durationUs: z.number().nonnegative(),
  /** Bytes of stdout and stderr kept (each capped at the signal's `maxOutputBytes`). */
  stdoutBytes: z.number().int().nonnegative(),
  stderrBytes: z.number().int().nonnegative(),
  /** Whether stdout or stderr was cut at the cap. */
  truncated: z.boolean(),
  timedOut: z.boolean(),
  /** Why it did not run: a spawn error (`ENOENT`…), a refused name. */
  error: z.string().optional(),
  /** `true` when an earlier hook of the same event ran it and this one got that run's output. */
  shared: z.boolean(),
});
/** One signal run, as logged. */
export type SignalRun = z.infer<typeof SignalRunSchema>;
