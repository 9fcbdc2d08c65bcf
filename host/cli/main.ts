import { Command, CommanderError } from 'commander';
import pc from 'picocolors';
import { HostError } from '../errors.ts';
import { printableLines } from '../text/index.ts';
import { HOOKBOX_VERSION } from '../package.ts';
import type { WorkerPool } from '../runner/pool.ts';
import { startCliTelemetry } from './telemetry.ts';

/**
 * Every command, by name, with what the top-level help lists for it and the
 * module that registers it. Only the command being run is imported: each
 * module pulls in its own dependencies (the runner, the compiler, zod, an
 * agent SDK…), and importing all of them made `hookbox --help` load the whole
 * host. `tests/unit/cli-catalog.spec.ts` checks this table against what the
 * modules register.
 */
export interface CatalogEntry {
  readonly name: string;
  /** The command's term in the top-level help: name, `[options]`, arguments. */
  readonly term: string;
  readonly description: string;
  /** `prestarted`: what `prestart` started, when this run started it. */
  readonly register: (prestarted?: WorkerPool) => Promise<(program: Command) => void>;
  /**
   * Work the command will need that can start before its module loads, so it
   * overlaps the loading: `call`'s worker thread. Closed by `main` on every
   * path (closing twice is harmless), so a command that stops early (bad
   * input, `--help`) leaves no worker behind.
   */
  readonly prestart?: () => Promise<WorkerPool>;
  /** The command runs sessions or dispatches seams, so `OTEL_*` may turn on OpenTelemetry for it. */
  readonly telemetry?: true;
}

export const COMMAND_CATALOG: readonly CatalogEntry[] = [
  {
    name: 'run',
    term: 'run [options] [prompt...]',
    description: 'run a session through the agent loop: prompts from arguments, or stdin one per line',
    telemetry: true,
    register: async () => (await import('./commands/run.ts')).registerRunCommand,
  },
  {
    name: 'demo',
    term: 'demo [options]',
    description: 'run the demo session: six example wasm hooks on a scripted session in a temporary workspace',
    telemetry: true,
    register: async () => (await import('./commands/demo.ts')).registerDemoCommand,
  },
  {
    name: 'call',
    term: 'call [options] <hook>',
    description: 'invoke one hook on one payload, through the sandbox and the seam fault policy',
    register: async (workers) => {
      const { registerCallCommand } = await import('./commands/call.ts');
      return (program) => registerCallCommand(program, workers);
    },
    prestart: async () => (await import('./call-workers.ts')).startCallWorkers(),
  },
  {
    name: 'test',
    term: 'test [cases-file]',
    description: "run a table of policy cases through the config's real sandboxed hooks; prints each case and the rule coverage, exits 1 when a case fails",
    register: async () => (await import('./commands/test.ts')).registerTestCommand,
  },
  {
    name: 'policies',
    term: 'policies [name]',
    description: 'list the built-in policies a config names with "policy"; with <name>, its config schema and an example entry',
    register: async () => (await import('./commands/policies.ts')).registerPoliciesCommand,
  },
  {
    name: 'inspect',
    term: 'inspect [options] <file>',
    description: 'show a hook module: exports, handled seams, imports, memory limits, sha256, size',
    register: async () => (await import('./commands/inspect.ts')).registerInspectCommand,
  },
  {
    name: 'build',
    term: 'build [options] [entry]',
    description: "compile a TypeScript/JavaScript hook to an Extism wasm plugin and its hook.json; without <entry>, every hook of the project's config",
    register: async () => (await import('./commands/build.ts')).registerBuildCommand,
  },
  {
    name: 'init',
    term: 'init [options] <dir>',
    description: 'scaffold a hook project (package.json, hook.ts, tsconfig.json, a test)',
    register: async () => (await import('./commands/init.ts')).registerInitCommand,
  },
  {
    name: 'pack',
    term: 'pack [options] [project]',
    description: 'build a hook project into an npm hook package (package.json "hookbox" field, wasm, hook.json) and npm pack it into a tarball',
    register: async () => (await import('./commands/pack.ts')).registerPackCommand,
  },
  {
    name: 'add',
    term: 'add [options] <package>',
    description: 'install a hook package with npm into .hookbox/packages, review what its hooks request, and pin them in the config',
    register: async () => (await import('./commands/add.ts')).registerAddCommand,
  },
  {
    name: 'verify',
    term: 'verify [options]',
    description: "check every configured hook against its pin (the wasm's sha256, every field of the manifest, the package's name and version); exit 1 when one changed",
    register: async () => (await import('./commands/verify.ts')).registerVerifyCommand,
  },
  {
    name: 'replay',
    term: 'replay [options] <session.jsonl>',
    description: 're-decide every recorded prompt and tool call of a session log against another hook set (no tool runs); exit 1 when anything changes',
    register: async () => (await import('./commands/replay.ts')).registerReplayCommand,
  },
  {
    name: 'import-claude',
    term: 'import-claude [options] <settings.json>',
    description: "convert the hooks of a Claude Code settings file into a hookbox config of shell hooks (unsandboxed, Claude Code's timeout, failing closed)",
    register: async () => only('import-claude', (await import('./commands/import-hooks.ts')).registerImportCommands),
  },
  {
    name: 'import-codex',
    term: 'import-codex [options] <hooks.json|config.toml>',
    description: "convert the hooks of a Codex hooks.json or config.toml into a hookbox config of shell hooks (unsandboxed, Codex's timeout, failing closed)",
    register: async () => only('import-codex', (await import('./commands/import-hooks.ts')).registerImportCommands),
  },
  {
    name: 'acp',
    term: 'acp [options]',
    description: 'serve the agent loop to an editor over the Agent Client Protocol (JSON-RPC on stdin/stdout)',
    telemetry: true,
    register: async () => (await import('./commands/acp.ts')).registerAcpCommand,
  },
  {
    name: 'serve',
    term: 'serve [options]',
    description: "decision server for agents' hooks (POST /hooks/<agent>): loopback HTTP with a bearer token and/or a unix socket",
    telemetry: true,
    register: async () => (await import('./commands/serve.ts')).registerServeCommand,
  },
  {
    name: 'hook',
    term: 'hook [options] <agent> [event]',
    description: "the command hook an agent runs per event: stdin → hookbox serve's socket → the agent's answer; with no server (or one serving another project's config), decides in-process; fails closed in the agent's format",
    register: async () => (await import('./commands/hook.ts')).registerHookCommand,
  },
  {
    name: 'setup',
    term: 'setup [options] [agents...]',
    description: "merge hookbox's hooks into an agent's settings, keeping everything else; --remove takes exactly them out",
    register: async () => (await import('./commands/setup.ts')).registerSetupCommand,
  },
  {
    name: 'report',
    term: 'report [options] <session.jsonl...>',
    description: 'write a self-contained HTML audit report of session logs (run, acp, serve): summary, per-hook table, latency charts, denials, timeline',
    register: async () => (await import('./commands/report.ts')).registerReportCommand,
  },
  {
    name: 'doctor',
    term: 'doctor [options] [agent]',
    description: "check that an agent will run hookbox's hooks: entries present, trusted, server answering, a probe decided; exit 1 with the fix when not",
    register: async () => (await import('./commands/doctor.ts')).registerDoctorCommand,
  },
  {
    name: 'config',
    term: 'config',
    description: 'the layered configuration (organisation, user, project): config explain shows the effective one',
    register: async () => (await import('./commands/config.ts')).registerConfigCommand,
  },
];

/** A module that registers several commands, narrowed to the one asked for. */
function only(name: string, register: (program: Command) => void): (program: Command) => void {
  return (program) => {
    const scratch = new Command();
    register(scratch);
    const command = scratch.commands.find((c) => c.name() === name);
    if (command === undefined) throw new Error(`the module for "${name}" does not register it`);
    program.addCommand(command);
  };
}

function rootProgram(): Command {
  return new Command('hookbox')
    .description('sandboxed WebAssembly hooks for AI coding-agent loops')
    .version(HOOKBOX_VERSION)
    .showHelpAfterError()
    .exitOverride();
}

/**
 * The program with the commands `argv` runs registered for real, and every
 * other command as a catalog entry (its help line; unknown-command
 * suggestions still see it). `argv` absent: every command for real.
 * `prestarted`: what the command `argv` runs had started (`prestart`).
 */
export async function buildProgram(argv?: readonly string[], prestarted?: WorkerPool): Promise<Command> {
  const program = rootProgram();
  const wanted = argv === undefined ? undefined : commandNames(argv);
  const terms = new Map<Command, string>();
  for (const entry of COMMAND_CATALOG) {
    if (wanted === undefined || wanted.has(entry.name)) {
      (await entry.register(prestarted))(program);
    } else {
      terms.set(program.command(entry.name).description(entry.description), entry.term);
    }
  }
  if (terms.size > 0) {
    const help = program.createHelp();
    program.configureHelp({ subcommandTerm: (command) => terms.get(command) ?? help.subcommandTerm(command) });
  }
  return program;
}

/** The command (and, for `help <command>`, the command asked about) an argv names. */
function commandNames(argv: readonly string[]): Set<string> {
  const words = argv.slice(2).filter((arg) => !arg.startsWith('-'));
  return new Set(words[0] === 'help' ? words.slice(0, 2) : words.slice(0, 1));
}

/** The commands that run sessions or dispatch seams (`telemetry` in the catalog): the ones OpenTelemetry can start for. */
export function telemetryCommands(): ReadonlySet<string> {
  return new Set(COMMAND_CATALOG.filter((entry) => entry.telemetry === true).map((entry) => entry.name));
}

/**
 * The catalog entry whose `prestart` this argv runs: its command is the first
 * word, and no help was asked for (then the command never starts).
 */
function prestartEntry(argv: readonly string[]): CatalogEntry | undefined {
  const args = argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) return undefined;
  const first = args.find((arg) => !arg.startsWith('-'));
  return COMMAND_CATALOG.find((entry) => entry.prestart !== undefined && entry.name === first);
}

/**
 * `hookbox setup … | head -3`: the reader leaves, and the next write to stdout fails with EPIPE,
 * an 'error' event nobody handled (a stack trace, exit 1). What the command does stands — a setup
 * half-done because its reader stopped reading would be worse — so the rest of its output is
 * dropped and it ends with its own exit code. Any other stdout error is still thrown.
 */
function quietOnClosedPipe(): void {
  // Once per process: `main` also runs in-process (tests, the SDK's embedders), where a listener per call would pile up.
  if (process.stdout.listeners('error').includes(ignoreClosedPipe)) return;
  process.stdout.on('error', ignoreClosedPipe);
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
}

/** Runs the CLI; returns the exit code. Bad input and configuration print a clear message, not a stack. */
export async function main(argv: readonly string[]): Promise<number> {
  quietOnClosedPipe();
  // First thing: a worker the command needs boots while the command's modules load.
  const prestarted = await prestartEntry(argv)?.prestart?.();
  let stopTelemetry = async (): Promise<void> => {};
  try {
    const program = await buildProgram(argv, prestarted);
    // OTEL_* may turn on OpenTelemetry for the catalog's telemetry commands; flushed in finally, at session end.
    stopTelemetry = await startCliTelemetry(argv, telemetryCommands());
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof HostError) {
      // A message may quote what a hook or a file said (a load error, a bad manifest): escaped.
      process.stderr.write(`${pc.red('hookbox:')} ${printableLines(error.message, { maxLength: 2000, maxLines: 200 }).join('\n  ')}\n`);
      return 2;
    }
    throw error;
  } finally {
    await stopTelemetry();
    await prestarted?.close();
  }
}
