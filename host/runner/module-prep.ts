import { HookLoadError } from '../errors.ts';
import { type SeamId, seamForExport } from '../seams/index.ts';
import {
  type MemoryLimits,
  type WasmLayout,
  SectionId,
  WASM_PAGE_BYTES,
  WasmFormatError,
  encodeSection,
  leb,
  parseWasm,
  replaceSection,
} from './wasm-binary.ts';
import { WASI_MODULE, WASI_OVERRIDE_MODULE } from './wasi-override.ts';

const CLOCK_IMPORTS = new Set(['clock_time_get', 'clock_res_get']);
const ENV_IMPORTS = new Set(['environ_get', 'environ_sizes_get']);

export interface PrepareOptions {
  /** Cap on the guest's linear memory in MiB. */
  readonly memoryMb: number;
  /** Whether the guest may read the real clock (otherwise clock calls answer ENOTCAPABLE). */
  readonly clock: boolean;
  /** Whether environment variables are granted (then the runner serves them; else Node's WASI shows none). */
  readonly env: boolean;
  /** Names the file in error messages. */
  readonly source: string;
}

/** A module ready to compile: memory capped, overridden WASI imports renamed. */
export interface PreparedModule {
  readonly bytes: Uint8Array;
  /** Seams the module exports a function for, in lifecycle order of SEAMS. */
  readonly seamExports: readonly SeamId[];
  /** Whether any Node-served WASI import remains (the plugin then needs `useWasi`). */
  readonly needsWasi: boolean;
  /** Whether the runner must provide the override namespace. */
  readonly needsOverride: boolean;
  readonly exportsMemory: boolean;
  /** The memory limits after capping, in pages. */
  readonly memory: { readonly min: number; readonly max: number } | undefined;
}

/** Parses a module and describes it, turning format errors into a `HookLoadError` naming the file. */
export function describeWasm(bytes: Uint8Array, source: string): WasmLayout {
  try {
    return parseWasm(bytes);
  } catch (error) {
    if (error instanceof WasmFormatError) {
      throw new HookLoadError(`${source}: not a valid WebAssembly module: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/**
 * Caps the declared memory maximum at `memoryMb` (the only cap that holds:
 * Extism's `maxPages` does not limit the guest's own linear memory) and
 * refuses memories the cap cannot hold: imported, shared or 64-bit.
 */
export function prepareModule(bytes: Uint8Array, options: PrepareOptions): PreparedModule {
  const layout = describeWasm(bytes, options.source);
  const imported = layout.imports.find((entry) => entry.kind === 'memory');
  if (imported !== undefined) {
    throw new HookLoadError(
      `${options.source}: imports its memory ("${imported.module}" "${imported.name}"); hookbox only runs modules that define their own memory, so it can be capped`,
    );
  }
  if (layout.memories.length > 1) {
    throw new HookLoadError(`${options.source}: defines ${layout.memories.length} memories; hookbox supports one`);
  }
  const capPages = options.memoryMb * (1_048_576 / WASM_PAGE_BYTES);
  let patched = bytes;
  let memory: PreparedModule['memory'];
  const declared = layout.memories[0];
  if (declared !== undefined) {
    refuseUncappable(declared, options.source);
    if (declared.min > capPages) {
      throw new HookLoadError(
        `${options.source}: declares an initial memory of ${declared.min} pages (${pagesToMb(declared.min)} MiB), above the ${options.memoryMb} MiB cap (memoryMb)`,
      );
    }
    const max = declared.max === undefined ? capPages : Math.min(declared.max, capPages);
    memory = { min: declared.min, max };
    if (declared.max !== max) patched = rewriteMemoryMax(bytes, layout, declared.min, max);
  }

  let needsWasi = false;
  let needsOverride = false;
  let renamed: Uint8Array | undefined;
  for (const entry of layout.imports) {
    if (entry.module !== WASI_MODULE) continue;
    const override = (options.env && ENV_IMPORTS.has(entry.name)) || (!options.clock && CLOCK_IMPORTS.has(entry.name));
    if (!override) {
      needsWasi = true;
      continue;
    }
    needsOverride = true;
    // The import section precedes the memory section, so offsets are unchanged by the memory rewrite.
    renamed ??= patched === bytes ? bytes.slice() : patched;
    renamed.set(new TextEncoder().encode(WASI_OVERRIDE_MODULE), entry.moduleOffset);
  }
  if (renamed !== undefined) patched = renamed;

  const seamExports = layout.exports
    .filter((entry) => entry.kind === 'function')
    .map((entry) => seamForExport(entry.name))
    .filter((seam): seam is SeamId => seam !== undefined);
  return {
    bytes: patched,
    seamExports,
    needsWasi,
    needsOverride,
    exportsMemory: layout.exports.some((entry) => entry.kind === 'memory' && entry.name === 'memory'),
    memory,
  };
}

function refuseUncappable(limits: MemoryLimits, source: string): void {
  if (limits.shared) throw new HookLoadError(`${source}: declares a shared memory; hookbox refuses shared memories`);
  if (limits.memory64) {
    throw new HookLoadError(`${source}: declares a 64-bit or custom-page-size memory; hookbox supports 32-bit memories only`);
  }
}

function rewriteMemoryMax(bytes: Uint8Array, layout: WasmLayout, min: number, max: number): Uint8Array {
  const section = layout.sections.find((s) => s.id === SectionId.memory);
  if (section === undefined) throw new Error('memory limits without a memory section');
  const content = [1, 0x01, ...leb(min), ...leb(max)];
  return replaceSection(bytes, section, encodeSection(SectionId.memory, content));
}

function pagesToMb(pages: number): string {
  return ((pages * WASM_PAGE_BYTES) / 1_048_576).toFixed(1);
}
