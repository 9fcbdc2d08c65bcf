import { loadHooks, loadLayeredConfig, selfProtectionFor } from '../config/index.ts';
import { SeamBus } from '../events/index.ts';
import { DEFAULT_QUARANTINE_AFTER, HookRunner, type HookLogEntry } from '../runner/index.ts';
import { type ServedConfig, configIdentity } from './config-identity.ts';
import { type SessionQuarantined, quarantinePerSession } from './session-quarantine.ts';

/** The operator config's hooks, loaded once for a server, on one bus every agent session shares. */
export interface ServedHooks {
  readonly bus: SeamBus;
  /** The config these hooks came from: the server decides only events of clients naming it. */
  readonly config?: ServedConfig;
  /** The operator's switch: session logs keep a replaced result's full original (else its length and digest). */
  readonly keepReplacedOriginals?: boolean;
  /** Drops per-session state (quarantine counts) of a closed session. */
  forgetSession(sessionId: string): void;
  close(): Promise<void>;
}

/**
 * Loads the hooks of the configuration layers (the organisation's, the
 * user's, then `configPath`'s) through one `HookRunner` (instances and Var
 * state are per session id inside it) and registers them in configured
 * order behind hookbox's self-protection, each wasm hook behind a
 * per-session quarantine.
 */
export async function loadServedHooks(configPath: string, onLog?: (entry: HookLogEntry) => void): Promise<ServedHooks> {
  const served = configIdentity(configPath);
  const config = loadLayeredConfig({ project: configPath });
  // The runner's per-hook quarantine would let one session switch a hook off for all: counted per session instead.
  const perHook = new Map(config.hooks.map((entry) => [entry.name, entry.quarantineAfter ?? DEFAULT_QUARANTINE_AFTER]));
  const unquarantined = { ...config, hooks: config.hooks.map((entry) => ({ ...entry, quarantineAfter: Number.MAX_SAFE_INTEGER })) };
  const runner = await HookRunner.start({ ...config.runner, ...(onLog !== undefined && { onLog }) });
  try {
    const listeners = await loadHooks(unquarantined, runner);
    const bus = new SeamBus();
    // Self-protection first: the agent may not switch hookbox off through its own tools.
    const guard = selfProtectionFor(config, configPath);
    if (guard !== undefined) bus.use(guard);
    const wrapped: SessionQuarantined[] = [];
    for (const listener of listeners) {
      if (listener.sandbox === 'wasm') {
        const guarded = quarantinePerSession(listener, perHook.get(listener.name) ?? DEFAULT_QUARANTINE_AFTER);
        wrapped.push(guarded);
        bus.use(guarded);
      } else bus.use(listener);
    }
    return {
      bus,
      config: served,
      keepReplacedOriginals: config.log.keepReplacedOriginals,
      forgetSession: (id) => {
        for (const listener of wrapped) listener.forget(id);
      },
      close: () => runner.close(),
    };
  } catch (error) {
    await runner.close();
    throw error;
  }
}
