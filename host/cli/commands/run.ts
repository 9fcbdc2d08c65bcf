import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Command, Option } from 'commander';
import pc from 'picocolors';
import { ConfigError } from '../../errors.ts';
import type { SessionEvent } from '../../log/index.ts';
import { LOOP_DEFAULTS, type PermissionPrompter } from '../../loop/index.ts';
import { integerOption } from '../options.ts';
import { runPrompts } from '../session-runner.ts';
import { addProviderOptions, createProvider, type ProviderFlags } from '../provider-options.ts';
import { TerminalPrompter } from '../prompter.ts';
import { renderEvent } from '../transcript.ts';
import { printableJson } from '../../text/index.ts';

interface RunFlags extends ProviderFlags {
  readonly config?: string;
  readonly log?: string;
  readonly cwd?: string;
  readonly resume?: boolean;
  readonly maxSteps: number;
  readonly maxContinuations: number;
  readonly askTimeoutMs: number;
  readonly batch?: boolean;
  readonly json?: boolean;
}

async function readStdinPrompts(): Promise<string[]> {
  const prompts: string[] = [];
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) if (line.trim() !== '') prompts.push(line);
  return prompts;
}

/** Runs one session: prompts from arguments, or stdin one per line; each prompt is a turn unless --batch. */
export async function runSessionCommand(promptArgs: string[], flags: RunFlags): Promise<number> {
  const cwd = resolve(flags.cwd ?? process.cwd());
  const fromArgs = promptArgs.length > 0;
  const provider = createProvider(flags);
  const prompts = fromArgs ? promptArgs : await readStdinPrompts();
  const logPath = resolve(flags.log ?? join(cwd, '.hookbox', 'sessions', `${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`));
  if (flags.resume === true && !existsSync(logPath)) throw new ConfigError(`--resume: no session log at ${logPath}`);
  const print = flags.json
    ? (event: SessionEvent) => process.stdout.write(`${printableJson(event)}\n`)
    : (event: SessionEvent) => {
        const line = renderEvent(event);
        if (line !== '') process.stdout.write(`${line}\n`);
      };
  // The person can answer an ask only when prompts did not come through stdin.
  const prompter: PermissionPrompter | undefined =
    fromArgs && process.stdin.isTTY ? new TerminalPrompter(process.stdin, process.stderr) : undefined;
  const outcomes = await runPrompts({
    cwd,
    logPath,
    provider,
    ...(flags.config !== undefined && { configPath: resolve(flags.config) }),
    ...(prompter !== undefined && { prompter }),
    prompts,
    source: fromArgs ? 'cli' : 'stdin',
    batch: flags.batch === true,
    resume: flags.resume === true,
    maxSteps: flags.maxSteps,
    maxContinuations: flags.maxContinuations,
    askTimeoutMs: flags.askTimeoutMs,
    onEvent: print,
  });
  if (!flags.json) process.stdout.write(pc.dim(`\nsession log: ${logPath}\n`));
  return outcomes.some((outcome) => outcome.reason === 'error') ? 1 : 0;
}

export function registerRunCommand(program: Command): void {
  const command = program
    .command('run')
    .description('run a session through the agent loop: prompts from arguments, or stdin one per line')
    .argument('[prompt...]', 'prompts, one turn each (default: read stdin)')
    .option('-c, --config <file>', 'operator config (hookbox.config.json) with the hooks to run')
    .option('--log <file>', 'session log (JSONL); default .hookbox/sessions/<time>.jsonl under --cwd')
    .option('--resume', 'resume the session in --log instead of starting a new one')
    .option('--cwd <dir>', 'working directory of the session and its tools')
    .option('--max-steps <n>', 'model calls per turn before it ends with max-steps', integerOption(1), LOOP_DEFAULTS.maxSteps)
    .option('--max-continuations <n>', 'loop guard: times one turn may be forced on', integerOption(0), LOOP_DEFAULTS.maxContinuations)
    .option('--ask-timeout-ms <n>', 'how long a permission question waits before it degrades to deny', integerOption(1), LOOP_DEFAULTS.askTimeoutMs)
    .option('--batch', 'submit every prompt as one batch (one turn)')
    .addOption(new Option('--json', 'print the session events as JSONL instead of a transcript'));
  addProviderOptions(command).action(async (prompts: string[], flags: RunFlags) => {
    process.exitCode = await runSessionCommand(prompts, flags);
  });
}
