import type { SeamListener } from '../events/index.ts';
import { loadHooks, loadLayeredConfig, selfProtectionFor } from '../config/index.ts';
import { HookRunner, type HookLogEntry } from '../runner/index.ts';

/** The hooks of an operator config, loaded into a runner, in composition order. */
export interface HookSet {
  readonly listeners: readonly SeamListener[];
  close(): Promise<void>;
}

/**
 * Loads the hooks of the configuration layers: the organisation's, the
 * user's, then the project's (`configPath`, the `--config` file), behind
 * hookbox's self-protection. No hooks in any layer: no runner.
 */
export async function openHookSet(configPath: string | undefined, onLog?: (entry: HookLogEntry) => void): Promise<HookSet> {
  const config = loadLayeredConfig(configPath === undefined ? {} : { project: configPath });
  // Self-protection runs first, with or without hooks: nothing the agent does may take hookbox down.
  const guard = selfProtectionFor(config, configPath);
  const first = guard === undefined ? [] : [guard];
  if (config.hooks.length === 0) return { listeners: first, close: async () => {} };
  // A session follows: warm each hook's path in the background while the session opens.
  const runner = await HookRunner.start({ ...config.runner, warmUp: true, ...(onLog !== undefined && { onLog }) });
  try {
    const listeners = await loadHooks(config, runner);
    return { listeners: [...first, ...listeners], close: () => runner.close() };
  } catch (error) {
    await runner.close();
    throw error;
  }
}
