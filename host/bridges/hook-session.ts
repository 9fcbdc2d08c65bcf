import { printable } from '../text/index.ts';

/**
 * What the session a shell hook runs in offers it, beyond the seam call:
 * the Claude Code-format transcript to name in `transcript_path`, a place to
 * show (and record) what a hook says to the user, and the environment
 * SessionStart hooks exported through `CLAUDE_ENV_FILE`. `hookbox run` gives
 * its shell hooks one (`ShellHook.attach`); without it a hook gets
 * `transcript_path: null` and its messages go to stderr.
 */
export interface ShellHookSession {
  /** The transcript of this session in Claude Code's JSONL format, if one is written. */
  transcriptPath(sessionId: string): string | undefined;
  /** Shows a hook's message to the user and records it in the session log (the text is hostile). */
  notice(hook: string, level: 'info' | 'warn' | 'error', message: string, sessionId: string): void;
  /** The variables exported so far through `CLAUDE_ENV_FILE` in this session. */
  exported(sessionId: string): Readonly<Record<string, string>>;
  /** Adds variables a SessionStart hook exported; they apply to later hooks (and, where wired, tools). */
  export(sessionId: string, vars: Readonly<Record<string, string>>): void;
}

/** Per-session exported variables, for a `ShellHookSession`. */
export class SessionExports {
  readonly #bySession = new Map<string, Record<string, string>>();

  get(sessionId: string): Readonly<Record<string, string>> {
    return this.#bySession.get(sessionId) ?? {};
  }

  add(sessionId: string, vars: Readonly<Record<string, string>>): void {
    this.#bySession.set(sessionId, { ...this.get(sessionId), ...vars });
  }
}

/** The session of a shell hook nobody attached: no transcript, messages on stderr (one sanitized line each). */
export function detachedSession(): ShellHookSession {
  const exports = new SessionExports();
  return {
    transcriptPath: () => undefined,
    notice: (hook, level, message) => {
      process.stderr.write(`hook ${printable(hook, { maxLength: 80 })} [${level}] ${printable(message, { maxLength: 2000 })}\n`);
    },
    exported: (sessionId) => exports.get(sessionId),
    export: (sessionId, vars) => exports.add(sessionId, vars),
  };
}
