import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AGENT_NAMES,
  type AgentBridge,
  type ManagedSystemSetup,
  type SystemOriginal,
  agentAnswerTimeoutMs,
  agentBridge,
  hookClientDeadlineMs,
  systemOriginalPath,
} from '../agents/index.ts';
import { effectiveLimits, layerFiles, loadLayeredConfig } from '../config/index.ts';
import { ConfigError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package.ts';
import { printable } from '../text/index.ts';
import { shellQuote } from './setup-paths.ts';

/**
 * The socket the machine-wide entries ask: in root's `/run`, so no developer
 * can put a server of their own there (one in their home folder could answer
 * "allow" to everything). With no server on it the client decides in-process.
 */
export const SYSTEM_SOCKET = '/run/hookbox/serve.sock';

export interface SystemFlags {
  readonly lock?: boolean;
  readonly remove?: boolean;
}

/** Where `setup --system` looks: the platform, a folder standing in for `/` (tests), the environment (the organisation config's variable). */
export interface SystemPlace {
  readonly platform?: NodeJS.Platform;
  readonly root?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** The organisation config the machine-wide entries run: `HOOKBOX_ORG_CONFIG`, else `/etc/hookbox/config.json`; it must exist and load. */
export function organisationConfig(env: NodeJS.ProcessEnv = process.env): { file: string; hooks: { limits: { timeoutMs?: number }; command?: string }[] } {
  const org = layerFiles({ env }).find((layer) => layer.layer === 'organisation')!;
  if (!org.present) {
    throw new ConfigError(`the organisation config ${org.file} does not exist: the machine-wide entries run it — write it first (docs/guides/machine-wide.md), or name another with HOOKBOX_ORG_CONFIG`);
  }
  // Loaded as the client will load it (organisation, then the user's layer): a bad config fails here, not at a developer's first event.
  const loaded = loadLayeredConfig({ env });
  return { file: org.file, hooks: loaded.hooks.map((entry) => ({ limits: effectiveLimits(entry), ...(entry.command !== undefined && { command: entry.command }) })) };
}

/**
 * The command line the machine-wide entries run: this very Node and this
 * very hookbox package by absolute path (the one installed machine-wide that
 * ran setup — never a project's `node_modules`, never `node` from a
 * developer's PATH), the organisation config named both as the layer and as
 * the config to decide by.
 */
export function systemCommand(agent: string, orgConfig: string, deadlineMs: number): string {
  const client = path.join(PACKAGE_ROOT, 'host', 'cli', 'hookbox-hook.cjs');
  return [
    `HOOKBOX_ORG_CONFIG=${shellQuote(orgConfig)}`,
    shellQuote(process.execPath),
    shellQuote(client),
    agent,
    '--config',
    shellQuote(orgConfig),
    '--socket',
    shellQuote(SYSTEM_SOCKET),
    '--deadline-ms',
    String(deadlineMs),
  ].join(' ');
}

/** The agent's machine-wide file on this platform (under `place.root` when given), or undefined. */
export function systemFileOf(bridge: AgentBridge, place: SystemPlace = {}): string | undefined {
  const system = bridge.setup.system;
  if (system.kind !== 'managed') return undefined;
  const file = system.file(place.platform ?? process.platform);
  return file === undefined ? undefined : place.root === undefined ? file : path.join(place.root, file);
}

function notWritable(file: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new ConfigError(
    `${file}: not writable (${code}: ${(error as Error).message}). The machine-wide scope is root's: run setup --system as root (sudo), or deliver this file through the platform's managed-settings mechanism (an MDM profile, configuration management)`,
  );
}

/** Writes beside the file and renames over it (a crash never leaves half a policy file); root's 0644, readable by the agents it binds. */
function writeAtomically(file: string, text: string, named: string = file): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    const temp = `${file}.hookbox-${process.pid}.tmp`;
    writeFileSync(temp, text, { mode: 0o644 });
    renameSync(temp, file);
  } catch (error) {
    throw notWritable(named, error);
  }
}

function readOriginal(file: string): SystemOriginal {
  const record = systemOriginalPath(file);
  if (!existsSync(record)) return undefined;
  try {
    const value = JSON.parse(readFileSync(record, 'utf8')) as { existed?: unknown; text?: unknown };
    if (value.existed === false) return { existed: false };
    if (value.existed === true && typeof value.text === 'string') return { existed: true, text: value.text };
  } catch {
    // A damaged record is no record: the file is only stripped.
  }
  return undefined;
}

function applyOne(bridge: AgentBridge, system: ManagedSystemSetup, file: string, org: ReturnType<typeof organisationConfig>, flags: SystemFlags, write: (text: string) => void): void {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const command = systemCommand(bridge.name, org.file, hookClientDeadlineMs({ hooks: org.hooks }));
  let next: string;
  try {
    next = system.apply(before, command, { lock: flags.lock === true, answerTimeoutMs: agentAnswerTimeoutMs({ hooks: org.hooks }) });
  } catch (error) {
    throw new ConfigError(`${file}: ${(error as Error).message}`);
  }
  const changed = next !== before;
  if (changed) {
    // The first time only: what --remove gives back.
    const record = systemOriginalPath(file);
    // Named by the policy file: the record beside it fails for the same reason.
    if (!existsSync(record)) writeAtomically(record, `${JSON.stringify(before === undefined ? { existed: false } : { existed: true, text: before })}\n`, file);
    writeAtomically(file, next);
  }
  write(`${bridge.label} (${bridge.name}) ${file}: ${changed ? 'updated' : 'unchanged'}\n`);
  write(`  runs: ${printable(command)}\n`);
  if (flags.lock === true) {
    write(`  locked (${system.lockKeys}): ${bridge.label} now refuses ${system.lockRefuses}\n`);
    write(`  a lower scope can still: ${system.lowerScope.locked}\n`);
  } else {
    write(`  not locked: ${system.lowerScope.unlocked}; --lock also writes ${system.lockKeys}\n`);
  }
}

function removeOne(bridge: AgentBridge, system: ManagedSystemSetup, file: string, write: (text: string) => void): void {
  const record = systemOriginalPath(file);
  if (!existsSync(file)) {
    write(`${bridge.label} (${bridge.name}) ${file}: not there, nothing to take out\n`);
    return;
  }
  const text = readFileSync(file, 'utf8');
  let next: string | undefined;
  try {
    next = system.remove(text, readOriginal(file));
  } catch (error) {
    throw new ConfigError(`${file}: ${(error as Error).message}`);
  }
  try {
    if (next === undefined) rmSync(file);
    else if (next !== text) writeAtomically(file, next);
    rmSync(record, { force: true });
  } catch (error) {
    throw error instanceof ConfigError ? error : notWritable(file, error);
  }
  write(`${bridge.label} (${bridge.name}) ${file}: ${next === undefined ? 'removed (hookbox had made it)' : next === text ? 'unchanged (no hookbox entries)' : "hookbox's entries taken out"}\n`);
}

/**
 * `hookbox setup --system [agent…]`: hookbox's entries in each named agent's
 * machine-wide scope (default: every agent that has one here), running the
 * organisation config; `--lock` also the agent's "managed hooks only" keys;
 * `--remove` takes exactly them out. An agent with no such scope is named
 * with the strongest alternative. One agent's error does not stop the
 * others; they are raised together at the end.
 */
export function setupSystem(agents: readonly string[], flags: SystemFlags, write: (text: string) => void, place: SystemPlace = {}): void {
  const names = agents.length > 0 ? agents : AGENT_NAMES.filter((name) => systemFileOf(agentBridge(name), place) !== undefined);
  const bridges = names.map((name) => agentBridge(name));
  const org = flags.remove === true ? undefined : organisationConfig(place.env);
  if (org !== undefined) write(`organisation config ${org.file}: loads, ${org.hooks.length} hook${org.hooks.length === 1 ? '' : 's'}\n`);
  const failed: string[] = [];
  for (const bridge of bridges) {
    const system = bridge.setup.system;
    const file = systemFileOf(bridge, place);
    if (system.kind === 'none' || file === undefined) {
      const why = system.kind === 'none' ? system.why : `${bridge.label} reads no machine-wide file on ${place.platform ?? process.platform}`;
      const instead = system.kind === 'none' ? system.alternative : `hookbox setup ${bridge.name} --user in every account`;
      write(`${bridge.label} (${bridge.name}): no machine-wide scope — ${why}. Strongest instead: ${instead}\n`);
      continue;
    }
    try {
      if (flags.remove === true) removeOne(bridge, system, file, write);
      else applyOne(bridge, system, file, org!, flags, write);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      write(`  not done: ${printable(error.message)}\n`);
      failed.push(`${bridge.name}: ${error.message}`);
    }
  }
  if (failed.length > 0) throw new ConfigError(`setup --system failed for ${failed.length} of ${bridges.length} agents — ${failed.join('; ')}`);
}
