import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
// The two modules, not the config barrel (which loads every config command's code).
import path from 'node:path';
import { hookFileOverrides, loadLayeredConfig } from '../../config/layered-config.ts';
import { loadHookFile, specForEntry } from '../../config/load-hooks.ts';
import { describeIssues, parseJsonText } from '../../json/index.ts';
import { ConfigError, HookLoadError } from '../../errors.ts';
import type { SeamListener } from '../../events/index.ts';
import { invokeListener } from '../../events/invoke.ts';
import { HookRunner, type HookLogEntry, type HookLimits, type WasmHook, type WasmHookSpec } from '../../runner/index.ts';
import type { WorkerPool } from '../../runner/pool.ts';
import { fileBytes } from '../../runner/wasm-binary.ts';
import { CALL_RUNNER_OPTIONS } from '../call-workers.ts';
import { integerOption } from '../options.ts';
import { SEAM_IDS, type SeamId, type SessionInfo, isSeamId, seamDefinition } from '../../seams/index.ts';
import { printable, printableJson } from '../../text/index.ts';

export interface CallOptions {
  readonly seam: string;
  /** A payload file, or `-` for stdin. */
  readonly payload: string;
  readonly timeoutMs?: number;
  readonly memoryMb?: number;
  readonly sessionId?: string;
  readonly json?: boolean;
  /** An operator config: `<hook>` is then one of its hooks (by name or by its manifest/wasm file), run with its entry. */
  readonly config?: string;
}

/** What `hookbox call --json` prints: the decision the seam receives after the fault policy. */
export interface CallReport {
  readonly decision: unknown;
  readonly fault: { readonly kind: string; readonly message: string } | null;
  readonly durationMs: number;
}

/**
 * Registers `hookbox call <hook.wasm|hook.json> --seam <id> --payload <file|->`:
 * invokes one hook through the same runner and fault policy the loop uses.
 * `workers`: the worker main.ts started for this call before loading this
 * module (`startCallWorkers`); the call's runner takes it.
 */
export function registerCallCommand(program: Command, workers?: WorkerPool): void {
  program
    .command('call')
    .description('invoke one hook on one payload, through the sandbox and the seam fault policy')
    .argument('<hook>', 'a hook .wasm or its hook.json manifest')
    .requiredOption('--seam <id>', `seam id (${SEAM_IDS.join(', ')})`)
    .requiredOption('--payload <file>', 'payload JSON file, or - for stdin')
    .option('--timeout-ms <n>', 'wall timeout per call', integerOption(1))
    .option('--memory-mb <n>', 'cap on the guest linear memory', integerOption(1))
    .option('--session-id <id>', 'session id in the envelope', 'hookbox-call')
    .option('--json', 'print one JSON object {decision, fault, durationMs}')
    .option('-c, --config <file>', "run <hook> (a hook's name in this config, or its manifest) with its entry: config values, grants, limits, fail policy")
    .action(async (hook: string, options: CallOptions) => {
      // Hook text is hostile: log lines and the human report are sanitised;
      // --json stays lossless (printableJson only \u-escapes what a terminal would act on).
      const runner = oneShotRunner(
        (entry) => process.stderr.write(`[${printable(entry.hook, { maxLength: 80 })} ${entry.level}] ${printable(entry.message, { maxLength: 2000 })}\n`),
        workers,
      );
      try {
        const report = await callHook(hook, options, undefined, runner);
        // Printed before the worker is torn down (tens of ms): the answer does not wait for cleanup.
        process.stdout.write(options.json === true ? `${printableJson(report)}\n` : describe(report));
        // The decision printed is the seam's safe one; the exit code says the hook itself failed.
        if (report.fault !== null) process.exitCode = 1;
      } finally {
        await runner.close();
      }
    });
}

/**
 * The runner of one call (`CALL_RUNNER_OPTIONS`), its worker booting while the caller reads its
 * input and prepares the module (`HookRunner.open`); on `workers` when main.ts started it earlier.
 */
function oneShotRunner(onLog: ((entry: HookLogEntry) => void) | undefined, workers?: WorkerPool): HookRunner {
  return HookRunner.open({ ...CALL_RUNNER_OPTIONS, ...(onLog !== undefined && { onLog }) }, workers);
}

/**
 * Runs one call. Unusable input (unknown seam, unreadable or non-wasm file,
 * bad payload) throws a `HostError`; everything the hook does, including
 * failing to load, comes back as a report with the seam's fault decision.
 */
export async function callHook(
  hookFile: string,
  options: CallOptions,
  onLog?: (entry: HookLogEntry) => void,
  /** An already started runner to use (kept open); by default a one-worker runner is started and closed. */
  shared?: HookRunner,
): Promise<CallReport> {
  if (!isSeamId(options.seam)) throw new ConfigError(`unknown seam "${options.seam}" (expected one of ${SEAM_IDS.join(', ')})`);
  const seam: SeamId = options.seam;
  // Opened first, so the worker boots while the input is read; closed on every path below.
  const runner = shared ?? oneShotRunner(onLog);
  let hook: WasmHook | undefined;
  try {
    const payload = await readPayload(seam, options.payload);
    // The hook runs under the organisation and user layers' defaults; a flag cannot loosen them.
    const overrides = hookFileOverrides({
      ...(options.timeoutMs !== undefined && { timeoutMs: { value: options.timeoutMs, flag: '--timeout-ms' } }),
      ...(options.memoryMb !== undefined && { memoryMb: { value: options.memoryMb, flag: '--memory-mb' } }),
    });
    const flagged = { ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }), ...(options.memoryMb !== undefined && { memoryMb: options.memoryMb }) };
    const spec = options.config === undefined ? loadHookFile(hookFile, overrides) : configuredSpec(hookFile, options.config, flagged);
    const wasmFile = spec.wasm as string;
    const bytes = readWasmFile(wasmFile);
    const session: SessionInfo = { id: options.sessionId ?? 'hookbox-call', turn: 0, step: 0, cwd: process.cwd() };
    const definition = seamDefinition(seam);
    const next = definition.kind === 'notify' ? null : definition.defaultDecision(payload as never);
    let listener: SeamListener;
    try {
      // Every exported seam: calling one the hook lacks is a `missing-export` fault, not bad input.
      const { seams: _configured, ...everySeam } = spec;
      hook = await runner.load({ ...everySeam, wasm: bytes, source: spec.source ?? wasmFile });
      listener = hook;
    } catch (error) {
      if (!(error instanceof HookLoadError)) throw error;
      listener = loadFaultListener(spec.name, seam, error.message);
    }
    const applied = await invokeListener(listener, seam, payload as never, next as never, session);
    return {
      decision: applied.decision,
      fault: applied.invocation.fault ?? null,
      durationMs: Math.round(applied.invocation.durationUs) / 1000,
    };
  } finally {
    await hook?.close();
    if (shared === undefined) await runner.close();
  }
}

/**
 * The spec of one hook of an operator config (its layers above it apply, as they do for the
 * agents): `name` is the entry's name or the file of its manifest or wasm. The flags' limits
 * still apply, within the layers' bounds (checked by \`hookFileOverrides\` before).
 */
function configuredSpec(name: string, configFile: string, flagged: HookLimits): WasmHookSpec {
  const config = loadLayeredConfig({ project: path.resolve(configFile) });
  const file = path.resolve(name);
  const entry = config.hooks.find((hook) => hook.name === name) ?? config.hooks.find((hook) => hook.manifest === file || hook.wasm === file);
  if (entry === undefined) {
    const names = config.hooks.map((hook) => hook.name).join(', ') || 'none';
    throw new ConfigError(`${path.resolve(configFile)}: no hook "${name}" (by name, manifest or wasm); its hooks: ${names}`);
  }
  if (entry.wasm === undefined && entry.manifest === undefined) throw new ConfigError(`${entry.file}: ${entry.at} (${entry.name}) is not a wasm hook; call runs wasm hooks`);
  return specForEntry(entry.file, { ...entry, limits: { ...entry.limits, ...flagged } });
}

async function readPayload(seam: SeamId, source: string): Promise<unknown> {
  const name = source === '-' ? '<stdin>' : source;
  let text: string;
  try {
    // Read synchronously: a one-shot command with nothing else on its event loop, and a read on the thread pool cost a round trip.
    text = source === '-' ? await readStdin() : readFileSync(source, 'utf8');
  } catch (error) {
    throw new ConfigError(`${name}: cannot read the payload (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  const value = parseJsonText(name, text);
  const parsed = seamDefinition(seam).payload.safeParse(value);
  if (!parsed.success) throw new ConfigError(`not a ${seam} payload:\n${describeIssues(name, parsed.error)}`);
  return parsed.data;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The hook's bytes, read once (the runner takes them); a missing file or one that is not wasm at all is bad input, not a hook fault. */
function readWasmFile(file: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = fileBytes(readFileSync(file));
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the hook (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  if (bytes.length < 4 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new ConfigError(`${file}: not a WebAssembly module (expected a .wasm file or a hook.json manifest)`);
  }
  return bytes;
}

/** Stands in for a hook that failed to load: every call is a `load` fault. */
function loadFaultListener(name: string, seam: SeamId, message: string): SeamListener {
  return {
    name,
    seams: [seam],
    invoke: async () => ({ type: 'fault', fault: { kind: 'load', message } }),
  };
}

function describe(report: CallReport): string {
  const lines = [
    `decision: ${report.decision === null ? 'none (no opinion)' : printable(JSON.stringify(report.decision), { maxLength: 4000 })}`,
    ...(report.fault === null ? [] : [`fault: ${report.fault.kind}: ${printable(report.fault.message, { maxLength: 2000 })}`]),
    `duration: ${report.durationMs} ms`,
  ];
  return `${lines.join('\n')}\n`;
}
