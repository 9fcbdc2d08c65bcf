/**
 * What the deadline needs of each configured hook (a resolved operator config
 * fits it; the bridges sit below host/config, so they name only these fields).
 */
export interface DeadlineHooks {
  readonly hooks: readonly { readonly limits: { readonly timeoutMs?: number }; readonly command?: unknown }[];
}

/** A wasm hook's deadline when neither the config nor its manifest sets one (the runner's default). */
const WASM_DEFAULT_TIMEOUT_MS = 1_000;
/** A shell hook's deadline when unset (Claude Code's, which hookbox keeps for imported hooks). */
const SHELL_DEFAULT_TIMEOUT_MS = 600_000;
/** How long `hookbox hook` waits for `hookbox serve` before it fails closed. */
export const HOOK_CLIENT_SERVER_TIMEOUT_MS = 25_000;
/** Loading the host and instantiating the hooks when `hookbox hook` decides in-process (a loaded machine). */
const IN_PROCESS_START_MS = 15_000;
/** Spawning the client and writing the answer. */
const MARGIN_MS = 5_000;

/**
 * How long an agent should give `hookbox hook` for one answer: more than the
 * client's worst case — the server's deadline, or starting in-process and
 * running every configured hook to its own timeout — so that the client,
 * which fails closed, always answers before the agent gives up (Gemini CLI
 * and Codex treat a timed-out hook as a non-blocking error: fail open).
 */
export function agentAnswerTimeoutMs(config: DeadlineHooks): number {
  const hooks = config.hooks.reduce(
    (sum, hook) => sum + (hook.limits.timeoutMs ?? (hook.command !== undefined ? SHELL_DEFAULT_TIMEOUT_MS : WASM_DEFAULT_TIMEOUT_MS)),
    0,
  );
  return Math.max(HOOK_CLIENT_SERVER_TIMEOUT_MS, IN_PROCESS_START_MS + hooks) + MARGIN_MS;
}
