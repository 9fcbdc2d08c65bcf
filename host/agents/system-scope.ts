/**
 * The text a machine-wide file held before hookbox first wrote it, as
 * `setup --system` recorded it beside the file: what `--remove` gives back
 * byte for byte when nothing but hookbox's entries changed since.
 * Undefined: not known (the record is gone); the file is then only stripped.
 */
export type SystemOriginal = { readonly existed: false } | { readonly existed: true; readonly text: string } | undefined;

/** What `doctor --system` reads in a machine-wide file. */
export interface SystemInspection {
  /** Events hookbox registers that hold no hookbox handler here. */
  readonly missing: readonly string[];
  /** The command lines of hookbox's handlers (doctor checks the client and the config they name). */
  readonly commands: readonly string[];
  /** Whether every lock key holds the value `--lock` writes. */
  readonly locked: boolean;
}

/**
 * An agent's machine-wide (managed) scope: a file only root (or the
 * platform's managed-settings mechanism) writes, read by the agent above
 * every user and project setting. Measured per agent; see
 * docs/guides/machine-wide.md for the table.
 */
export interface ManagedSystemSetup {
  readonly kind: 'managed';
  /** The file on this platform (Linux and macOS measured or documented); undefined where the agent reads none. */
  file(platform: NodeJS.Platform): string | undefined;
  /** The file's text with hookbox's entries (and, with `lock`, the lock keys). Throws an Error naming what is wrong with the text. */
  apply(text: string | undefined, command: string, options: { readonly lock: boolean; readonly answerTimeoutMs?: number }): string;
  /**
   * The text with exactly hookbox's entries and lock keys taken out (a lock
   * key the file held before hookbox goes back to its old value); the
   * original text itself when that is what is left; undefined when hookbox
   * made the file and nothing else is in it (the file goes).
   */
  remove(text: string, original: SystemOriginal): string | undefined;
  inspect(text: string): SystemInspection;
  /** The lock keys `--lock` writes, as the operator sees them. */
  readonly lockKeys: string;
  /** What the agent then refuses (a developer's own hooks, plugins' hooks). */
  readonly lockRefuses: string;
  /** What a lower scope (user, project, the agent through its shell) can still do, with the lock and without. */
  readonly lowerScope: { readonly locked: string; readonly unlocked: string };
}

/** An agent with no machine-wide scope hookbox can write: why, and the strongest thing to do instead. */
export interface NoSystemSetup {
  readonly kind: 'none';
  readonly why: string;
  readonly alternative: string;
}

/** An agent's machine-wide scope, or why it has none (`AgentSetup.system`). */
export type SystemSetup = ManagedSystemSetup | NoSystemSetup;
