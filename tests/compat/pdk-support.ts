/**
 * Shared set-up for the extism-js compatibility suites: plugin sources written
 * as authors have them (our own copies of the kinds of plugins js-pdk's
 * examples cover), built by `buildHook`, served raw by the real runner.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildHook, type BuildHookResult } from '../../pdk/compiler/index.ts';
import { HookRunner, type WasmHook } from '../../host/runner/index.ts';
import type { ExportCallOutcome, HookLogEntry } from '../../host/runner/types.ts';

/** Writes `files` (relative path → text) under `dir`. */
export async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** Builds `entry`, or returns the build error (the tests that need it then fail, not the file). */
export function tryBuild(entry: string, outFile: string): Promise<BuildHookResult | Error> {
  return buildHook({ entry, outFile }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
}

/** The build error's message; fails when the build succeeded. */
export async function buildError(entry: string, outFile: string): Promise<string> {
  const result = await tryBuild(entry, outFile);
  if (!(result instanceof Error)) throw new Error(`expected ${entry} not to build, but it did`);
  return result.message;
}

/** A plain plugin loaded into a runner: call an export with text, get text or the fault. */
export interface LoadedPlugin {
  readonly hook: WasmHook;
  readonly logs: HookLogEntry[];
  call(name: string, input?: string, session?: string): Promise<ExportCallOutcome>;
  text(name: string, input?: string, session?: string): Promise<string | null>;
}

/** Loads a built plugin serving `exports`, with optional config, host functions and capabilities. */
export async function loadPlugin(
  runner: HookRunner,
  logs: HookLogEntry[],
  built: BuildHookResult | Error | undefined,
  options: { exports: string[]; config?: Record<string, string>; hostFunctions?: string; allowedHosts?: string[]; clock?: boolean; timeoutMs?: number; instructionBudget?: number },
): Promise<LoadedPlugin> {
  if (built === undefined || built instanceof Error) throw built ?? new Error('not built');
  const hook = await runner.load({
    name: 'compat',
    wasm: built.wasmPath,
    plainExports: options.exports,
    quarantineAfter: 1000,
    // Generous: instantiating a ~1 MB module on a loaded 2-core machine can take seconds (no test asserts on time).
    limits: { timeoutMs: options.timeoutMs ?? 20_000, ...(options.instructionBudget !== undefined && { instructionBudget: options.instructionBudget }) },
    ...(options.config !== undefined && { config: options.config }),
    ...(options.hostFunctions !== undefined && { hostFunctions: options.hostFunctions }),
    capabilities: { ...(options.allowedHosts !== undefined && { allowedHosts: options.allowedHosts }), ...(options.clock !== undefined && { clock: options.clock }) },
  });
  const call = (name: string, input = '', session = 'compat-session') => hook.callExport(name, new TextEncoder().encode(input), session);
  return {
    hook,
    logs,
    call,
    async text(name, input, session) {
      const outcome = await call(name, input, session);
      if (outcome.type === 'fault') throw new Error(`${name} faulted: ${outcome.fault.kind}: ${outcome.fault.message}`);
      return outcome.output === null ? null : new TextDecoder().decode(outcome.output);
    },
  };
}
