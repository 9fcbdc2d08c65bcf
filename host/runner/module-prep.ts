import { HookLoadError } from '../errors.ts';
import { type SeamId, seamForExport } from '../seams/index.ts';
import {
  type MemoryLimits,
  type Section,
  type WasmLayout,
  SectionId,
  WASM_PAGE_BYTES,
  WasmFormatError,
  encodeSection,
  leb,
  parseWasm,
  replaceSection,
} from './wasm-binary.ts';
import { INPUT_RESERVE_EXPORT } from './rc-wrapper.ts';
import { INIT_EXPORT, START_EXPORT, WASI_HOST_MODULE, WASI_MODULE } from './wasi/names.ts';
import { instrumentMemoryGrow } from './grow-probe.ts';

/** Exports of a WASI module renamed in place (same length), so the SDK never runs them itself. */
const WASI_ENTRY_RENAMES: Readonly<Record<string, string>> = { _initialize: INIT_EXPORT, _start: START_EXPORT };

export interface PrepareOptions {
  /** Cap on the guest's linear memory in MiB. */
  readonly memoryMb: number;
  /** Names the file in error messages. */
  readonly source: string;
}

/** A module ready to compile: memory capped, WASI imports renamed to hookbox's own WASI. */
export interface PreparedModule {
  readonly bytes: Uint8Array;
  /** Seams the module exports a function for, in the order of the module's export section. */
  readonly seamExports: readonly SeamId[];
  /** Every exported function's name (a plain plugin's exports are served by `WasmHook.callExport`). */
  readonly functionExports: readonly string[];
  /** Whether the module imports WASI (then the instance gets a `WasiHost`). */
  readonly wasi: boolean;
  /** Whether `_initialize` was renamed to `INIT_EXPORT` (the adapter runs it once the memory is reachable). */
  readonly init: boolean;
  readonly exportsMemory: boolean;
  /** Whether the guest exports `hookbox_input_reserve` (bulk input delivery, see rc-wrapper.ts). */
  readonly inputReserve: boolean;
  /** The memory limits after capping, in pages. */
  readonly memory: { readonly min: number; readonly max: number } | undefined;
  /** Whether every `memory.grow` reports a refusal through the `hookbox_grow_failed` global (grow-probe.ts). */
  readonly growProbe: boolean;
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
  const wasi = layout.imports.some((entry) => entry.module === WASI_MODULE);
  if (wasi && !layout.exports.some((entry) => entry.kind === 'memory' && entry.name === 'memory')) {
    throw new HookLoadError(`${options.source}: imports WASI but exports no "memory"; WASI calls need the guest memory`);
  }

  const capPages = options.memoryMb * (1_048_576 / WASM_PAGE_BYTES);
  let memory: PreparedModule['memory'];
  let cappedMemory: Uint8Array | undefined;
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
    if (declared.max !== max) cappedMemory = encodeSection(SectionId.memory, [1, 0x01, ...leb(declared.min), ...leb(max)]);
  }
  // The rewrites re-encode sections into a fresh copy of the module (the capped memory section
  // goes in the same pass as the grow probe: one copy, not two). The WASI renames below are
  // then made in place on that copy, so the module is copied once however much is changed.
  const probed = growProbe(bytes, cappedMemory);
  const rewritten = probed ?? (cappedMemory !== undefined ? replaceSection(bytes, memorySection(layout), cappedMemory) : undefined);
  let patched = rewritten ?? bytes;
  let init = false;
  if (wasi) {
    // The copy has a layout of its own (the rewrite moved sections); untouched, the input's is valid for its copy.
    patched = rewritten ?? bytes.slice();
    init = renameWasiEntries(patched, rewritten === undefined ? layout : describeWasm(patched, options.source));
  }

  const seamExports = layout.exports
    .filter((entry) => entry.kind === 'function')
    .map((entry) => seamForExport(entry.name))
    .filter((seam): seam is SeamId => seam !== undefined);
  return {
    bytes: patched,
    seamExports,
    functionExports: layout.exports.filter((entry) => entry.kind === 'function').map((entry) => entry.name),
    wasi,
    init,
    exportsMemory: layout.exports.some((entry) => entry.kind === 'memory' && entry.name === 'memory'),
    inputReserve: layout.exports.some((entry) => entry.kind === 'function' && entry.name === INPUT_RESERVE_EXPORT),
    memory,
    growProbe: probed !== undefined,
  };
}

/**
 * Points every WASI import at hookbox's own layer (host/runner/wasi/) and
 * renames `_initialize`/`_start`, in place: the names have the same byte
 * length, so nothing moves. Returns whether `_initialize` was renamed (the
 * adapter runs it once the memory is reachable).
 */
function renameWasiEntries(bytes: Uint8Array, layout: WasmLayout): boolean {
  const encoder = new TextEncoder();
  for (const entry of layout.imports) {
    if (entry.module === WASI_MODULE) bytes.set(encoder.encode(WASI_HOST_MODULE), entry.moduleOffset);
  }
  let init = false;
  for (const entry of layout.exports) {
    const renamed = entry.kind === 'function' ? WASI_ENTRY_RENAMES[entry.name] : undefined;
    if (renamed === undefined) continue;
    bytes.set(encoder.encode(renamed), entry.nameOffset);
    if (renamed === INIT_EXPORT) init = true;
  }
  return init;
}

/**
 * Instruments `memory.grow` so a trap after a refused grow is a `memory` fault. Code this
 * decoder does not know (a newer proposal) loads uninstrumented: such a trap then reads as `trap`
 * unless the memory sits at its cap — a misnamed fault, never a weaker sandbox.
 */
function growProbe(bytes: Uint8Array, cappedMemory: Uint8Array | undefined): Uint8Array | undefined {
  try {
    return instrumentMemoryGrow(bytes, cappedMemory === undefined ? undefined : new Map([[SectionId.memory, cappedMemory]]));
  } catch (error) {
    if (error instanceof WasmFormatError) return undefined;
    throw error;
  }
}

function refuseUncappable(limits: MemoryLimits, source: string): void {
  if (limits.shared) throw new HookLoadError(`${source}: declares a shared memory; hookbox refuses shared memories`);
  if (limits.memory64) {
    throw new HookLoadError(`${source}: declares a 64-bit or custom-page-size memory; hookbox supports 32-bit memories only`);
  }
}

function memorySection(layout: WasmLayout): Section {
  const section = layout.sections.find((s) => s.id === SectionId.memory);
  if (section === undefined) throw new Error('memory limits without a memory section');
  return section;
}

function pagesToMb(pages: number): string {
  return ((pages * WASM_PAGE_BYTES) / 1_048_576).toFixed(1);
}
