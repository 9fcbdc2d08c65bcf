import { ConfigError } from '../errors.ts';
import type { SelfProtectionSettings } from '../guard/index.ts';
import { readJsonFile } from '../json/index.ts';
import { type Bounds, HOOK_BOUND_KEYS, NO_BOUNDS, type Origin, checkLayer, checkSetting, inheritedValues, narrowBounds } from './layer-bounds.ts';
import type { HookFileOverrides } from './load-hooks.ts';
import type { DeclaredSignals } from './signals.ts';
import { type LayerFile, type LayerFileOptions, type LayerName, layerFiles } from './layer-files.ts';
import { LIMIT_KEYS, type OperatorConfig, OperatorConfigSchema, type OperatorHook, type ResolvedHookEntry, resolveOperatorConfig } from './operator-config.ts';

/** A hook of the merged configuration: which layer defines it, and where each of its settings was set. */
export interface LayeredHook {
  readonly entry: ResolvedHookEntry;
  readonly layer: LayerName;
  /** Per setting (`timeoutMs`, `grant`, `wasm`…): the layer, file and JSON path that set it. */
  readonly origins: Readonly<Record<string, Origin>>;
}

/** The organisation, user and project layers merged: what every command runs. */
export interface LayeredConfig {
  /** The three layer files, highest first, present or not. */
  readonly layers: readonly LayerFile[];
  /** Every hook in composition order: the organisation's first, then the user's, then the project's. */
  readonly hooks: readonly ResolvedHookEntry[];
  readonly explained: readonly LayeredHook[];
  /** Settings for the runner as a whole (`HookRunner.start` options). */
  readonly runner: { readonly memoryBudgetMb?: number };
  /** What session logs keep (`log` of the nearest layer that sets each key). */
  readonly log: { readonly keepReplacedOriginals: boolean };
  /** hookbox's self-protection as the organisation or user layer set it (on, nothing allowed, by default). */
  readonly selfProtection: SelfProtectionSettings;
  /** After the last layer: the effective defaults (with where each was set), the locks, the hook names. */
  readonly bounds: Bounds;
}

/**
 * Reads the layers (`layerFiles`) and merges them the one way every command
 * does: each layer is checked against the layers above it (`checkLayer`; an
 * attempt to weaken one is a `ConfigError` naming both files and the field),
 * its hooks take its defaults over the inherited ones, and follow the hooks
 * of the layers above. Paths resolve against each layer's own file.
 */
export function loadLayeredConfig(options: LayerFileOptions = {}): LayeredConfig {
  const layers = layerFiles(options);
  let bounds = NO_BOUNDS;
  let signals: DeclaredSignals = {};
  const explained: LayeredHook[] = [];
  let keepReplacedOriginals = false;
  let selfProtection: { settings: SelfProtectionSettings; file?: string } = { settings: { enabled: true, allowPaths: [] } };
  for (const layer of layers) {
    if (!layer.present) continue;
    const config = readJsonFile(layer.file, OperatorConfigSchema);
    keepReplacedOriginals = config.log?.keepReplacedOriginals ?? keepReplacedOriginals;
    if (config.selfProtection !== undefined) selfProtection = selfProtectionOf(config.selfProtection, layer, selfProtection.file);
    checkLayer(config, layer, bounds);
    const resolved = resolveOperatorConfig(config, layer.file, inheritedValues(bounds), signals);
    signals = resolved.signals ?? signals;
    resolved.hooks.forEach((resolvedEntry, index) => {
      // The organisation's hooks run on workers no lower layer's hook is placed on (a runaway there cannot take them down).
      const entry = layer.layer === 'organisation' ? { ...resolvedEntry, lane: 'organisation' as const } : resolvedEntry;
      explained.push({ entry, layer: layer.layer, origins: originsOf(config, config.hooks[index] as OperatorHook, index, layer, bounds) });
    });
    bounds = narrowBounds(bounds, config, layer);
  }
  const budget = bounds.defaults.memoryBudgetMb?.value;
  return { layers, hooks: explained.map((hook) => hook.entry), explained, runner: budget === undefined ? {} : { memoryBudgetMb: budget }, log: { keepReplacedOriginals }, selfProtection: selfProtection.settings, bounds };
}

/**
 * A layer's `selfProtection`: only the organisation's or the user's, and
 * the user's only where the organisation's says nothing — the project (a
 * cloned repository, or the agent writing to it) must not switch off what
 * keeps hookbox in force.
 */
function selfProtectionOf(
  setting: NonNullable<OperatorConfig['selfProtection']>,
  layer: LayerFile,
  setAbove: string | undefined,
): { settings: SelfProtectionSettings; file: string } {
  if (layer.layer === 'project') {
    throw new ConfigError(`${layer.file}: selfProtection: only the organisation or user config may set it (a project's config must not switch hookbox's self-protection off)`);
  }
  if (setAbove !== undefined) throw new ConfigError(`${layer.file}: selfProtection: ${setAbove} (a higher layer) sets it; a lower layer may not change it`);
  return { settings: { enabled: setting.enabled ?? true, allowPaths: setting.allowPaths ?? [] }, file: layer.file };
}

/** Keys of a hook entry whose origin `config explain` shows. */
const ENTRY_KEYS = ['wasm', 'manifest', 'policy', 'command', 'permissions', 'protocol', 'seams', 'tools', 'sources', 'env'] as const;

function originsOf(config: OperatorConfig, hook: OperatorHook, index: number, layer: LayerFile, above: Bounds): Record<string, Origin> {
  const here = (at: string): Origin => ({ layer: layer.layer, file: layer.file, at });
  const origins: Record<string, Origin> = {};
  for (const key of ENTRY_KEYS) if (hook[key] !== undefined) origins[key] = here(`hooks[${index}].${key}`);
  for (const key of HOOK_BOUND_KEYS) {
    if (hook[key] !== undefined) origins[key] = here(`hooks[${index}].${key}`);
    else if (config.defaults?.[key] !== undefined) origins[key] = here(`defaults.${key}`);
    else {
      const inherited = above.defaults[key]?.origin;
      if (inherited !== undefined) origins[key] = inherited;
    }
  }
  // `config` merges the layer's defaults with the hook's own keys.
  const configAt = [config.defaults?.config !== undefined && 'defaults.config', hook.config !== undefined && `hooks[${index}].config`].filter((at) => at !== false);
  if (configAt.length > 0) origins.config = here(configAt.join(' + '));
  return origins;
}

/** Limits given on the command line for one hook file, by flag (`--timeout-ms`). */
export type FlagLimits = Partial<Record<(typeof LIMIT_KEYS)[number], { readonly value: number; readonly flag: string }>>;

/**
 * What one hook file outside any config (`hookbox call`) runs with: the
 * layers' effective defaults (limits, fail policy, grant, quarantine), its
 * flags checked against them as a lower layer's values would be — a flag
 * above a layer's limit, or a locked one, is a `ConfigError` naming the flag
 * and the layer's file.
 */
export function hookFileOverrides(flags: FlagLimits, options: LayerFileOptions = {}): HookFileOverrides {
  const { bounds } = loadLayeredConfig({ ...options, project: undefined });
  const { memoryBudgetMb: _runnerWide, failPolicy, grant, quarantineAfter, ...limits } = inheritedValues(bounds);
  for (const key of LIMIT_KEYS) {
    const given = flags[key];
    if (given === undefined) continue;
    checkSetting(bounds, key, given.value, { file: 'the command line', at: given.flag }, process.cwd());
    limits[key] = given.value;
  }
  return {
    limits,
    ...(failPolicy !== undefined && { failPolicy }),
    ...(grant !== undefined && { grant }),
    ...(quarantineAfter !== undefined && { quarantineAfter }),
  };
}
