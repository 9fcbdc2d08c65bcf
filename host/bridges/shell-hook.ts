import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ListenerOutcome, SeamCall, SeamListener } from '../events/index.ts';
import {
  type DecisionOf,
  type FailPolicy,
  type PayloadOf,
  type SeamId,
  type SessionStartSource,
  hookFault,
} from '../seams/index.ts';
import { PROTOCOL_LABEL, TOOL_DEFAULT_TIMEOUT_MS, type ToolProtocol } from './protocol.ts';
import { protocolInput } from './protocol-input.ts';
import { protocolNotices, protocolOutcome } from './protocol-output.ts';
import type { ProtocolCall } from './protocol-rewrite.ts';
import { type CommandRun, runCommand } from './run-command.ts';
import { parseEnvFile } from './env-file.ts';
import { type ShellHookSession, detachedSession } from './hook-session.ts';
import { type ProgramCheck, checkCommandPrograms } from './program-check.ts';

/** Largest stdout (and, separately, stderr) a shell hook may print per call, unless configured. */
export const DEFAULT_SHELL_OUTPUT_BYTES = 1_048_576;

export interface ShellHookOptions {
  readonly name: string;
  /** Run with `sh -c` in the session's cwd. */
  readonly command: string;
  /** The stdin / stdout / exit-code protocol the command speaks. */
  readonly protocol: ToolProtocol;
  readonly seams: readonly SeamId[];
  /** Tool-name matchers (anchored regular expressions, hookbox tool names) for the tool seams. */
  readonly tools?: readonly string[];
  /** SessionStart sources to run for (a SessionStart matcher); absent = every source. */
  readonly sources?: readonly SessionStartSource[];
  /** Default: Claude Code's 600 s. */
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  readonly failPolicy?: FailPolicy;
  /**
   * Variables set for the command on top of hookbox's environment: an imported
   * settings file's `env`, a plugin's `CLAUDE_PLUGIN_ROOT`.
   */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * A Claude Code / Codex command hook as a seam listener: NOT sandboxed (it
 * runs with the user's rights), marked `sandbox: 'shell'` so the transcript
 * and the audit log say so. The shape matches a loaded wasm hook so a config
 * can mix both.
 */
export interface ShellHook extends SeamListener {
  readonly sandbox: 'shell';
  readonly command: string;
  readonly protocol: ToolProtocol;
  /** The seams the command is configured for (a command can answer any). */
  readonly exports: readonly SeamId[];
  /** Hex sha256 of the command text: the audit log's `digest`. */
  readonly sha256: string;
  /** Shell hooks are not quarantined: each call pays its own timeout. */
  readonly quarantined: false;
  /**
   * Whether the programs the command starts exist, for a session in `cwd`
   * (its variables and `CLAUDE_PROJECT_DIR` = `cwd` expanded): a caller can
   * refuse to start a session whose fail-closed hooks cannot run.
   */
  checkPrograms(cwd: string): ProgramCheck;
  /** The session's transcript, notices and exported variables (see `ShellHookSession`); replaces the last one attached. */
  attach(session: ShellHookSession): void;
  reload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Makes a shell hook. Each call spawns `sh -c command` in the session's cwd
 * with the protocol's JSON on stdin, `CLAUDE_PROJECT_DIR` set to that cwd, the
 * entry's `env` and the session's `CLAUDE_ENV_FILE` exports (a Claude Code
 * SessionStart hook gets a fresh `CLAUDE_ENV_FILE`, read back as data),
 * kills the process group at the timeout (`timeout` fault) or when a stream
 * passes the output cap (`output-too-large`), and maps exit code, stdout and
 * stderr through the protocol mapper. The group is killed at the end of every
 * call, so background children do not outlive it; closing the hook cancels the
 * calls in flight.
 *
 * @example
 * bus.use(shellHook({ name: 'guard', command: './guard.sh', protocol: 'claude-code', seams: ['tools/pre-execute'], tools: ['bash'] }));
 */
export function shellHook(options: ShellHookOptions): ShellHook {
  const timeoutMs = options.timeoutMs ?? TOOL_DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_SHELL_OUTPUT_BYTES;
  const sha256 = createHash('sha256').update(options.command).digest('hex');
  // Calls in flight: closing the hook cancels them (and kills their process groups).
  let closing = new AbortController();
  let session = detachedSession();
  // A missing program is announced once per hook; each call still faults (the fail policy applies).
  let announcedMissing = false;
  const claude = options.protocol === 'claude-code';

  /** Reads what a SessionStart hook wrote to `CLAUDE_ENV_FILE` (as data, never sourced) into the session. */
  const applyEnvFile = (file: string, env: NodeJS.ProcessEnv, sessionId: string): void => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // the hook removed it: nothing exported
    }
    const { vars, refused } = parseEnvFile(text, env);
    if (Object.keys(vars).length > 0) session.export(sessionId, vars);
    for (const why of refused) session.notice(options.name, 'warn', `CLAUDE_ENV_FILE ${why}; not applied`, sessionId);
  };

  /** Exit 127 / 126: `sh` could not start the program. One clear `load` fault, announced once per hook. */
  const cannotRun = <S extends SeamId>(run: { stderr: string }, env: NodeJS.ProcessEnv, cwd: string, sessionId: string): ListenerOutcome<DecisionOf<S>> => {
    const message = missingProgramMessage(options.command, run, env, cwd);
    if (!announcedMissing) {
      announcedMissing = true;
      session.notice(options.name, 'error', `${message}; every call of this hook faults until it can run (install the program, or remove the hook)`, sessionId);
    }
    return { type: 'fault', fault: hookFault('load', message) };
  };

  return {
    name: options.name,
    digest: sha256,
    sandbox: 'shell',
    command: options.command,
    protocol: options.protocol,
    seams: options.seams,
    exports: options.seams,
    sha256,
    quarantined: false,
    ...(options.tools !== undefined && { tools: options.tools }),
    ...(options.failPolicy !== undefined && { failPolicy: options.failPolicy }),
    async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
      if (call.seam === 'agent/session-start' && options.sources !== undefined) {
        const { source } = call.payload as PayloadOf<'agent/session-start'>;
        if (!options.sources.includes(source)) return { type: 'no-opinion' };
      }
      const sessionId = call.session.id;
      const input = `${JSON.stringify(protocolInput(options.protocol, call, session.transcriptPath(sessionId)))}\n`;
      // Claude Code gives SessionStart hooks a file to append `export X=…` lines to.
      const envDir = claude && call.seam === 'agent/session-start' ? mkdtempSync(path.join(tmpdir(), 'hookbox-env-')) : undefined;
      const envFile = envDir === undefined ? undefined : path.join(envDir, 'env');
      if (envFile !== undefined) writeFileSync(envFile, '', { mode: 0o600 });
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ...options.env,
        ...session.exported(sessionId),
        CLAUDE_PROJECT_DIR: call.session.cwd,
        ...(envFile !== undefined && { CLAUDE_ENV_FILE: envFile }),
      };
      let run: CommandRun;
      try {
        run = await runCommand(options.command, { cwd: call.session.cwd, input, timeoutMs, maxOutputBytes, env, signal: closing.signal });
        if (envFile !== undefined) applyEnvFile(envFile, env, sessionId);
      } finally {
        if (envDir !== undefined) rmSync(envDir, { recursive: true, force: true });
      }
      if (run.type === 'exited') {
        for (const message of protocolNotices(run)) session.notice(options.name, 'info', message, sessionId);
        if (run.exitCode === 127 || run.exitCode === 126) return cannotRun<S>(run, env, call.session.cwd, sessionId);
      }
      return outcomeOf(options.protocol, call, run, { timeoutMs, maxOutputBytes });
    },
    checkPrograms: (cwd) => checkCommandPrograms(options.command, { cwd, env: { ...process.env, ...options.env, CLAUDE_PROJECT_DIR: cwd } }),
    attach: (next) => {
      session = next;
    },
    reload: async () => {},
    close: async () => {
      closing.abort();
      closing = new AbortController();
    },
  };
}

/** Why the shell could not start the command (exit 127 / 126), naming the program when it can be told. */
function missingProgramMessage(command: string, run: { stderr: string }, env: NodeJS.ProcessEnv, cwd: string): string {
  const check = checkCommandPrograms(command, { cwd, env });
  const named = check.missing.map((missing) => `${missing.program}: ${missing.problem}`).join('; ');
  const said = run.stderr.trim().slice(0, 500);
  return `the hook's command cannot run${named === '' ? '' : ` (${named})`}${said === '' ? '' : `: ${said}`}`;
}

/** A pre-tool call in the terms its rewrite is read back onto; none for other seams. */
function toolCallOf(call: SeamCall<SeamId>): ProtocolCall | undefined {
  if (call.seam !== 'tools/pre-execute') return undefined;
  const payload = call.payload as PayloadOf<'tools/pre-execute'>;
  return { toolName: payload.toolName, arguments: payload.arguments, cwd: call.session.cwd };
}

/** Whether a listener is a shell hook (an imported Claude Code / Codex command). */
export function isShellHook(listener: SeamListener): listener is ShellHook {
  return listener.sandbox === 'shell' && typeof (listener as Partial<ShellHook>).attach === 'function';
}

function outcomeOf<S extends SeamId>(
  protocol: ToolProtocol,
  call: SeamCall<S>,
  run: CommandRun,
  limits: { timeoutMs: number; maxOutputBytes: number },
): ListenerOutcome<DecisionOf<S>> {
  switch (run.type) {
    case 'exited':
      return protocolOutcome(protocol, call.seam, run, toolCallOf(call as SeamCall<SeamId>));
    case 'timeout':
      return { type: 'fault', fault: hookFault('timeout', `no answer within ${limits.timeoutMs} ms; the command's process group was killed`) };
    case 'too-large':
      return {
        type: 'fault',
        fault: hookFault('output-too-large', `${run.stream} passed ${limits.maxOutputBytes} bytes; the command's process group was killed`),
      };
    case 'signalled':
      return { type: 'fault', fault: hookFault('plugin-error', `killed by ${run.signal}${run.stderr.trim() === '' ? '' : `: ${run.stderr.trim().slice(0, 2000)}`}`) };
    case 'spawn-error':
      return { type: 'fault', fault: hookFault('load', `cannot start the ${PROTOCOL_LABEL[protocol]} hook command: ${run.message}`) };
    case 'cancelled':
      return { type: 'fault', fault: hookFault('load', "the hook was closed during the call; the command's process group was killed") };
  }
}
