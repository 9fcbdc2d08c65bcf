import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  type AgentBridge,
  type SetupEdit,
  type SetupScope,
  type SetupTransport,
  AGENT_MARGIN_MS,
  agentAnswerTimeoutMs,
  agentBridge,
  agentNames,
  detectAgents,
  detectionLooksFor,
  hookClientDeadlineMs,
} from '../../agents/index.ts';
import { effectiveLimits, loadLayeredConfig } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { printable } from '../../text/index.ts';
import { DEFAULT_SERVE_PORT, defaultTokenPath, readOrCreateToken } from '../../serve/index.ts';
import { agentHasEntries } from '../doctor.ts';
import { refuseLinkOut } from '../setup-confine.ts';
import { readSettings, writeSettings } from '../settings-file.ts';
import { setupSystem } from '../setup-system.ts';
import { guardedIn, setupLocator, unregisterFromLocator } from '../setup-locator.ts';
import { PROJECT_SOCKET, clientCommand, clientFile, ensureGitignored, findProjectRoot, hookClientKind, hookCommand, installedIn, projectRelative, startFolderNote } from '../setup-paths.ts';
import { PACKAGE_ROOT } from '../../package.ts';
import { pathUnder } from '../../path-under.ts';

interface SetupFlags {
  readonly project?: string;
  readonly user?: boolean;
  readonly config?: string;
  /** Absent: the agent's own (a plugin where the agent loads one, else command). */
  readonly transport?: string;
  readonly client?: string;
  readonly socket?: string;
  readonly port?: string;
  readonly tokenFile?: string;
  readonly remove?: boolean;
  /** `--no-locator`: false. */
  readonly locator?: boolean;
}

interface Chosen {
  readonly transport: SetupTransport;
  readonly notes: string[];
  /** Files setup wrote that hold a secret or this machine's state: kept out of git. */
  readonly ignored: string[];
}

/**
 * The plugin a plugin agent loads (pi, OpenCode, Kilo CLI): the module through the
 * project's own `node_modules/hookbox` (relative to the plugin file, so a
 * committed file works on every checkout) when hookbox is installed there,
 * else its absolute path in this hookbox; the socket and config relative to
 * the project.
 */
function pluginTransportFor(bridge: AgentBridge, plugin: { module: string }, flags: SetupFlags, scope: SetupScope, config: string, deadlineMs: number): Chosen {
  const notes: string[] = [];
  const base = scope.kind === 'project' ? scope.dir : undefined;
  const socket = flags.socket !== undefined ? resolve(flags.socket) : base !== undefined ? join(base, PROJECT_SOCKET) : join(homedir(), '.hookbox', 'serve.sock');
  const shown = (file: string) => (base === undefined ? file : projectRelative(base, file));
  const pluginFile = bridge.setup.settingsPath(scope);
  let module = join(PACKAGE_ROOT, plugin.module);
  if (base !== undefined && installedIn(base)) module = relative(dirname(pluginFile), join(base, 'node_modules', 'hookbox', plugin.module)).split('\\').join('/');
  else if (base !== undefined) {
    notes.push(
      `hookbox is not installed in ${join(base, 'node_modules')}: the plugin file imports ${module}, which only this machine has — install it there (npm i -D hookbox) and run setup again for a plugin file that works on every checkout`,
    );
  }
  notes.push(`start the server for speed and for hooks that remember across events (it serves this project's config only): hookbox serve --config ${config} --socket ${socket}`);
  return { transport: { kind: 'plugin', module, options: { socket: shown(socket), config: shown(config), deadlineMs } }, notes, ignored: ['.hookbox/'] };
}

/** The project `dir` is a subfolder of (its nearest folder above holding the config), when `dir` holds none itself. */
function projectAbove(dir: string): string | undefined {
  const root = findProjectRoot(dir);
  return root !== undefined && root !== resolve(dir) ? root : undefined;
}

function transportFor(bridge: AgentBridge, flags: SetupFlags, scope: SetupScope, config: string, deadlineMs: number): Chosen {
  const notes: string[] = [];
  if (flags.transport === 'plugin' && bridge.setup.plugin !== undefined) return pluginTransportFor(bridge, bridge.setup.plugin, flags, scope, config, deadlineMs);
  if (flags.transport === 'command') {
    // Settings in a subfolder of a project (`--project src`, for an agent that reads them only where it starts): paths start at the project above.
    const above = scope.kind === 'project' ? projectAbove(scope.dir) : undefined;
    // Only when the config is that project's: a config elsewhere leaves the folder a project of its own.
    const root = above !== undefined && pathUnder(above, config) !== undefined ? above : undefined;
    const base = root ?? (scope.kind === 'project' ? scope.dir : undefined);
    // A project's socket is its own (a server serves one project); relative paths start at the project.
    const socket = flags.socket !== undefined ? resolve(flags.socket) : base !== undefined ? join(base, PROJECT_SOCKET) : join(homedir(), '.hookbox', 'serve.sock');
    // Below the project, an agent with a project variable gets paths from its folder up (`../hookbox.config.json`): fixed by the checkout, nothing to search.
    const up = root !== undefined && scope.kind === 'project' && bridge.projectDirVariable !== undefined ? relative(scope.dir, root) : undefined;
    const shown = (file: string) => (base === undefined ? file : up !== undefined && pathUnder(base, file) !== undefined ? relative(scope.kind === 'project' ? scope.dir : base, file) : projectRelative(base, file));
    const variable = { variable: root === undefined || up !== undefined };
    const client = clientCommand(bridge.name, base === undefined ? scope : { kind: 'project', dir: base }, hookClientKind(flags.client), { ...variable, ...(up !== undefined && { up }) });
    const settingsInProject = relative(base ?? '.', bridge.setup.settingsPath(scope));
    // The prologue looks for the project by its config and, when they are at the project, the agent's settings holding this very command.
    const markers = [...(base !== undefined && !isAbsolute(shown(config)) ? [shown(config)] : []), ...(root === undefined ? [settingsInProject] : [])];
    const command = hookCommand(bridge.name, scope, client, { before: [bridge.name], socket: shown(socket), config: shown(config), after: ['--deadline-ms', String(deadlineMs)] }, markers, variable);
    if (root !== undefined && scope.kind === 'project') notes.push(`${scope.dir} is a subfolder of the project ${root}: the hook command uses the project's config and socket (${up !== undefined ? `named from $${bridge.projectDirVariable ?? ''} up` : 'found by walking up from where the agent starts'})`);
    if (client.client.includes(`native/${process.platform}-${process.arch}/`) && scope.kind === 'project') {
      notes.push(`the hook command runs the native client built for ${process.platform}-${process.arch}: on a checkout of another platform it is missing and ${bridge.label} refuses the events there (fails closed); for settings every platform runs: hookbox setup ${bridge.name} --client sh`);
    }
    if (!client.portable && scope.kind === 'project') {
      notes.push(
        `hookbox is not installed in ${join(scope.dir, 'node_modules')}: the hook command names ${client.client}, which only this machine has — install it there (npm i -D hookbox) and run setup again for settings that work on every checkout`,
      );
    }
    notes.push(`start the server for speed and for hooks that remember across events (it serves this project's config only): hookbox serve --config ${config} --socket ${socket}`);
    return { transport: { kind: 'command', command }, notes, ignored: ['.hookbox/'] };
  }
  if (flags.transport !== 'http') throw new ConfigError(`--transport: expected "command", "http" or "plugin", got "${flags.transport}"`);
  const port = flags.port === undefined ? DEFAULT_SERVE_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(`--port: expected a TCP port, got "${flags.port}"`);
  const tokenFile = resolve(flags.tokenFile ?? defaultTokenPath());
  const { token, created } = readOrCreateToken(tokenFile);
  notes.push(`${created ? 'created' : 'using'} the bearer token ${tokenFile} (0600)`);
  notes.push(
    `a port squatter: whatever process listens on 127.0.0.1:${port} while hookbox serve is down receives every prompt, tool call and output with the bearer token, and its "allow" overrides nothing of Claude Code's own rules but lets calls hookbox would deny run; \`hookbox doctor ${bridge.name}\` asks the server to prove it holds the token and reports a squatter`,
  );
  notes.push(`start the server: hookbox serve --config ${config} --port ${port}${flags.tokenFile !== undefined ? ` --token-file ${tokenFile}` : ''}`);
  return {
    transport: { kind: 'http', url: `http://127.0.0.1:${port}/hooks/${bridge.name}`, headers: { Authorization: `Bearer ${token}` } },
    notes,
    ignored: ['.hookbox/'],
  };
}

/** The client's deadline: the hooks' worst case, capped a margin below an agent's fixed hook timeout (past which it runs the call). */
function clientDeadline(bridge: AgentBridge, hooks: ReturnType<typeof effectiveHooks>): number {
  const wanted = hookClientDeadlineMs({ hooks });
  const fixed = bridge.setup.fixedAnswerTimeoutMs;
  return fixed === undefined ? wanted : Math.min(wanted, fixed - AGENT_MARGIN_MS);
}

/** The hooks' effective limits (the operator's, else what each manifest requests): what the deadlines derive from. */
function effectiveHooks(config: string): { limits: { timeoutMs?: number }; command?: string }[] {
  const loaded = loadLayeredConfig({ project: config }); // a bad config fails here, not at the agent's first event
  return loaded.hooks.map((entry) => ({ limits: effectiveLimits(entry), ...(entry.command !== undefined && { command: entry.command }) }));
}

function scopeOf(flags: SetupFlags): SetupScope {
  if (flags.project !== undefined && flags.user === true) throw new ConfigError('give --project DIR or --user, not both');
  // No --project: the project the current folder is in (run in a subfolder, setup sets up the project above it).
  return flags.user === true ? { kind: 'user', home: homedir() } : { kind: 'project', dir: resolve(flags.project ?? findProjectRoot(process.cwd()) ?? '.') };
}

/**
 * `hookbox setup` with no agent named: every agent the project (or, with
 * `--user`, the user) uses — its folder there, else its command on PATH —
 * is set up in turn; with `--remove`, every agent whose settings hold
 * hookbox entries loses them. One agent's error does not stop the others;
 * the errors are raised together at the end. Returns the agents set up.
 */
export function setupDetected(flags: SetupFlags, write: (text: string) => void): string[] {
  const scope = scopeOf(flags);
  const where = scope.kind === 'project' ? scope.dir : `${scope.home} (the user's settings)`;
  const chosen =
    flags.remove === true
      ? agentNames()
          .filter((name) => agentHasEntries(agentBridge(name), scope))
          .map((name) => ({ name, why: 'its settings hold hookbox entries' }))
      : detectAgents(scope);
  if (chosen.length === 0) {
    if (flags.remove === true) {
      write(`no agent's settings for ${where} hold hookbox entries\n`);
      return [];
    }
    throw new ConfigError(`no agent detected for ${where}: ${detectionLooksFor()}; name the agent: hookbox setup <agent> (one of: ${agentNames().join(', ')})`);
  }
  const failed: string[] = [];
  for (const { name, why } of chosen) {
    write(`${agentBridge(name).label} (${name}): ${why}\n`);
    try {
      setupCommand(name, flags, write);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      write(`  not set up: ${printable(error.message)}\n`);
      failed.push(`${name}: ${error.message}`);
    }
  }
  if (failed.length > 0) throw new ConfigError(`setup failed for ${failed.length} of ${chosen.length} agents — ${failed.join('; ')}`);
  return chosen.map(({ name }) => name);
}

/** The project's record in the user-level locator (`setup-locator.ts`), unless opted out. */
function locatorFor(bridge: AgentBridge, flags: SetupFlags, dir: string): string[] {
  const config = resolve(flags.config ?? join(projectAbove(dir) ?? dir, 'hookbox.config.json'));
  const above = projectAbove(dir);
  const root = above !== undefined && pathUnder(above, config) !== undefined ? above : dir;
  const off = flags.locator === false ? '--no-locator' : process.env.HOOKBOX_NO_LOCATOR === '1' ? 'HOOKBOX_NO_LOCATOR=1' : undefined;
  const deadlineMs = clientDeadline(bridge, effectiveHooks(config));
  return setupLocator(bridge, { dir, root, config, client: clientFile(hookClientKind(flags.client), root), deadlineMs }, off);
}

/** `hookbox setup <agent>`: merges hookbox's hook entries into the agent's settings (or takes them out). */
export function setupCommand(agent: string, flags: SetupFlags, write: (text: string) => void): SetupEdit {
  const bridge = agentBridge(agent);
  const scope = scopeOf(flags);
  const transport = flags.transport ?? (bridge.setup.plugin !== undefined ? 'plugin' : 'command');
  const kind = transport === 'http' ? 'http' : transport === 'plugin' ? 'plugin' : 'command';
  const format = bridge.setup.fileFormat;
  const committed = bridge.setup.settingsPath(scope);
  // A transport that carries a secret goes to the agent's uncommitted settings file, where it has one.
  const local = bridge.setup.localSettingsPath?.(scope);
  const file = kind === 'http' && local !== undefined ? local : committed;
  const other = local === undefined ? undefined : file === committed ? local : committed;
  // Nothing is read or written through a committed link out of the project (or the home folder).
  const [root, rootName] = scope.kind === 'project' ? [scope.dir, 'project'] : [scope.home, 'home folder'];
  for (const written of [file, ...(other === undefined ? [] : [other]), ...(scope.kind === 'project' ? [join(scope.dir, '.gitignore')] : [])]) refuseLinkOut(written, root, rootName);
  const folder = bridge.setup.folderFormat;
  const settings = folder !== undefined ? folder.read(file) : readSettings(file, format);
  let edit: SetupEdit;
  let notes: string[] = [];
  let ignored: string[] = [];
  let secret = false;
  if (flags.remove === true) {
    edit = bridge.setup.remove(settings);
  } else {
    const config = resolve(flags.config ?? join(scope.kind === 'project' ? (projectAbove(scope.dir) ?? scope.dir) : '.', 'hookbox.config.json'));
    if (flags.config === undefined && !existsSync(config)) {
      throw new ConfigError(`${config} does not exist: write the operator config whose hooks the agent should run there, or name it with --config FILE`);
    }
    const hooks = effectiveHooks(config);
    const unsupported = bridge.setup.unsupported(kind);
    if (unsupported !== undefined) throw new ConfigError(`--transport ${kind}: ${unsupported}`);
    const chosen = transportFor(bridge, { ...flags, transport }, scope, config, clientDeadline(bridge, hooks));
    notes = chosen.notes;
    if (clientDeadline(bridge, hooks) < hookClientDeadlineMs({ hooks })) {
      notes.push(
        `the hooks' limits add up to ${hookClientDeadlineMs({ hooks })} ms for one answer, but ${bridge.label} waits ${String(bridge.setup.fixedAnswerTimeoutMs)} ms for a hook and then runs the call: the client answers closed at ${clientDeadline(bridge, hooks)} ms, before that`,
      );
    }
    ignored = chosen.ignored;
    secret = chosen.transport.kind === 'http';
    try {
      edit = bridge.setup.apply(settings, chosen.transport, { answerTimeoutMs: agentAnswerTimeoutMs({ hooks }) });
    } catch (error) {
      throw new ConfigError(`${file}: ${(error as Error).message}`);
    }
    notes.unshift(bridge.setup.tradeOff(kind));
  }
  const changed = edit.changes.some((change) => change.action !== 'unchanged');
  if (changed && folder !== undefined) folder.write(file, edit.settings);
  else if (changed) writeSettings(file, edit.settings, secret, format);
  write(`${bridge.label} settings ${file}: ${changed ? 'updated' : 'unchanged'}\n`);
  for (const change of edit.changes) write(`  ${change.action} ${change.where}: ${printable(change.what.replace(/Bearer \S+/g, 'Bearer …'))}\n`);
  if (flags.remove === true && edit.changes.length === 0) write('  no hookbox entries found\n');
  // hookbox's entries live in one of the two files: the other loses any it still has.
  if (other !== undefined && existsSync(other)) {
    const before = readSettings(other);
    const stripped = bridge.setup.remove(before);
    if (stripped.changes.length > 0) {
      writeSettings(other, stripped.settings, other === local);
      write(`${bridge.label} settings ${other}: hookbox's other entries taken out\n`);
      for (const change of stripped.changes) write(`  ${change.action} ${change.where}: ${printable(change.what.replace(/Bearer \S+/g, 'Bearer …'))}\n`);
    }
  }
  if (scope.kind === 'project' && flags.remove !== true) {
    const entries = [...ignored, ...(file === local ? [projectRelative(scope.dir, local)] : [])];
    const added = ensureGitignored(scope.dir, entries);
    if (added.length > 0) write(`  added to ${join(scope.dir, '.gitignore')}: ${added.join(', ')} (session logs hold raw tool output${file === local ? '; the local settings hold the token' : ''})\n`);
  }
  if (bridge.setup.finish !== undefined) {
    let finished;
    try {
      finished = bridge.setup.finish({ scope, settingsFile: file, before: settings, after: edit.settings, removing: flags.remove === true });
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    for (const change of finished.changes) write(`  ${change.action} ${change.where}: ${printable(change.what)}\n`);
    notes.push(...finished.notes);
  }
  if (bridge.setup.locator !== undefined && scope.kind === 'project') {
    if (flags.remove === true) notes.push(...unregisterFromLocator(bridge, scope.dir));
    else notes.push(...locatorFor(bridge, flags, scope.dir));
  }
  const subfolder = flags.project === undefined && flags.remove !== true && scope.kind === 'project' ? startFolderNote(bridge, scope.dir, process.cwd(), (dir) => guardedIn(bridge, dir)) : undefined;
  if (subfolder !== undefined && scope.kind === 'project') notes.push(`set up ${scope.dir}, the project above this folder. ${subfolder.what}. Fix: ${subfolder.fix}`);
  for (const note of notes) write(`${note}\n`);
  return edit;
}

export function registerSetupCommand(program: Command): void {
  program
    .command('setup')
    .description("merge hookbox's hooks into an agent's settings, keeping everything else; --remove takes exactly them out")
    .argument('[agents...]', `the agents: ${agentNames().join(', ')} (default: every agent the project uses — its folder there, else its command on PATH; with --remove, every agent whose settings hold hookbox entries; with --system, every agent with a machine-wide scope)`)
    .option('--project <dir>', "the project's settings (default: the project the current folder is in — itself or the nearest folder above holding hookbox.config.json)")
    .option('--user', "the user's settings (~/.claude/settings.json for Claude Code)")
    .option('-c, --config <file>', 'operator config with the hooks (default: hookbox.config.json in the project)')
    .option(
      '--transport <kind>',
      'command (the default: fails closed; a process per event), http (faster; Claude Code only: with the server down it blocks, but a process squatting on the port gets every event and the token) or plugin (pi, OpenCode and Kilo CLI, their default and only one: hookbox inside the agent)',
    )
    .option('--client <kind>', 'command transport: native (a C program, no interpreter start; the default where npm run build found a C compiler), sh (no Node start per event while the server is up; the default elsewhere with a POSIX sh), or node')
    .option('--socket <path>', 'command transport: the server socket the hook asks (default <project>/.hookbox/run/serve.sock; ~/.hookbox/serve.sock with --user)')
    .option('--port <n>', `http transport: the server port (default ${DEFAULT_SERVE_PORT})`)
    .option('--token-file <file>', 'http transport: the bearer token file (default ~/.hookbox/serve-token, created if missing)')
    .option('--remove', "take hookbox's entries out")
    .option('--no-locator', "Claude Code: no user-level locator in ~/.claude/settings.json (by default setup registers the project there, so Claude Code started in a subfolder of it is guarded too)")
    .option('--system', "the agents' machine-wide (managed) scope, above every user and project setting: runs the organisation config (HOOKBOX_ORG_CONFIG or /etc/hookbox/config.json) with this hookbox by absolute path; as root")
    .option('--lock', "with --system: also the agent's own \"managed hooks only\" keys (Claude Code's allowManagedHooksOnly, Codex's allow_managed_hooks_only, Gemini CLI's hooksConfig.enabled)")
    .action((agents: string[], flags: SetupFlags & { system?: boolean; lock?: boolean }) => {
      const write = (text: string) => process.stdout.write(text);
      if (flags.system === true) {
        const local = (['project', 'user', 'config', 'transport', 'client', 'socket', 'port', 'tokenFile'] as const).filter((key) => flags[key] !== undefined);
        if (local.length > 0) throw new ConfigError(`--system takes no ${local.map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')}: its entries run the organisation config over the command transport`);
        setupSystem(agents, { ...(flags.lock === true && { lock: true }), ...(flags.remove === true && { remove: true }) }, write);
        return;
      }
      if (flags.lock === true) throw new ConfigError('--lock goes with --system');
      if (agents.length === 0) setupDetected(flags, write);
      else for (const agent of agents) setupCommand(agent, flags, write);
    });
}
