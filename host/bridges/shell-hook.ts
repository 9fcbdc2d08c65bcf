import { createHash } from 'node:crypto';
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
import { protocolOutcome } from './protocol-output.ts';
import { type CommandRun, runCommand } from './run-command.ts';

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
  reload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Makes a shell hook. Each call spawns `sh -c command` in the session's cwd
 * with the protocol's JSON on stdin and `CLAUDE_PROJECT_DIR` set to that cwd,
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
      const input = `${JSON.stringify(protocolInput(options.protocol, call))}\n`;
      const run = await runCommand(options.command, {
        cwd: call.session.cwd,
        input,
        timeoutMs,
        maxOutputBytes,
        env: { ...process.env, CLAUDE_PROJECT_DIR: call.session.cwd },
        signal: closing.signal,
      });
      return outcomeOf(options.protocol, call.seam, run, { timeoutMs, maxOutputBytes });
    },
    reload: async () => {},
    close: async () => {
      closing.abort();
      closing = new AbortController();
    },
  };
}

function outcomeOf<S extends SeamId>(
  protocol: ToolProtocol,
  seam: S,
  run: CommandRun,
  limits: { timeoutMs: number; maxOutputBytes: number },
): ListenerOutcome<DecisionOf<S>> {
  switch (run.type) {
    case 'exited':
      return protocolOutcome(protocol, seam, run);
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
