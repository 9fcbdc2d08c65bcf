import type { Origin } from './layer-bounds.ts';
import type { LayerFile, LayerName } from './layer-files.ts';
import type { LayeredConfig } from './layered-config.ts';
import type { LockableKey, ResolvedHookEntry } from './operator-config.ts';

/** One effective value and the layer, file and JSON path it came from. */
export interface ExplainedValue extends Origin {
  readonly value: unknown;
}

/** One hook of the effective configuration, with the origin of each of its settings. */
export interface ExplainedHook {
  readonly name: string;
  readonly layer: LayerName;
  readonly file: string;
  readonly at: string;
  readonly settings: Readonly<Record<string, ExplainedValue>>;
}

/** What `hookbox config explain --json` prints: the effective configuration, each value with its layer. */
export interface ConfigExplanation {
  readonly layers: readonly LayerFile[];
  /** In composition order. */
  readonly hooks: readonly ExplainedHook[];
  /** What the last layer passes down: defaults a hook would inherit, and bounds no lower value may pass. */
  readonly defaults: Readonly<Record<string, ExplainedValue>>;
  readonly locked: Readonly<Partial<Record<LockableKey, Origin>>>;
}

/** The effective settings of a resolved entry, by the names the config file uses. */
function settingsOf(entry: ResolvedHookEntry): Record<string, unknown> {
  const { name: _name, file: _file, at: _at, limits, config, grant, ...rest } = entry;
  return {
    ...rest,
    ...limits,
    ...(Object.keys(config).length > 0 && { config }),
    ...(Object.keys(grant).length > 0 && { grant }),
  };
}

/** The effective configuration of `layered` with where every value came from. */
export function explainConfig(layered: LayeredConfig): ConfigExplanation {
  const hooks = layered.explained.map(({ entry, layer, origins }): ExplainedHook => {
    const settings: Record<string, ExplainedValue> = {};
    for (const [key, value] of Object.entries(settingsOf(entry))) {
      const origin = origins[key];
      if (value !== undefined && origin !== undefined) settings[key] = { value, ...origin };
    }
    return { name: entry.name, layer, file: entry.file, at: entry.at, settings };
  });
  const defaults = Object.fromEntries(Object.entries(layered.bounds.defaults).map(([key, setting]) => [key, { value: setting.value, ...setting.origin }]));
  return { layers: layered.layers, hooks, defaults, locked: layered.bounds.locked };
}
