import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { type AgentBridge, type SetupEdit, type SetupScope, type SetupTransport, agentAnswerTimeoutMs, agentBridge, agentNames } from '../../bridges/agents/index.ts';
import { loadLayeredConfig } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { PACKAGE_ROOT } from '../../package.ts';
import { printable } from '../../text/index.ts';
import { DEFAULT_SERVE_PORT, defaultSocketPath, defaultTokenPath, readOrCreateToken } from '../../serve/index.ts';

interface SetupFlags {
  readonly project?: string;
  readonly user?: boolean;
  readonly config?: string;
  readonly transport: string;
  readonly socket?: string;
  readonly port?: string;
  readonly tokenFile?: string;
  readonly remove?: boolean;
}

/** `hookbox hook` as a file node runs directly (CommonJS, no loader): what the agent's command hook calls. */
// From the package root, not this module: the client ships as source, and this module may run from dist/.
const HOOK_CLIENT = join(PACKAGE_ROOT, 'host', 'cli', 'hookbox-hook.cjs');

/** POSIX single-quoting for one word of the command line the agent runs through `sh`. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function readSettings(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message}); fix it first, hookbox will not overwrite it`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${file}: expected a JSON object at the top level`);
  return value as Record<string, unknown>;
}

/** Writes next to the file and renames over it, so a crash never leaves half a settings file. */
function writeSettings(file: string, settings: Record<string, unknown>, secret: boolean): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.hookbox-${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: secret ? 0o600 : 0o644 });
  renameSync(temp, file);
}

function transportFor(bridge: AgentBridge, flags: SetupFlags, config: string): { transport: SetupTransport; notes: string[] } {
  const notes: string[] = [];
  if (flags.transport === 'command') {
    const socket = resolve(flags.socket ?? defaultSocketPath());
    const command = [process.execPath, HOOK_CLIENT, bridge.name, '--socket', socket, '--config', config].map(shellQuote).join(' ');
    notes.push(`start the server for speed and for hooks that remember across events: hookbox serve --config ${config} --socket ${socket}`);
    return { transport: { kind: 'command', command }, notes };
  }
  if (flags.transport !== 'http') throw new ConfigError(`--transport: expected "command" or "http", got "${flags.transport}"`);
  const port = flags.port === undefined ? DEFAULT_SERVE_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(`--port: expected a TCP port, got "${flags.port}"`);
  const tokenFile = resolve(flags.tokenFile ?? defaultTokenPath());
  const { token, created } = readOrCreateToken(tokenFile);
  notes.push(`${created ? 'created' : 'using'} the bearer token ${tokenFile} (0600); the settings file now holds it too and is written 0600 — do not commit it`);
  notes.push(`start the server: hookbox serve --config ${config} --port ${port}${flags.tokenFile !== undefined ? ` --token-file ${tokenFile}` : ''}`);
  return { transport: { kind: 'http', url: `http://127.0.0.1:${port}/hooks/${bridge.name}`, headers: { Authorization: `Bearer ${token}` } }, notes };
}

/** `hookbox setup <agent>`: merges hookbox's hook entries into the agent's settings (or takes them out). */
export function setupCommand(agent: string, flags: SetupFlags, write: (text: string) => void): SetupEdit {
  const bridge = agentBridge(agent);
  if (flags.project !== undefined && flags.user === true) throw new ConfigError('give --project DIR or --user, not both');
  const scope: SetupScope = flags.user === true ? { kind: 'user', home: homedir() } : { kind: 'project', dir: resolve(flags.project ?? '.') };
  const file = bridge.setup.settingsPath(scope);
  const settings = readSettings(file);
  let edit: SetupEdit;
  let notes: string[] = [];
  let secret = false;
  if (flags.remove === true) {
    edit = bridge.setup.remove(settings);
  } else {
    const config = resolve(flags.config ?? join(scope.kind === 'project' ? scope.dir : '.', 'hookbox.config.json'));
    if (flags.config === undefined && !existsSync(config)) {
      throw new ConfigError(`${config} does not exist: write the operator config whose hooks the agent should run there, or name it with --config FILE`);
    }
    const loaded = loadLayeredConfig({ project: config }); // a bad config fails here, not at the agent's first event
    const kind = flags.transport === 'http' ? 'http' : 'command';
    const unsupported = bridge.setup.unsupported(kind);
    if (unsupported !== undefined) throw new ConfigError(`--transport ${kind}: ${unsupported}`);
    const chosen = transportFor(bridge, flags, config);
    notes = chosen.notes;
    secret = chosen.transport.kind === 'http';
    try {
      edit = bridge.setup.apply(settings, chosen.transport, { answerTimeoutMs: agentAnswerTimeoutMs(loaded) });
    } catch (error) {
      throw new ConfigError(`${file}: ${(error as Error).message}`);
    }
    notes.unshift(bridge.setup.tradeOff(kind));
  }
  const changed = edit.changes.some((change) => change.action !== 'unchanged');
  if (changed) writeSettings(file, edit.settings, secret);
  write(`${bridge.label} settings ${file}: ${changed ? 'updated' : 'unchanged'}\n`);
  for (const change of edit.changes) write(`  ${change.action} ${change.where}: ${printable(change.what.replace(/Bearer \S+/g, 'Bearer …'))}\n`);
  if (flags.remove === true && edit.changes.length === 0) write('  no hookbox entries found\n');
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
  for (const note of notes) write(`${note}\n`);
  return edit;
}

export function registerSetupCommand(program: Command): void {
  program
    .command('setup')
    .description("merge hookbox's hooks into an agent's settings, keeping everything else; --remove takes exactly them out")
    .argument('<agent>', `the agent: ${agentNames().join(', ')}`)
    .option('--project <dir>', "the project's settings (default: the current folder)")
    .option('--user', "the user's settings (~/.claude/settings.json for Claude Code)")
    .option('-c, --config <file>', 'operator config with the hooks (default: hookbox.config.json in the project)')
    .option('--transport <kind>', 'command (fails closed; a process per event) or http (faster; fails open when the server is down)', 'command')
    .option('--socket <path>', 'command transport: the server socket the hook asks (default ~/.hookbox/serve.sock)')
    .option('--port <n>', `http transport: the server port (default ${DEFAULT_SERVE_PORT})`)
    .option('--token-file <file>', 'http transport: the bearer token file (default ~/.hookbox/serve-token, created if missing)')
    .option('--remove', "take hookbox's entries out")
    .action((agent: string, flags: SetupFlags) => {
      setupCommand(agent, flags, (text) => process.stdout.write(text));
    });
}
