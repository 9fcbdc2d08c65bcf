import type { SeamListener } from '../events/index.ts';
import { loadHooks, loadOperatorConfig } from '../config/index.ts';
import { HookRunner, type HookLogEntry } from '../runner/index.ts';

/** The hooks of an operator config, loaded into a runner, in composition order. */
export interface HookSet {
  readonly listeners: readonly SeamListener[];
  close(): Promise<void>;
}

/** Loads `hookbox.config.json`'s hooks (none without a config). */
export async function openHookSet(configPath: string | undefined, onLog?: (entry: HookLogEntry) => void): Promise<HookSet> {
  if (configPath === undefined) return { listeners: [], close: async () => {} };
  const config = loadOperatorConfig(configPath);
  // A session follows: warm each hook's path in the background while the session opens.
  const runner = await HookRunner.start({ ...config.runner, warmUp: true, ...(onLog !== undefined && { onLog }) });
  try {
    const listeners = await loadHooks(config, runner);
    return { listeners, close: () => runner.close() };
  } catch (error) {
    await runner.close();
    throw error;
  }
}
