/**
 * What the deadline needs of each configured hook (a resolved operator config
 * fits it; the bridges sit below host/config, so they name only these
 * fields). `limits.timeoutMs` must be the hook's effective deadline: the
 * operator's where set, else what its manifest requests (`setup` passes
 * them merged the way the loader merges them).
 */
export interface DeadlineHooks {
  readonly hooks: readonly { readonly limits: { readonly timeoutMs?: number }; readonly command?: unknown }[];
}

/** A wasm hook's deadline when neither the config nor its manifest sets one (the runner's default). */
const WASM_DEFAULT_TIMEOUT_MS = 1_000;
/** A shell hook's deadline when unset (Claude Code's, which hookbox keeps for imported hooks). */
const SHELL_DEFAULT_TIMEOUT_MS = 600_000;
/**
 * `hookbox hook`'s whole deadline when setup wrote none (hookbox-hook.cjs
 * repeats it; a test holds the two equal), and the least setup writes: the
 * server's queue on a loaded machine.
 */
export const HOOK_CLIENT_DEFAULT_DEADLINE_MS = 25_000;
/** Loading the host and instantiating the hooks when `hookbox hook` decides in-process (a loaded machine). */
const IN_PROCESS_START_MS = 15_000;
/** Between the client's deadline and the agent's: spawning the client and writing its closed answer. */
export const AGENT_MARGIN_MS = 5_000;

/**
 * How long `hookbox hook` may take for one answer (`--deadline-ms`): its
 * worst honest case — starting in-process and running every configured
 * hook to its own deadline — and never less than the default. Past it, the
 * client answers the event's closed form itself.
 */
export function hookClientDeadlineMs(config: DeadlineHooks): number {
  const hooks = config.hooks.reduce(
    (sum, hook) => sum + (hook.limits.timeoutMs ?? (hook.command !== undefined ? SHELL_DEFAULT_TIMEOUT_MS : WASM_DEFAULT_TIMEOUT_MS)),
    0,
  );
  return Math.max(HOOK_CLIENT_DEFAULT_DEADLINE_MS, IN_PROCESS_START_MS + hooks);
}

/**
 * How long an agent should give `hookbox hook` for one answer: the client's
 * deadline plus a margin, so the client — which answers closed when it
 * gives up — always answers before the agent does (Gemini CLI and Codex
 * treat a timed-out hook as a non-blocking error: fail open; Claude Code
 * lets a timed-out command hook through unless `onFailure: "block"`).
 * Every agent is told at least this (none is capped below a hook's own
 * deadline), the same figure on each.
 */
export function agentAnswerTimeoutMs(config: DeadlineHooks): number {
  return hookClientDeadlineMs(config) + AGENT_MARGIN_MS;
}
