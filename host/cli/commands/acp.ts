import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { AcpAgent } from '../../acp/index.ts';
import { LOOP_DEFAULTS } from '../../loop/defaults.ts';
import { builtinTools } from '../../tools/index.ts';
import { openHookSet } from '../hook-set.ts';
import { integerOption } from '../options.ts';
import { addProviderOptions, createProvider, type ProviderFlags } from '../provider-options.ts';

interface AcpFlags extends ProviderFlags {
  readonly config?: string;
  readonly sessionsDir?: string;
  readonly maxSteps: number;
  readonly maxContinuations: number;
  readonly askTimeoutMs: number;
}

/**
 * stdout carries the protocol: a stray console.log from any library would
 * corrupt the JSON-RPC stream, so console output goes to stderr instead.
 */
function keepStdoutForTheProtocol(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Serves ACP on stdio until the editor closes stdin; returns the exit code. */
export async function acpCommand(flags: AcpFlags): Promise<number> {
  const { maxSteps, maxContinuations, askTimeoutMs } = flags;
  // Fail on bad provider flags now, before the editor sees a session.
  createProvider(flags);
  keepStdoutForTheProtocol();
  // Loaded lazily: the SDK is needed by this command only.
  const acp = await import('../../acp/index.ts');
  let agent: AcpAgent | undefined;
  const hooks = await openHookSet(flags.config === undefined ? undefined : resolve(flags.config), (entry) => agent?.recordHookLog(entry));
  try {
    agent = new acp.AcpAgent({
      createProvider: () => createProvider(flags),
      hooks: hooks.listeners,
      createTools: builtinTools,
      ...(flags.sessionsDir !== undefined && { sessionsDir: resolve(flags.sessionsDir) }),
      maxSteps,
      maxContinuations,
      askTimeoutMs,
    });
    await acp.serveAcp(agent, acp.acpStdioStream());
  } finally {
    await hooks.close();
  }
  return 0;
}

export function registerAcpCommand(program: Command): void {
  const command = program
    .command('acp')
    .description('serve the agent loop to an editor over the Agent Client Protocol (JSON-RPC on stdin/stdout)')
    .option('-c, --config <file>', 'operator config (hookbox.config.json) with the hooks to run')
    .option('--sessions-dir <dir>', 'where session logs go, as <session id>.jsonl (default <session cwd>/.hookbox/sessions)')
    .option('--max-steps <n>', 'model calls per turn before it ends with max-steps (stop reason max_turn_requests)', integerOption(1), LOOP_DEFAULTS.maxSteps)
    .option('--max-continuations <n>', 'loop guard: times one turn may be forced on', integerOption(0), LOOP_DEFAULTS.maxContinuations)
    .option('--ask-timeout-ms <n>', 'how long a permission request waits for the editor before it degrades to deny', integerOption(1), LOOP_DEFAULTS.askTimeoutMs);
  addProviderOptions(command).action(async (flags: AcpFlags) => {
    process.exitCode = await acpCommand(flags);
  });
}
