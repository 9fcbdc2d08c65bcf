/**
 * Shared set-up for the extism-js compatibility suites: plugin sources written
 * as authors have them (our own copies of the kinds of plugins js-pdk's
 * examples cover), built by `buildHook`, served raw by the real runner.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHook, type BuildHookResult } from '../../pdk/compiler/index.ts';
import { HookRunner, type WasmHook } from '../../host/runner/index.ts';
import type { ExportCallOutcome, HookLogEntry } from '../../host/runner/types.ts';
import { tempDir } from '../pdk/support.ts';

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

/** What {@link compatSuite} gives a spec once its `beforeAll` ran. */
export interface CompatSuite {
  /** The temporary project the sources were written to. */
  readonly dir: string;
  /** Each entry's build (or its error: the tests that need it fail, not the file). */
  readonly built: Record<string, BuildHookResult | Error>;
  /** Every log line of every loaded plugin, in order. */
  readonly logs: HookLogEntry[];
  /** Loads `entry`'s build into the suite's runner; closed after the suite. */
  load(entry: string, options: Parameters<typeof loadPlugin>[3]): Promise<LoadedPlugin>;
}

/**
 * A compatibility suite's fixture: `files` written to a temporary project, each of `entries`
 * (relative paths) built once, one runner for every plugin, all closed and removed afterwards.
 */
export function compatSuite(files: Record<string, string>, entries: readonly string[]): CompatSuite {
  let cleanup: (() => Promise<void>) | undefined;
  let runner: HookRunner | undefined;
  const plugins: LoadedPlugin[] = [];
  const suite = {
    dir: '',
    built: {} as Record<string, BuildHookResult | Error>,
    logs: [] as HookLogEntry[],
    async load(entry: string, options: Parameters<typeof loadPlugin>[3]): Promise<LoadedPlugin> {
      if (runner === undefined) throw new Error('the suite has not started');
      const plugin = await loadPlugin(runner, suite.logs, suite.built[entry], options);
      plugins.push(plugin);
      return plugin;
    },
  };
  beforeAll(async () => {
    ({ dir: suite.dir, cleanup } = await tempDir());
    await writeProject(suite.dir, files);
    for (const entry of entries) suite.built[entry] = await tryBuild(join(suite.dir, entry), join(suite.dir, 'out', entry.replace(/\W/g, '-'), 'plugin.wasm'));
    runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => suite.logs.push(entry) });
  }, 900_000);
  afterAll(async () => {
    for (const plugin of plugins) await plugin.hook.close();
    await runner?.close();
    await cleanup?.();
  });
  return suite;
}

/** Every build of the suite succeeded (a spec's last test: names each that did not). */
export function everyPluginBuilds(suite: CompatSuite): void {
  describe('every plugin', () => {
    it('builds unchanged', () => {
      for (const [name, result] of Object.entries(suite.built)) expect(result instanceof Error ? `${name}: ${result.message}` : name).toBe(name);
    });
  });
}
