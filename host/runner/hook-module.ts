import { HookLoadError } from '../errors.ts';
import { SEAMS } from '../seams/index.ts';
import { type PreparedModule, prepareModule } from './module-prep.ts';
import { buildRcWrapper } from './rc-wrapper.ts';
import { wasmApi } from './wasm-api.ts';
import type { CompiledHookModule } from './instance-table.ts';

/** A compiled hook module and what preparing it found (exports, memory, WASI). */
export type PreparedHookModule = CompiledHookModule & { readonly prepared: PreparedModule };

/**
 * Prepares a hook's module (instrumentation, see module-prep.ts) and compiles it together with
 * its reference-counting wrapper (rc-wrapper.ts): what every instance of the hook is made from.
 * `key` names the pair in the workers' module caches.
 */
export async function compileHookModule(
  bytes: Uint8Array,
  key: string,
  source: string,
  options: { readonly memoryMb: number; readonly plainExports: readonly string[] },
): Promise<PreparedHookModule> {
  const prepared = prepareModule(bytes, { memoryMb: options.memoryMb, source });
  try {
    const [guest, wrapper] = await Promise.all([
      wasmApi.compile(prepared.bytes),
      wasmApi.compile(
        buildRcWrapper(
          [...prepared.seamExports.map((s) => SEAMS[s].exportName), ...options.plainExports.filter((name) => prepared.functionExports.includes(name))],
          prepared.exportsMemory,
          prepared.init,
          prepared.growProbe,
          prepared.inputReserve && prepared.exportsMemory,
        ),
      ),
    ]);
    return { key, guest, wrapper, prepared };
  } catch (error) {
    throw new HookLoadError(`${source}: WebAssembly compile failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
