import path from 'node:path';
import * as z from 'zod';
import { ConfigError } from '../errors.ts';
import {
  FailPolicySchema,
  PROTOCOL_VERSION,
  SEAM_IDS,
  SessionStartSourceSchema,
  type FailPolicy,
  type SeamId,
  type SessionStartSource,
} from '../seams/index.ts';
import { readJsonFile } from '../json/index.ts';
import { type Capabilities, CapabilitiesSchema, type HookLimits, HookLimitsSchema } from '../runner/index.ts';
import { type HookProtocol, HookProtocolSchema } from './manifest.ts';
import { type PermissionRules, PermissionRulesSchema } from '../bridges/permission-schema.ts';
import { type HookPin, HookPinSchema } from './hook-pin.ts';
import { catalogManifest, catalogNames, catalogPolicy } from '../catalog/index.ts';

const SeamIdSchema = z.enum(SEAM_IDS as [SeamId, ...SeamId[]]);
const HookNameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'a lowercase name of letters, digits, ".", "_" or "-"');

/**
 * A catalog policy's name and config, checked by the policy's own schema:
 * an issue's path runs into the config (`hooks[0].config.paths[1]`).
 */
function checkPolicyConfig(name: string, config: unknown, ctx: z.RefinementCtx): void {
  const policy = catalogPolicy(name);
  if (policy === undefined) {
    ctx.addIssue({ code: 'custom', path: ['policy'], message: `no built-in policy "${name}" (the catalog has ${catalogNames().join(', ')}; \`hookbox policies\` lists them)` });
    return;
  }
  const parsed = policy.configSchema.safeParse(config ?? {});
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: 'custom', path: ['config', ...issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key))], message: issue.message });
  }
}

/** Settings an operator can set per hook or as `defaults` for every hook. */
const SharedSettings = {
  ...HookLimitsSchema.shape,
  failPolicy: FailPolicySchema.optional(),
  /** Extism config values handed to the hook (strings only). */
  config: z.record(z.string(), z.string()).optional(),
  /** Capabilities the operator grants; the hook gets the intersection with its manifest's request. */
  grant: CapabilitiesSchema.optional(),
  /** Consecutive faults after which the hook is quarantined until reloaded. */
  quarantineAfter: z.number().int().positive().optional(),
};

/** Settings that only mean something for a wasm hook, refused on a shell (`command`) hook. */
const WASM_ONLY = ['memoryMb', 'instructionBudget', 'config', 'grant'] as const;
/** Settings a `permissions` (rule) hook has no use for. */
const NOT_FOR_RULES = [...WASM_ONLY, 'protocol', 'unsandboxed', 'seams', 'tools', 'sources', 'env', 'timeoutMs', 'maxOutputBytes', 'failPolicy', 'quarantineAfter', 'pin'] as const;

/**
 * One entry of `hooks`: exactly one of `wasm`, `manifest` (paths relative to
 * the config file) or `command` (a Claude Code / Codex shell hook, which must
 * say `"unsandboxed": true` and name its `protocol` and `seams`).
 */
export const OperatorHookSchema = z
  .strictObject({
    name: HookNameSchema,
    wasm: z.string().min(1).optional(),
    manifest: z.string().min(1).optional(),
    /** A built-in policy of the catalog (`hookbox policies`); its `config` is typed JSON checked by the policy's schema. */
    policy: z.string().min(1).optional(),
    /** A shell command run with `sh -c` in the session cwd, speaking `protocol` on stdin/stdout/exit code. */
    command: z.string().min(1).optional(),
    /** The wire the hook speaks; a manifest declares its own. Required with `command`. */
    protocol: HookProtocolSchema.optional(),
    /** Required (`true`) with `command`: a shell hook runs outside the sandbox with the user's rights. */
    unsandboxed: z.boolean().optional(),
    /** Seams to handle; absent = every seam the module exports (or the manifest lists). */
    seams: z.array(SeamIdSchema).min(1).optional(),
    /** Tool-name matchers (anchored regular expressions) for the tool seams. */
    tools: z.array(z.string().min(1)).optional(),
    /** With `command`: the session-start sources to run for (a SessionStart matcher); absent = all. */
    sources: z.array(SessionStartSourceSchema).min(1).optional(),
    /** With `command`: variables set for the command (an imported settings `env`, a plugin's `CLAUDE_PLUGIN_ROOT`). */
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name'), z.string()).optional(),
    /** Claude Code permission rules (`Bash(rm:*)`, `Read(.env*)`) enforced by a native pre-tool hook; `root` is relative to the config file. */
    permissions: PermissionRulesSchema.optional(),
    /** What `hookbox add` reviewed: package name, version, the wasm's sha256 and the whole manifest; a hook that differs is refused. */
    pin: HookPinSchema.optional(),
    ...SharedSettings,
    /** Extism config values handed to the hook (strings); for a catalog `policy`, its typed JSON config. */
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((hook, ctx) => {
    const kinds = [hook.wasm, hook.manifest, hook.command, hook.permissions, hook.policy].filter((value) => value !== undefined).length;
    if (kinds !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          'expected exactly one of "wasm" (a .wasm path) or "manifest" (a hook.json path), or "policy" (a built-in policy), or "command" (a shell hook), or "permissions" (Claude Code rules)',
      });
      return;
    }
    const issue = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    if (hook.policy !== undefined) {
      checkPolicyConfig(hook.policy, hook.config, ctx);
      for (const key of ['protocol', 'pin'] as const) if (hook[key] !== undefined) issue(key, 'does not apply to a catalog "policy" (hookbox built it and knows its protocol)');
    } else if (hook.config !== undefined) {
      // Only a catalog policy's config is typed JSON; a hook's Extism config values are strings.
      for (const [key, value] of Object.entries(hook.config)) {
        if (typeof value !== 'string') ctx.addIssue({ code: 'custom', path: ['config', key], message: 'expected a string (only a catalog "policy" takes JSON config values)' });
      }
    }
    if (hook.permissions !== undefined) {
      for (const key of NOT_FOR_RULES) if (hook[key] !== undefined) issue(key, 'does not apply to a "permissions" hook (a native pre-tool hook that fails closed)');
      return;
    }
    if (hook.env !== undefined && hook.command === undefined) issue('env', 'only a "command" hook takes "env"');
    if (hook.command === undefined) {
      if (hook.unsandboxed !== undefined) issue('unsandboxed', 'only a "command" hook runs unsandboxed; a wasm hook always runs in the sandbox');
      if (hook.sources !== undefined) issue('sources', 'only a "command" hook takes "sources"');
      if (hook.pin?.package !== undefined && hook.manifest === undefined) issue('pin.package', 'a package pin needs a "manifest" entry (the hook.json inside the package)');
      if (hook.pin?.manifest !== undefined && hook.manifest === undefined) issue('pin.manifest', 'pins a manifest, but the entry has none (a "wasm" entry pins only its sha256)');
      return;
    }
    if (hook.unsandboxed !== true) {
      issue('unsandboxed', 'a "command" hook runs outside the sandbox with your user\'s rights: set "unsandboxed": true to say you mean it');
    }
    if (hook.protocol === undefined || hook.protocol === PROTOCOL_VERSION) {
      issue('protocol', 'a "command" hook needs "protocol": "claude-code" or "codex" (what it reads on stdin and how its exit code is read)');
    }
    if (hook.seams === undefined) issue('seams', 'a "command" hook must list the seams it runs for');
    for (const key of [...WASM_ONLY, 'pin'] as const) {
      if (hook[key] !== undefined) issue(key, 'applies to wasm hooks only, not to a "command" hook');
    }
  });
/** One parsed entry of `hooks`. */
export type OperatorHook = z.infer<typeof OperatorHookSchema>;

/**
 * What a layer can lock: lower layers may then not set it at all (in their
 * `defaults` nor on a hook), only inherit it. `hooks` forbids them to add hooks.
 */
export const LOCKABLE_KEYS = [
  'hooks',
  'defaults.timeoutMs',
  'defaults.memoryMb',
  'defaults.maxOutputBytes',
  'defaults.instructionBudget',
  'defaults.failPolicy',
  'defaults.grant',
  'defaults.quarantineAfter',
  'defaults.memoryBudgetMb',
] as const;
/** A key a layer can lock against the layers below it. */
export type LockableKey = (typeof LOCKABLE_KEYS)[number];

/** `hookbox.config.json`. Array order of `hooks` is composition order. */
export const OperatorConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  hooks: z.array(OperatorHookSchema),
  /** Keys the layers below this one may not set (layered configuration: organisation › user › project). */
  locked: z.array(z.enum(LOCKABLE_KEYS)).optional(),
  /** What session logs keep. */
  log: z
    .strictObject({
      /**
       * Keep the full original of a tool result a hook replaced (e.g. the
       * secret a redactor took out) in the session log. Default false: the
       * log holds what the model received, and only the original's length
       * and SHA-256. The layer nearest the project that sets it decides.
       */
      keepReplacedOriginals: z.boolean().optional(),
    })
    .optional(),
  /**
   * hookbox's self-protection (host/guard): on unless a layer above the
   * project turns it off. Only the organisation and user layers may set it.
   */
  selfProtection: z
    .strictObject({
      /** `false` lets the agent change its hook settings, hookbox's config and `.hookbox/`. */
      enabled: z.boolean().optional(),
      /** Globs (absolute, or `~/…`) of protected paths the agent may change all the same. */
      allowPaths: z.array(z.string().min(1)).optional(),
    })
    .optional(),
  defaults: z
    .strictObject({
      ...SharedSettings,
      /**
       * Memory every wasm hook instance together may hold, in MiB (the runner's memory budget;
       * default the smaller of 1 GiB and a quarter of RAM). Not a per-hook setting.
       */
      memoryBudgetMb: z.number().int().positive().optional(),
    })
    .optional(),
});
/** A parsed `hookbox.config.json`. */
export type OperatorConfig = z.infer<typeof OperatorConfigSchema>;

/** One hook of a loaded config: defaults applied, paths absolute, and where it sits in the file. */
export interface ResolvedHookEntry {
  readonly name: string;
  /** Absolute path of the config file (the layer) that defines the hook. */
  readonly file: string;
  /** JSON path of the entry, e.g. `hooks[1]`, for messages. */
  readonly at: string;
  readonly wasm?: string;
  readonly manifest?: string;
  /** The catalog policy the entry names (then `manifest` is its built hook, `config.policyName` its name and `config.policy` its config as JSON). */
  readonly policy?: string;
  /** A shell hook's command (then `protocol` is a tool protocol and `seams` is set). */
  readonly command?: string;
  readonly protocol?: HookProtocol;
  readonly sources?: readonly SessionStartSource[];
  /** A shell hook's extra environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Claude Code permission rules (`root` absolute). */
  readonly permissions?: PermissionRules;
  readonly seams?: readonly SeamId[];
  readonly tools?: readonly string[];
  /** Operator limits: the entry's, else `defaults`' (a manifest's requested limits fill what neither sets). */
  readonly limits: HookLimits;
  readonly failPolicy?: FailPolicy;
  readonly config: Readonly<Record<string, string>>;
  readonly grant: Capabilities;
  readonly quarantineAfter?: number;
  /** The package and wasm digest `hookbox add` pinned (wasm and manifest entries only). */
  readonly pin?: HookPin;
  /** Set for the organisation layer's hooks: they run on workers of their own (`WasmHookSpec.lane`). */
  readonly lane?: 'organisation';
}

/** A loaded operator config: its file and its hooks in composition order. */
export interface ResolvedConfig {
  /** Absolute path of the config file. */
  readonly file: string;
  readonly hooks: readonly ResolvedHookEntry[];
  /** Settings for the runner as a whole (`HookRunner.start` options). */
  readonly runner: { readonly memoryBudgetMb?: number };
}

/** The per-hook limits, in the order they are applied. */
export const LIMIT_KEYS = ['timeoutMs', 'memoryMb', 'maxOutputBytes', 'instructionBudget'] as const;

/**
 * Defaults a file's hooks inherit from the layers above it, for what its own
 * `defaults` leave unset (`config` is not inherited: its keys belong to each hook).
 * Grant paths are absolute.
 */
export type InheritedDefaults = Omit<NonNullable<OperatorConfig['defaults']>, 'config'>;

/**
 * Reads and validates `hookbox.config.json`. Errors are `ConfigError`s that
 * name the file, the JSON path (`hooks[1].timeoutMs`) and what was expected.
 * One file alone; the commands load the layers with `loadLayeredConfig`.
 */
export function loadOperatorConfig(file: string): ResolvedConfig {
  const absolute = path.resolve(file);
  return resolveOperatorConfig(readJsonFile(absolute, OperatorConfigSchema), absolute);
}

/** A parsed config's hooks with its defaults, over `inherited` ones, applied; paths resolved against `file`. */
export function resolveOperatorConfig(config: OperatorConfig, absolute: string, inherited: InheritedDefaults = {}): ResolvedConfig {
  const dir = path.dirname(absolute);
  const own = config.defaults ?? {};
  const defaults = { ...inherited, ...definedOnly(own), ...(own.grant !== undefined && { grant: resolveGrantPaths(own.grant, dir) }) };
  const seen = new Map<string, number>();
  const hooks = config.hooks.map((hook, index): ResolvedHookEntry => {
    const at = `hooks[${index}]`;
    const previous = seen.get(hook.name);
    if (previous !== undefined) {
      throw new ConfigError(`${absolute}: ${at}.name: "${hook.name}" is already used by hooks[${previous}]; hook names must be unique`);
    }
    seen.set(hook.name, index);
    const limits: { -readonly [K in keyof HookLimits]: HookLimits[K] } = {};
    for (const key of LIMIT_KEYS) {
      const value = hook[key] ?? defaults[key];
      if (value !== undefined) limits[key] = value;
    }
    const failPolicy = hook.failPolicy ?? defaults.failPolicy;
    const quarantineAfter = hook.quarantineAfter ?? defaults.quarantineAfter;
    return {
      name: hook.name,
      file: absolute,
      at,
      ...(hook.wasm !== undefined && { wasm: path.resolve(dir, hook.wasm) }),
      ...(hook.manifest !== undefined && { manifest: path.resolve(dir, hook.manifest) }),
      ...(hook.policy !== undefined && { policy: hook.policy, manifest: catalogManifest(hook.policy) }),
      ...(hook.command !== undefined && { command: hook.command }),
      ...(hook.protocol !== undefined && { protocol: hook.protocol }),
      ...(hook.sources !== undefined && { sources: hook.sources }),
      ...(hook.env !== undefined && { env: hook.env }),
      ...(hook.permissions !== undefined && { permissions: { ...hook.permissions, root: path.resolve(dir, hook.permissions.root) } }),
      ...(hook.seams !== undefined && { seams: hook.seams }),
      ...(hook.tools !== undefined && { tools: hook.tools }),
      limits,
      ...(failPolicy !== undefined && { failPolicy }),
      config: hook.policy === undefined ? { ...defaults.config, ...(hook.config as Record<string, string> | undefined) } : { policyName: hook.policy, policy: policyConfigJson(hook.policy, hook.config) },
      grant: resolveGrantPaths(hook.grant ?? defaults.grant ?? {}, dir),
      ...(quarantineAfter !== undefined && { quarantineAfter }),
      ...(hook.pin !== undefined && { pin: hook.pin }),
    };
  });
  return { file: absolute, hooks, runner: defaults.memoryBudgetMb === undefined ? {} : { memoryBudgetMb: defaults.memoryBudgetMb } };
}

/** A policy's config as its hook reads it: parsed by its schema (defaults filled, strings trimmed), as JSON. */
function policyConfigJson(name: string, config: unknown): string {
  // The schema passed when the file was read; parsing again gives its output form.
  return JSON.stringify((catalogPolicy(name) as NonNullable<ReturnType<typeof catalogPolicy>>).configSchema.parse(config ?? {}));
}

/** `value` without its undefined properties, so a spread does not overwrite a set value with nothing. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Host paths in a grant are relative to the file that grants them. */
export function resolveGrantPaths(grant: Capabilities, dir: string): Capabilities {
  if (grant.allowedPaths === undefined) return grant;
  const allowedPaths: NonNullable<Capabilities['allowedPaths']> = {};
  for (const [host, guest] of Object.entries(grant.allowedPaths)) allowedPaths[path.resolve(dir, host)] = guest;
  return { ...grant, allowedPaths };
}
