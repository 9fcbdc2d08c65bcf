import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { staleCatalogSource } from '../catalog/index.ts';
import type { PermissionHook } from '../bridges/permission-hook.ts';
import type { ShellHook } from '../bridges/shell-hook.ts';
import { protocolCodec } from '../bridges/wasm-codec.ts';
import { ConfigError, HookLoadError } from '../errors.ts';
import { PROTOCOL_VERSION, type FailPolicy, type SeamId } from '../seams/index.ts';
import { type CapabilitySources, intersectCapabilities } from './capabilities.ts';
import type { Capabilities, HookCodec, HookLimits, HookRunner, WasmHook, WasmHookSpec } from '../runner/index.ts';
import { readJsonFile } from '../json/index.ts';
import { type HookManifest, HookManifestSchema, type HookProtocol } from './manifest.ts';
import { checkPin } from './hook-pin.ts';
import { buildCommandFor, hookSourceFor, shownPath } from './hook-source.ts';
import { type ResolvedConfig, type ResolvedHookEntry, definedOnly, resolveGrantPaths } from './operator-config.ts';

/** Reads and validates a `hook.json`; errors name the manifest file and the JSON path. */
export function loadManifest(file: string): HookManifest {
  return readJsonFile(path.resolve(file), HookManifestSchema);
}

/**
 * The manifest of a config entry. A missing or invalid one names the config file and the entry's
 * `hooks[N].manifest` as well as the manifest; a missing one that has a source beside its `dist/`
 * was never built, and the message says the command that builds it.
 */
export function loadEntryManifest(entry: ResolvedHookEntry): HookManifest {
  const manifestFile = entry.manifest as string;
  const stale = entry.policy === undefined ? undefined : staleCatalogSource();
  if (stale !== undefined) {
    throw new ConfigError(`${shownPath(entry.file)}: ${entry.at}.policy: the built-in policy "${entry.policy}" is older than its source ${shownPath(stale)}: run \`npm run build\` in the hookbox checkout`);
  }
  try {
    return loadManifest(manifestFile);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Short and the action first: agents and `doctor` show the start of a reason.
    const where = `${shownPath(entry.file)}: ${entry.at}.manifest`;
    if (existsSync(manifestFile)) throw new ConfigError(`${where}: ${error.message}`, { cause: error });
    if (entry.policy !== undefined) {
      // The package ships its policies built; only a checkout that was never built lacks them.
      throw new ConfigError(`${shownPath(entry.file)}: ${entry.at}.policy: the built-in policy "${entry.policy}" is not built: run \`npm run build\` in the hookbox checkout (or reinstall hookbox); ${shownPath(manifestFile)} does not exist`, { cause: error });
    }
    const source = hookSourceFor(entry);
    if (source.kind !== 'source') throw new ConfigError(`${where}: ${shownPath(manifestFile)} does not exist`, { cause: error });
    throw new ConfigError(`${where}: never built: run \`${buildCommandFor(entry.file)}\` (${shownPath(manifestFile)} does not exist; its source is ${shownPath(source.entry)})`, {
      cause: error,
    });
  }
}

/** A hook of an operator config: a sandboxed wasm hook, an unsandboxed shell (`command`) hook, or a native rule hook (`permissions`). */
export type LoadedHook = WasmHook | ShellHook | PermissionHook;

/**
 * Loads every hook of a config, in composition order: wasm hooks into the
 * runner, `command` entries as shell hooks. A hook that cannot load throws
 * (`HookLoadError`, `ConfigError`) after the hooks loaded so far are closed.
 */
export async function loadHooks(config: Pick<ResolvedConfig, 'hooks'>, runner: HookRunner): Promise<LoadedHook[]> {
  const hooks: LoadedHook[] = [];
  try {
    for (const entry of config.hooks) {
      // Rule and shell hooks' modules are imported when a config has one: what only loads a
      // hook file (`hookbox call`) does not load the rule compiler (picomatch) or the shell runner.
      if (entry.permissions !== undefined) {
        const { permissionRulesHook } = await import('../bridges/permission-hook.ts');
        hooks.push(permissionRulesHook(entry.name, entry.permissions, `${entry.file}: ${entry.at}`));
      } else hooks.push(entry.command !== undefined ? await shellHookForEntry(entry.file, entry, entry.command) : await runner.load(specForEntry(entry.file, entry)));
    }
  } catch (error) {
    await Promise.all(hooks.map((hook) => hook.close()));
    throw error;
  }
  return hooks;
}

/** A `command` entry as a shell hook (the schema guarantees a tool protocol and seams). */
async function shellHookForEntry(configFile: string, entry: ResolvedHookEntry, command: string): Promise<ShellHook> {
  if (entry.protocol === undefined || entry.protocol === PROTOCOL_VERSION || entry.seams === undefined) {
    throw new ConfigError(`${configFile}: ${entry.at}: a "command" hook needs a tool "protocol" and "seams"`);
  }
  const { shellHook } = await import('../bridges/shell-hook.ts');
  return shellHook({
    name: entry.name,
    command,
    protocol: entry.protocol,
    seams: entry.seams,
    ...(entry.tools !== undefined && { tools: entry.tools }),
    ...(entry.sources !== undefined && { sources: entry.sources }),
    ...(entry.env !== undefined && { env: entry.env }),
    ...(entry.limits.timeoutMs !== undefined && { timeoutMs: entry.limits.timeoutMs }),
    ...(entry.limits.maxOutputBytes !== undefined && { maxOutputBytes: entry.limits.maxOutputBytes }),
    ...(entry.failPolicy !== undefined && { failPolicy: entry.failPolicy }),
  });
}

/** The runner's codec for a declared protocol: none (the runner's own) for hookbox's version `1`. */
function codecFor(protocol: HookProtocol | undefined): HookCodec | undefined {
  return protocol === undefined || protocol === PROTOCOL_VERSION ? undefined : protocolCodec(protocol);
}

/**
 * Turns one operator entry (plus its manifest, if any) into what the runner
 * loads. A pinned entry whose wasm, manifest (any field of it) or package no
 * longer matches its pin is refused here, naming what differs; the spec then
 * carries the pinned digest, so the runner re-checks the very bytes it compiles.
 */
export function specForEntry(configFile: string, entry: ResolvedHookEntry): WasmHookSpec {
  if (entry.pin === undefined) return unpinnedSpecForEntry(configFile, entry);
  const check = checkPin(entry);
  if (check.status !== 'ok') {
    const problems = check.problems.map((problem) => problem.message).join('; ');
    const pinned = entry.pin.package === undefined ? 'hook' : `package ${entry.pin.package}@${entry.pin.version ?? '*'}`;
    throw new HookLoadError(
      `${configFile}: ${entry.at} (${entry.name}): the pinned ${pinned} changed: ${problems}; refusing to load it (run \`hookbox verify\`; re-add the package to review and pin the new one)`,
    );
  }
  // The spec is built from the manifest just checked, not from a second read of the file.
  return { ...unpinnedSpecForEntry(configFile, entry, check.manifest), sha256: entry.pin.sha256 };
}

function unpinnedSpecForEntry(configFile: string, entry: ResolvedHookEntry, checked?: HookManifest): WasmHookSpec {
  if (entry.wasm !== undefined) {
    const codec = codecFor(entry.protocol);
    return {
      name: entry.name,
      wasm: entry.wasm,
      ...(codec !== undefined && { codec }),
      ...(entry.seams !== undefined && { seams: entry.seams }),
      ...(entry.tools !== undefined && { tools: entry.tools }),
      limits: entry.limits,
      ...(entry.failPolicy !== undefined && { failPolicy: entry.failPolicy }),
      config: entry.config,
      capabilities: intersectCapabilities(undefined, entry.grant, grantSources(`${configFile}: ${entry.at}.grant.allowedPaths`)),
      ...(entry.quarantineAfter !== undefined && { quarantineAfter: entry.quarantineAfter }),
      ...(entry.lane !== undefined && { lane: entry.lane }),
    };
  }
  const manifestFile = entry.manifest as string;
  const manifest = checked ?? loadEntryManifest(entry);
  const where = `${configFile}: ${entry.at}`;
  if (entry.protocol !== undefined && entry.protocol !== manifest.protocol) {
    throw new ConfigError(`${where}.protocol: ${JSON.stringify(entry.protocol)} but the manifest ${manifestFile} declares ${JSON.stringify(manifest.protocol)}`);
  }
  if (entry.seams !== undefined) {
    const extra = entry.seams.filter((seam) => !manifest.seams.includes(seam));
    if (extra.length > 0) {
      throw new ConfigError(`${where}.seams: ${extra.join(', ')} not handled by the hook (its manifest ${manifestFile} lists ${manifest.seams.join(', ')})`);
    }
  }
  if (manifest.config !== undefined) {
    const declared = Object.keys(manifest.config);
    const unknown = Object.keys(entry.config).filter((key) => !declared.includes(key));
    if (unknown.length > 0) {
      throw new ConfigError(
        `${where}.config: ${unknown.map((k) => JSON.stringify(k)).join(', ')} not a config key of hook "${manifest.name}" (declared: ${declared.join(', ') || 'none'})`,
      );
    }
  }
  const spec = fromManifest(manifestFile, manifest, {
    name: entry.name,
    ...(entry.seams !== undefined && { seams: entry.seams }),
    ...(entry.tools !== undefined && { tools: entry.tools }),
    limits: entry.limits,
    ...(entry.failPolicy !== undefined && { failPolicy: entry.failPolicy }),
    config: entry.config,
    grant: entry.grant,
    grantSource: `${configFile}: ${entry.at}.grant.allowedPaths`,
    ...(entry.quarantineAfter !== undefined && { quarantineAfter: entry.quarantineAfter }),
  });
  return entry.lane === undefined ? spec : { ...spec, lane: entry.lane };
}

/** Operator limits win; the manifest's requested limits fill the rest. */
function mergeLimits(requested: HookLimits | undefined, operator: HookLimits | undefined): HookLimits {
  return { ...requested, ...definedOnly(operator ?? {}) };
}

/**
 * The limits an entry runs with, as the loader merges them (the operator's,
 * then its manifest's requests; the runner's defaults fill what both leave
 * unset) — what `setup` derives the agents' timeouts from. Reads the manifest.
 */
export function effectiveLimits(entry: ResolvedHookEntry): HookLimits {
  return entry.manifest === undefined ? entry.limits : mergeLimits(loadEntryManifest(entry).limits, entry.limits);
}

/** Overrides `hookbox call` (and tests) put on a single hook file. */
export interface HookFileOverrides {
  readonly name?: string;
  readonly seams?: readonly SeamId[];
  readonly tools?: readonly string[];
  readonly limits?: HookLimits;
  readonly failPolicy?: FailPolicy;
  readonly config?: Readonly<Record<string, string>>;
  /** Granted capabilities (host paths relative to the process cwd). */
  readonly grant?: Capabilities;
  readonly quarantineAfter?: number;
}

/**
 * A spec for one hook file: a `.wasm`, or a `hook.json` manifest (then the
 * wasm beside it, pinned by its sha256). For `hookbox call`.
 */
export function loadHookFile(file: string, overrides: HookFileOverrides = {}): WasmHookSpec {
  const absolute = path.resolve(file);
  const grant = resolveGrantPaths(overrides.grant ?? {}, process.cwd());
  if (isManifestFile(absolute)) {
    return fromManifest(absolute, loadManifest(absolute), { ...overrides, grant, grantSource: GRANT_OVERRIDE_SOURCE });
  }
  const base = path.basename(absolute).replace(/\.wasm$/, '');
  const name = overrides.name ?? (base.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '') || 'hook');
  return {
    name,
    wasm: absolute,
    ...(overrides.seams !== undefined && { seams: overrides.seams }),
    ...(overrides.limits !== undefined && { limits: overrides.limits }),
    ...(overrides.failPolicy !== undefined && { failPolicy: overrides.failPolicy }),
    ...(overrides.config !== undefined && { config: overrides.config }),
    capabilities: intersectCapabilities(undefined, grant, grantSources(GRANT_OVERRIDE_SOURCE)),
    ...(overrides.quarantineAfter !== undefined && { quarantineAfter: overrides.quarantineAfter }),
  };
}

function isManifestFile(file: string): boolean {
  if (file.endsWith('.json')) return true;
  if (file.endsWith('.wasm')) return false;
  try {
    const head = readFileSync(file).subarray(0, 64).toString('utf8').trimStart();
    return head.startsWith('{');
  } catch {
    return false;
  }
}

function fromManifest(
  manifestFile: string,
  manifest: HookManifest,
  operator: Omit<HookFileOverrides, 'grant'> & { grant: Capabilities; grantSource: string },
): WasmHookSpec {
  const dir = path.dirname(manifestFile);
  const limits = mergeLimits(manifest.limits, operator.limits);
  const requested = resolveGrantPaths(manifest.capabilities ?? {}, dir);
  const tools = operator.tools ?? manifest.tools;
  const codec = codecFor(manifest.protocol);
  return {
    name: operator.name ?? manifest.name,
    wasm: path.resolve(dir, manifest.wasm),
    sha256: manifest.sha256,
    ...(codec !== undefined && { codec }),
    seams: operator.seams ?? manifest.seams,
    ...(tools !== undefined && { tools }),
    limits,
    ...(operator.failPolicy !== undefined && { failPolicy: operator.failPolicy }),
    config: { ...operator.config },
    capabilities: intersectCapabilities(requested, operator.grant, {
      request: `${manifestFile}: capabilities.allowedPaths`,
      grant: operator.grantSource,
    }),
    ...(operator.quarantineAfter !== undefined && { quarantineAfter: operator.quarantineAfter }),
  };
}

/** Where a grant given to `loadHookFile` comes from (it has no config file). */
const GRANT_OVERRIDE_SOURCE = 'the grant given for this hook file (grant.allowedPaths)';

function grantSources(grant: string): CapabilitySources {
  return { request: grant, grant };
}
