import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Command, Option } from 'commander';
import pc from 'picocolors';
import { SeamBus } from '../../events/index.ts';
import type { SessionEvent } from '../../log/index.ts';
import { type PermissionPrompter, Session, type TurnOutcome } from '../../loop/index.ts';
import type { PromptSource } from '../../seams/index.ts';
import { builtinTools } from '../../tools/index.ts';
import { openHookSet } from '../hook-set.ts';
import { addProviderOptions, createProvider, type ProviderFlags } from '../provider-options.ts';
import { TerminalPrompter } from '../prompter.ts';
import { renderEvent } from '../transcript.ts';

interface RunFlags extends ProviderFlags {
  readonly config?: string;
  readonly log?: string;
  readonly cwd?: string;
  readonly resume?: boolean;
  readonly maxSteps: string;
  readonly maxContinuations: string;
  readonly askTimeoutMs: string;
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
  const prompts = fromArgs ? promptArgs : await readStdinPrompts();
  const source: PromptSource = fromArgs ? 'cli' : 'stdin';
  const provider = createProvider(flags);
  const logPath = resolve(flags.log ?? join(cwd, '.hookbox', 'sessions', `${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`));

  const print = flags.json
    ? (event: SessionEvent) => process.stdout.write(`${JSON.stringify(event)}\n`)
    : (event: SessionEvent) => {
        const line = renderEvent(event);
        if (line !== '') process.stdout.write(`${line}\n`);
      };
  const hooks = await openHookSet(flags.config === undefined ? undefined : resolve(flags.config), (entry) =>
    process.stderr.write(pc.dim(`[${entry.hook}] ${entry.level}: ${entry.message}\n`)),
  );
  const bus = new SeamBus();
  for (const listener of hooks.listeners) bus.use(listener);
  // The person can answer an ask only when prompts did not come through stdin.
  const prompter: PermissionPrompter | undefined =
    fromArgs && process.stdin.isTTY ? new TerminalPrompter(process.stdin, process.stderr) : undefined;

  const options = {
    cwd,
    logPath,
    provider,
    bus,
    tools: builtinTools(),
    maxSteps: Number(flags.maxSteps),
    maxContinuations: Number(flags.maxContinuations),
    askTimeoutMs: Number(flags.askTimeoutMs),
    ...(prompter !== undefined && { prompter }),
  };
  const resuming = flags.resume === true && existsSync(logPath);
  let session: Session | undefined;
  const outcomes: TurnOutcome[] = [];
  try {
    session = resuming ? await Session.resume(options) : await Session.start(options);
    // Events written before the transcript subscribes (session/start) are printed from the log's listener too.
    session.log.onEvent(print);
    const active = session;
    process.once('SIGINT', () => active.cancel());
    if (flags.batch) {
      for (const prompt of prompts) session.submit(prompt, source);
      outcomes.push(await session.runTurn());
    } else {
      for (const prompt of prompts) outcomes.push(await session.prompt(prompt, source));
    }
  } finally {
    session?.close();
    await hooks.close();
  }
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
    .option('--max-steps <n>', 'model calls per turn before it ends with max-steps', '25')
    .option('--max-continuations <n>', 'loop guard: times one turn may be forced on', '3')
    .option('--ask-timeout-ms <n>', 'how long a permission question waits before it degrades to deny', '60000')
    .option('--batch', 'submit every prompt as one batch (one turn)')
    .addOption(new Option('--json', 'print the session events as JSONL instead of a transcript'));
  addProviderOptions(command).action(async (prompts: string[], flags: RunFlags) => {
    process.exitCode = await runSessionCommand(prompts, flags);
  });
}
