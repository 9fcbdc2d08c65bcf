import path from 'node:path';
import { ConfigError } from '../errors.ts';
import type { FailPolicy } from '../seams/index.ts';
import type { Capabilities } from '../runner/index.ts';
import { grantExcess } from './grant-bounds.ts';
import type { LayerName } from './layer-files.ts';
import { type InheritedDefaults, LIMIT_KEYS, type LockableKey, type OperatorConfig, resolveGrantPaths } from './operator-config.ts';

/** Where a value was set: the layer, its file, and the JSON path in it (`defaults.timeoutMs`, `hooks[0]`). */
export interface Origin {
  readonly layer: LayerName;
  readonly file: string;
  readonly at: string;
}

/** The settings a layer passes down: as defaults to inherit, and as bounds no lower layer may pass. */
export const BOUND_KEYS = [...LIMIT_KEYS, 'memoryBudgetMb', 'failPolicy', 'grant', 'quarantineAfter'] as const;
/** A setting a layer passes down. */
export type BoundKey = (typeof BOUND_KEYS)[number];

/** The bound settings a hook entry can set (`memoryBudgetMb` is runner-wide, in `defaults` only). */
export const HOOK_BOUND_KEYS = [...LIMIT_KEYS, 'failPolicy', 'grant', 'quarantineAfter'] as const;

/** Limits: a lower layer may only lower them (less time, memory, output, instructions for the hook). */
const CEILINGS: readonly BoundKey[] = [...LIMIT_KEYS, 'memoryBudgetMb'];

/** One inherited setting with where it was set. */
export interface BoundSetting<K extends BoundKey> {
  readonly value: NonNullable<InheritedDefaults[K]>;
  readonly origin: Origin;
}

/** What the layers read so far impose on the next one. */
export interface Bounds {
  /** Their effective defaults (grant paths absolute): inherited, and bounds. */
  readonly defaults: { readonly [K in BoundKey]?: BoundSetting<K> };
  readonly locked: Readonly<Partial<Record<LockableKey, Origin>>>;
  /** Hook names already defined, with where. */
  readonly hooks: ReadonlyMap<string, Origin>;
}

/** No layer read yet: nothing inherited, nothing bound. */
export const NO_BOUNDS: Bounds = { defaults: {}, locked: {}, hooks: new Map() };

/** The plain values a layer's hooks inherit. */
export function inheritedValues(bounds: Bounds): InheritedDefaults {
  return Object.fromEntries(Object.entries(bounds.defaults).map(([key, setting]) => [key, setting.value])) as InheritedDefaults;
}

/**
 * Refuses everything in `config` (a lower layer) that would weaken the layers
 * above it: a hook that reuses a higher layer's hook name (it would redefine,
 * reorder or drop it), hooks under a `hooks` lock, a locked setting, a limit
 * above a higher layer's, `failPolicy: "open"` under `"closed"`, a grant
 * wider than a higher layer's. Each error names both files and the field.
 */
export function checkLayer(config: OperatorConfig, where: { layer: LayerName; file: string }, bounds: Bounds): void {
  const hooksLock = bounds.locked.hooks;
  if (hooksLock !== undefined && config.hooks.length > 0) {
    throw new ConfigError(`${where.file}: hooks: the ${hooksLock.layer} layer locks the hook list (${describe(hooksLock)}); a lower layer cannot add hooks`);
  }
  const dir = path.dirname(where.file);
  config.hooks.forEach((hook, index) => {
    const at = `hooks[${index}]`;
    const higher = bounds.hooks.get(hook.name);
    if (higher !== undefined) {
      throw new ConfigError(
        `${where.file}: ${at}.name: "${hook.name}" is the ${higher.layer} layer's hook (${describe(higher)}); a lower layer cannot redefine, reorder or drop it (it runs first anyway: remove this entry)`,
      );
    }
    for (const key of HOOK_BOUND_KEYS) {
      const value = hook[key];
      if (value !== undefined) checkSetting(bounds, key, value, { file: where.file, at: `${at}.${key}` }, dir);
    }
  });
  for (const key of BOUND_KEYS) {
    const value = config.defaults?.[key];
    if (value !== undefined) checkSetting(bounds, key, value, { file: where.file, at: `defaults.${key}` }, dir);
  }
}

/**
 * Refuses one value of a lower layer (or a command-line flag: `file` names it)
 * that is locked or weaker than the bound. Grant paths resolve against `dir`.
 */
export function checkSetting<K extends BoundKey>(
  bounds: Bounds,
  key: K,
  value: NonNullable<InheritedDefaults[K]>,
  where: { file: string; at: string },
  dir: string,
): void {
  const here = `${where.file}: ${where.at}`;
  const lock = bounds.locked[`defaults.${key}`];
  if (lock !== undefined) {
    throw new ConfigError(`${here}: the ${lock.layer} layer locks ${key} (${describe(lock)}); a lower layer cannot set it`);
  }
  const bound = bounds.defaults[key] as BoundSetting<K> | undefined;
  if (bound === undefined) return;
  const above = `the ${bound.origin.layer} layer's ${JSON.stringify(bound.value)} (${describe(bound.origin)})`;
  if (CEILINGS.includes(key) && (value as number) > (bound.value as number)) {
    throw new ConfigError(`${here}: ${value as number} is above ${above}; a lower layer may only lower a limit`);
  }
  if (key === 'failPolicy' && (bound.value as FailPolicy) === 'closed' && (value as FailPolicy) === 'open') {
    throw new ConfigError(`${here}: "open" weakens ${above}; a lower layer cannot make a hook fail open`);
  }
  if (key === 'grant') {
    const excess = grantExcess(resolveGrantPaths(value as Capabilities, dir), bound.value as Capabilities);
    if (excess !== undefined) {
      throw new ConfigError(`${here}.${excess.field}: ${excess.detail}, wider than the ${bound.origin.layer} layer allows (${describe(bound.origin)}.${excess.field})`);
    }
  }
}

/** The bounds after `config` (already checked): its defaults become the effective ones, its locks and hook names are added. */
export function narrowBounds(bounds: Bounds, config: OperatorConfig, where: { layer: LayerName; file: string }): Bounds {
  const origin = (at: string): Origin => ({ layer: where.layer, file: where.file, at });
  const defaults: Record<string, BoundSetting<BoundKey>> = { ...bounds.defaults };
  for (const key of BOUND_KEYS) {
    const value = config.defaults?.[key];
    if (value === undefined) continue;
    const resolved = key === 'grant' ? resolveGrantPaths(value as Capabilities, path.dirname(where.file)) : value;
    defaults[key] = { value: resolved as NonNullable<InheritedDefaults[BoundKey]>, origin: origin(`defaults.${key}`) };
  }
  const locked: Partial<Record<LockableKey, Origin>> = { ...bounds.locked };
  (config.locked ?? []).forEach((key, index) => {
    locked[key] ??= origin(`locked[${index}]`);
  });
  const hooks = new Map(bounds.hooks);
  config.hooks.forEach((hook, index) => hooks.set(hook.name, origin(`hooks[${index}]`)));
  return { defaults, locked, hooks };
}

function describe(origin: Origin): string {
  return `${origin.file}: ${origin.at}`;
}
