import { Command, CommanderError } from 'commander';
import pc from 'picocolors';
import { HostError } from '../errors.ts';
import { printableLines } from '../text/index.ts';
import { HOOKBOX_VERSION } from '../package.ts';
import { registerAcpCommand } from './commands/acp.ts';
import { registerBuildCommand } from './commands/build.ts';
import { registerCallCommand } from './commands/call.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerDoctorCommand } from './commands/doctor.ts';
import { registerHookCommand } from './commands/hook.ts';
import { registerImportCommands } from './commands/import-hooks.ts';
import { registerInitCommand } from './commands/init.ts';
import { registerInspectCommand } from './commands/inspect.ts';
import { registerReplayCommand } from './commands/replay.ts';
import { registerRunCommand } from './commands/run.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerSetupCommand } from './commands/setup.ts';

/** Builds the `hookbox` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('hookbox')
    .description('sandboxed WebAssembly hooks for AI coding-agent loops')
    .version(HOOKBOX_VERSION)
    .showHelpAfterError()
    .exitOverride();
  registerRunCommand(program);
  registerDemoCommand(program);
  registerCallCommand(program);
  registerInspectCommand(program);
  registerBuildCommand(program);
  registerInitCommand(program);
  registerReplayCommand(program);
  registerImportCommands(program);
  registerAcpCommand(program);
  registerServeCommand(program);
  registerHookCommand(program);
  registerSetupCommand(program);
  registerDoctorCommand(program);
  return program;
}

/** Runs the CLI; returns the exit code. Bad input and configuration print a clear message, not a stack. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
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
  }
}
