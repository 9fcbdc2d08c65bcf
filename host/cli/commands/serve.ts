import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { ConfigError } from '../../errors.ts';
import { DEFAULT_SERVE_PORT, DecisionServer, defaultTokenPath, ensurePrivateDir, loadServedHooks, readOrCreateToken } from '../../serve/index.ts';
import { configIdentity } from '../../serve/config-identity.ts';
import { releasePidFile } from '../../serve/serve-lock.ts';
import { PROJECT_SOCKET } from '../setup-paths.ts';
import { claimSocket, idleExit, stopServer } from '../serve-lifecycle.ts';

interface ServeFlags {
  readonly config: string;
  readonly port?: string;
  readonly socket?: string;
  readonly tokenFile?: string;
  readonly maxSessions: string;
  readonly idleMinutes: string;
  readonly maxContinuations: string;
  readonly maxBodyBytes: string;
  readonly logDir?: string;
  readonly stop?: boolean;
  readonly autostarted?: boolean;
  readonly exitIdle?: string;
}

/** How long a self-started server (a client's first event started it) waits for an event before it leaves. */
const AUTOSTART_IDLE_SECONDS = 30 * 60;

function int(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${flag} expects an integer ≥ ${min}, got "${value}"`);
  return n;
}

/**
 * The socket a project's clients ask: `setup` writes `<project>/.hookbox/run/serve.sock`
 * into the agents' settings, and the project is the folder holding the config
 * (the one file every clone of the project has, where `setup` looks for it by default).
 */
export function projectSocket(config: string): string {
  return join(dirname(resolve(config)), PROJECT_SOCKET);
}

/** Runs the decision server until SIGTERM / SIGINT, then drains in-flight calls and closes. */
export async function serveCommand(flags: ServeFlags): Promise<void> {
  const neither = flags.port === undefined && flags.socket === undefined;
  // Neither: the project's socket only. A port is one per machine, so a default one would make the second project's server fail.
  const port = flags.port !== undefined ? int('--port', flags.port, 0) : undefined;
  const socket = flags.socket !== undefined ? resolve(flags.socket) : neither ? projectSocket(flags.config) : undefined;
  if (flags.stop === true) {
    if (socket === undefined) throw new ConfigError('--stop stops the server on a unix socket: give --socket or no --port');
    return stopServer(socket);
  }
  const autostarted = flags.autostarted === true;
  if (autostarted && socket === undefined) throw new ConfigError('--autostarted needs the unix socket');
  const exitIdle = flags.exitIdle !== undefined ? int('--exit-idle', flags.exitIdle, 1) : autostarted ? AUTOSTART_IDLE_SECONDS : undefined;
  const tokenFile = resolve(flags.tokenFile ?? defaultTokenPath());
  const token = port === undefined ? undefined : readOrCreateToken(tokenFile).token;
  if (socket !== undefined) {
    ensurePrivateDir(dirname(socket));
    if (!(await claimSocket(socket, resolve(flags.config), autostarted))) return;
  }
  try {
    await serveClaimed(flags, { port, socket, token, tokenFile, autostarted, exitIdle });
  } finally {
    if (socket !== undefined) releasePidFile(socket);
  }
}

interface Claimed {
  readonly port: number | undefined;
  readonly socket: string | undefined;
  readonly token: string | undefined;
  readonly tokenFile: string;
  readonly autostarted: boolean;
  readonly exitIdle: number | undefined;
}

/** The server, once it holds its socket's pid file: loads the hooks (a config it would refuse: it never listens), listens, serves until stopped. */
async function serveClaimed(flags: ServeFlags, { port, socket, token, tokenFile, autostarted, exitIdle }: Claimed): Promise<void> {
  const hooks = await loadServedHooks(resolve(flags.config));
  let stopWith: ((why: string) => void) | undefined;
  const idle = exitIdle === undefined ? undefined : idleExit(exitIdle, () => stopWith?.(`no event for ${exitIdle} s`));
  const server = new DecisionServer({
    hooks,
    ...(port !== undefined && { port }),
    ...(socket !== undefined && { socket }),
    ...(token !== undefined && { token }),
    maxSessions: int('--max-sessions', flags.maxSessions, 1),
    idleMs: int('--idle-minutes', flags.idleMinutes, 1) * 60_000,
    maxContinuations: int('--max-continuations', flags.maxContinuations, 0),
    maxBodyBytes: int('--max-body-bytes', flags.maxBodyBytes, 1024),
    ...(flags.logDir !== undefined && { logDir: resolve(flags.logDir) }),
    log: (line) => {
      idle?.touch();
      process.stderr.write(`${line}\n`);
    },
    // A self-started server never decides by a config changed since it started: it refuses and leaves, and the next event starts one.
    ...(autostarted && {
      configChanged: () => configIdentity(resolve(flags.config)).identity !== hooks.config?.identity,
      onConfigChanged: () => stopWith?.('the config changed on disk'),
    }),
  });
  try {
    await server.listen();
  } catch (error) {
    await server.close();
    throw portInUse(error, port) ?? error;
  }
  const where = [
    ...(server.port !== undefined ? [`http://127.0.0.1:${server.port} (bearer token in ${tokenFile})`] : []),
    ...(socket !== undefined ? [`unix:${socket}`] : []),
  ];
  process.stderr.write(`hookbox serve: listening on ${where.join(' and ')}; config ${resolve(flags.config)}\n`);
  await new Promise<void>((done) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`hookbox serve: ${signal}: finishing calls in flight\n`);
      void server.close().then(done);
    };
    stopWith = stop;
    // A self-started server whose project is gone (its config deleted, a removed checkout or temp folder) leaves.
    if (autostarted) setInterval(() => existsSync(resolve(flags.config)) || stop('its config is gone'), 5_000).unref();
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
    // A self-started server outlives the client that started it (it is detached, in its own session).
    if (!autostarted) watchParent(() => stop('the process that started it exited'));
  });
  process.stderr.write('hookbox serve: stopped\n');
}

/** A taken `--port` as one line naming it (Node's EADDRINUSE error comes with a stack). */
function portInUse(error: unknown, port: number | undefined): ConfigError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'EADDRINUSE' || port === undefined || (error as { port?: unknown }).port !== port) return undefined;
  return new ConfigError(`--port ${port}: 127.0.0.1:${port} is already in use (another hookbox serve?); stop it or choose another port`, { cause: error });
}

/**
 * Stops the server when the process that started it exits. Measured: SIGTERM to \`npx hookbox serve\`
 * reaches npm, which passes it to the \`sh -c\` it runs the bin under; the shell dies of it without
 * passing it on, and the server ran on, orphaned, holding its port and socket. Node has no
 * parent-death signal, so the parent id is polled (a reparented process's changes). A server started
 * by init itself (a supervisor, \`setsid\`) has no parent to watch.
 */
function watchParent(gone: () => void): void {
  const parent = process.ppid;
  if (parent <= 1) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, 500);
  timer.unref();
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description("decision server for agents' hooks (POST /hooks/<agent>): loopback HTTP with a bearer token and/or a unix socket")
    .requiredOption('-c, --config <file>', 'operator config (hookbox.config.json) with the hooks')
    .option('--port <n>', `loopback TCP port for http hooks (0 = any free one; setup --transport http uses ${DEFAULT_SERVE_PORT}); none unless given`)
    .option('--socket <path>', "unix socket, created 0600 in a folder only you can enter (default, when no --port: the project's, <the config's folder>/.hookbox/run/serve.sock, the one setup points the agents at)")
    .option('--token-file <file>', 'bearer token for HTTP, created 0600 if missing (default ~/.hookbox/serve-token)')
    .option('--max-sessions <n>', 'agent sessions held at once (least recently used closed past it)', '32')
    .option('--idle-minutes <n>', 'close an agent session idle this long (its log stays)', '30')
    .option('--max-continuations <n>', 'loop guard: times one turn may be forced on', '3')
    .option('--max-body-bytes <n>', 'largest request accepted (larger: 413 and the fail-closed answer)', String(4 * 1024 * 1024))
    .option('--log-dir <dir>', 'session logs here instead of <project>/.hookbox/sessions')
    .option('--stop', 'stop the hookbox serve on the socket (the project\'s, or --socket) and wait for it to finish its calls')
    .option('--exit-idle <seconds>', `leave after this long with no event (default: never; ${AUTOSTART_IDLE_SECONDS} for a server a client started)`)
    .addOption(new Option('--autostarted', 'started by a per-event client for its project (detached; leaves on a changed config)').hideHelp())
    .action(serveCommand);
}
