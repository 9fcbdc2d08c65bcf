import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { LOOP_DEFAULTS } from '../../loop/defaults.ts';
import { PACKAGE_ROOT } from '../../package.ts';

/**
 * `hookbox hook <agent>`: listed here for `--help`; the `hookbox` bin runs it
 * before loading the TypeScript CLI (`hookbox-hook.cjs`, node builtins only),
 * because an agent starts it once per event.
 */
export function registerHookCommand(program: Command): void {
  program
    .command('hook')
    .description("the command hook an agent runs per event: stdin → hookbox serve's socket → the agent's answer; with no server (or one serving another project's config), decides in-process; fails closed in the agent's format")
    .argument('<agent>', 'the agent (claude-code, …)')
    .argument('[event]', "the event, for an agent whose events carry no name (copilot: preToolUse, …; cline: PreToolUse, …); `hookbox setup` writes it")
    .option('--socket <path>', 'the server socket (default $HOOKBOX_SOCKET or ~/.hookbox/serve.sock; relative: from the project)')
    .option('-c, --config <file>', 'operator config for the in-process fallback (default $HOOKBOX_CONFIG)')
    .option('--max-continuations <n>', 'loop guard for the in-process fallback', String(LOOP_DEFAULTS.maxContinuations))
    .option('--deadline-ms <n>', "the client's whole deadline (server or in-process); past it the event's closed answer (setup derives it from the hooks' limits)", '25000')
    .allowUnknownOption(false)
    .action(async (_agent: string, _event: string | undefined, _flags: unknown, command: Command) => {
      const { default: client } = (await import(pathToFileURL(join(PACKAGE_ROOT, 'host', 'cli', 'hookbox-hook.cjs')).href)) as { default: { runHookClient(argv: string[]): Promise<void> } };
      await client.runHookClient(command.args.concat(flagsOf(command)));
    });
}

function flagsOf(command: Command): string[] {
  const opts = command.opts<{ socket?: string; config?: string; maxContinuations?: string; deadlineMs?: string }>();
  return [
    ...(opts.socket !== undefined ? ['--socket', opts.socket] : []),
    ...(opts.config !== undefined ? ['--config', opts.config] : []),
    ...(opts.maxContinuations !== undefined ? ['--max-continuations', opts.maxContinuations] : []),
    ...(opts.deadlineMs !== undefined ? ['--deadline-ms', opts.deadlineMs] : []),
  ];
}
