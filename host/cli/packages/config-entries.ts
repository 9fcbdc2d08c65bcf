import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type HookPackage, type HookPin, type OperatorConfig, OperatorConfigSchema, checkLayer, loadLayeredConfig, manifestPin } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { describeIssues, parseJsonText } from '../../json/index.ts';

/** One hook `hookbox add` wrote into the config. */
export interface WrittenHook {
  readonly name: string;
  /** JSON path of its entry, e.g. `hooks[2]`. */
  readonly at: string;
  /** The manifest path as written (relative to the config file). */
  readonly manifest: string;
  readonly pin: HookPin;
  /** Whether it replaced an entry of an earlier version of the same package (keeping its settings). */
  readonly replaced: boolean;
}

/** What changed in the config. */
export interface ConfigChange {
  readonly file: string;
  readonly hooks: readonly WrittenHook[];
  /** Names of entries of the same package whose hook the new version no longer ships (removed). */
  readonly removed: readonly string[];
}

type RawEntry = Record<string, unknown>;

/**
 * Checks the config can take the package's hooks without writing: still
 * valid, no name taken by another hook, and allowed by the organisation and
 * user layers (a `hooks` lock, a hook name of theirs) — so a refused add
 * changes nothing instead of leaving a config the next `run` refuses.
 */
export function planConfigChange(file: string, pkg: HookPackage): void {
  const raw = readRaw(file);
  applyPackage(file, raw, pkg);
  checkAgainstHigherLayers(file, validated(file, raw));
}

/**
 * Writes the package's hooks into the config, each pinned by package name,
 * version, wasm sha256 and the digests of its whole manifest, with its manifest path relative to the config.
 * A hook whose name an entry of the same package already has is updated in
 * place (its operator settings — grant, limits, fail policy — kept); a name
 * another hook uses is an error. New hooks go last (composition order). The
 * file is replaced atomically and validated before it is written.
 */
export function writePackageHooks(file: string, pkg: HookPackage): ConfigChange {
  const raw = readRaw(file);
  const change = applyPackage(file, raw, pkg);
  checkAgainstHigherLayers(file, validated(file, raw));
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(raw, null, 2)}\n`);
  renameSync(temporary, file);
  return change;
}

function validated(file: string, raw: unknown): OperatorConfig {
  const checked = OperatorConfigSchema.safeParse(raw);
  if (!checked.success) throw new ConfigError(describeIssues(file, checked.error));
  return checked.data;
}

/** The project layer's checks against the layers above it (`loadLayeredConfig` does the same at run time). */
function checkAgainstHigherLayers(file: string, config: OperatorConfig): void {
  const { bounds } = loadLayeredConfig({ project: undefined });
  checkLayer(config, { layer: 'project', file }, bounds);
}

/** The config as raw JSON (so fields hookbox does not rewrite stay as they are), validated first. */
function readRaw(file: string): Record<string, unknown> & { hooks: RawEntry[] } {
  if (!existsSync(file)) return { hooks: [] };
  const raw = parseJsonText(file, readFileSync(file, 'utf8'));
  const parsed = OperatorConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(describeIssues(file, parsed.error));
  return raw as Record<string, unknown> & { hooks: RawEntry[] };
}

function applyPackage(file: string, raw: { hooks: RawEntry[] }, pkg: HookPackage): ConfigChange {
  const dir = path.dirname(file);
  const entries = raw.hooks as OperatorConfig['hooks'] & RawEntry[];
  const shipped = new Set(pkg.hooks.map((hook) => hook.manifest.name));
  const removed = entries.filter((entry) => entry.pin?.package === pkg.name && !shipped.has(entry.name)).map((entry) => entry.name);
  raw.hooks = entries.filter((entry) => !removed.includes(entry.name));
  const hooks = pkg.hooks.map((hook): WrittenHook => {
    const name = hook.manifest.name;
    const manifest = path.relative(dir, hook.manifestFile).split(path.sep).join('/');
    const pin: HookPin = { package: pkg.name, version: pkg.version, sha256: hook.sha256, manifest: manifestPin(hook.manifest) };
    const index = raw.hooks.findIndex((entry) => entry.name === name);
    const existing = raw.hooks[index] as OperatorConfig['hooks'][number] | undefined;
    if (existing !== undefined && existing.pin?.package !== pkg.name) {
      const owner = existing.pin?.package === undefined ? 'another hook' : `a hook of the package ${existing.pin.package}`;
      throw new ConfigError(`${file}: hooks[${index}].name: "${name}" is already used by ${owner}; rename or remove that entry before adding ${pkg.name}`);
    }
    if (existing !== undefined) {
      raw.hooks[index] = { ...(existing as RawEntry), manifest, pin };
      return { name, at: `hooks[${index}]`, manifest, pin, replaced: true };
    }
    raw.hooks.push({ name, manifest, pin });
    return { name, at: `hooks[${raw.hooks.length - 1}]`, manifest, pin, replaced: false };
  });
  return { file, hooks, removed };
}
