import { ClaudeTranscript, type ShellHook, SessionExports, claudeTranscriptPath, isShellHook } from '../bridges/index.ts';
import { ConfigError } from '../errors.ts';
import { printable } from '../text/index.ts';
import { SeamBus } from '../events/index.ts';
import type { SessionEvent } from '../log/index.ts';
import { type ModelProvider, type PermissionPrompter, Session, type TurnOutcome } from '../loop/index.ts';
import type { PromptSource } from '../seams/index.ts';
import { builtinTools } from '../tools/index.ts';
import { openHookSet } from './hook-set.ts';

export interface RunPromptsOptions {
  readonly cwd: string;
  readonly logPath: string;
  readonly provider: ModelProvider;
  /** Operator config with the hooks; none = no hooks. */
  readonly configPath?: string;
  readonly prompter?: PermissionPrompter;
  readonly prompts: readonly string[];
  readonly source: PromptSource;
  /** Every prompt in one turn instead of one turn each. */
  readonly batch?: boolean;
  readonly resume?: boolean;
  readonly maxSteps?: number;
  readonly maxContinuations?: number;
  readonly askTimeoutMs?: number;
  /** Sees every event as it is appended (the transcript). */
  readonly onEvent?: (event: SessionEvent) => void;
}

/**
 * Loads the hooks, runs the prompts through one session, and closes
 * everything whatever happens: the shared core of `hookbox run` and the demo.
 */
export async function runPrompts(options: RunPromptsOptions): Promise<TurnOutcome[]> {
  // Hook log lines go to the session log; session-start hooks log before start() returns.
  let session: Session | undefined;
  const hooks = await openHookSet(options.configPath, (entry) => session?.recordHookLog(entry.hook, entry.level, entry.message));
  const bus = new SeamBus();
  for (const listener of hooks.listeners) bus.use(listener);
  // Imported Claude Code / Codex hooks: a Claude Code transcript beside the log, their
  // user-facing messages in the log, and what SessionStart hooks export (CLAUDE_ENV_FILE).
  const shellHooks = hooks.listeners.filter(isShellHook);
  try {
    refuseUnrunnable(shellHooks, options.cwd);
  } catch (error) {
    await hooks.close();
    throw error;
  }
  const exports = new SessionExports();
  const transcript = shellHooks.some((hook) => hook.protocol === 'claude-code')
    ? new ClaudeTranscript(claudeTranscriptPath(options.logPath), {
        cwd: options.cwd,
        onError: (message) => session?.recordHookLog('hookbox', 'error', message),
      })
    : undefined;
  for (const hook of shellHooks) {
    hook.attach({
      transcriptPath: () => (transcript?.writing === true ? transcript.path : undefined),
      notice: (name, level, message) => session?.recordHookLog(name, level, message),
      exported: (id) => exports.get(id),
      export: (id, vars) => exports.add(id, vars),
    });
  }
  const sessionOptions = {
    cwd: options.cwd,
    logPath: options.logPath,
    provider: options.provider,
    bus,
    tools: builtinTools({ env: () => (session === undefined ? {} : exports.get(session.id)) }),
    ...(options.prompter !== undefined && { prompter: options.prompter }),
    ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
    ...(options.maxContinuations !== undefined && { maxContinuations: options.maxContinuations }),
    ...(options.askTimeoutMs !== undefined && { askTimeoutMs: options.askTimeoutMs }),
  };
  const outcomes: TurnOutcome[] = [];
  const unsubscribe: (() => void)[] = [];
  try {
    // The transcript subscribes before the first event is written.
    const onEvent = options.onEvent;
    const attach = (opened: Session) => {
      session = opened;
      transcript?.begin(opened.id);
      if (transcript !== undefined) unsubscribe.push(opened.onEvent((event) => transcript.record(event)));
      if (onEvent !== undefined) unsubscribe.push(opened.onEvent(onEvent));
    };
    session = options.resume
      ? await Session.resume({ ...sessionOptions, onOpen: attach })
      : await Session.start({ ...sessionOptions, onOpen: attach });
    const active = session;
    const cancel = (): void => active.cancel();
    process.once('SIGINT', cancel);
    try {
      if (options.batch) {
        for (const prompt of options.prompts) session.submit(prompt, options.source);
        outcomes.push(await session.runTurn());
      } else {
        for (const prompt of options.prompts) outcomes.push(await session.prompt(prompt, options.source));
      }
    } finally {
      process.off('SIGINT', cancel);
    }
  } finally {
    for (const off of unsubscribe) off();
    await session?.close();
    await hooks.close();
  }
  return outcomes;
}

/**
 * A fail-closed shell hook whose program does not exist would fault on every
 * call and deny or block everything it sees: the session does not start, and
 * the error names each such hook and program once. (A fail-open hook runs: its
 * calls fault, are logged, and decide nothing.)
 *
 * @throws ConfigError listing every hook that cannot run
 */
function refuseUnrunnable(hooks: readonly ShellHook[], cwd: string): void {
  const lines: string[] = [];
  for (const hook of hooks) {
    if (hook.failPolicy === 'open') continue;
    for (const gone of hook.checkPrograms(cwd).missing) {
      lines.push(`  ${hook.name}: ${printable(gone.program, { maxLength: 200 })}: ${gone.problem} (command: ${printable(hook.command, { maxLength: 200 })})`);
    }
  }
  if (lines.length === 0) return;
  throw new ConfigError(
    `${lines.length} hook command(s) cannot run, and each would fail closed on every call:\n${lines.join('\n')}\n` +
      'Install the program, remove the hook from the config, or set "failPolicy": "open" on it to run without it.',
  );
}
