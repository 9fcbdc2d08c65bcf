import { createHash } from 'node:crypto';
import { type SeamId, seamForExport } from '../seams/index.ts';
import { describeWasm } from './module-prep.ts';

/** What `hookbox inspect` reports about a module, without running it. */
export interface WasmInspection {
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly exports: readonly { readonly name: string; readonly kind: string }[];
  /** Seams the module can handle (it exports their function). */
  readonly seams: readonly SeamId[];
  readonly imports: readonly { readonly module: string; readonly name: string; readonly kind: string }[];
  /** Declared memory limits in 64 KiB pages (`max` null = no maximum; the runner caps it at load). */
  readonly memory: { readonly min: number; readonly max: number | null; readonly imported: boolean; readonly shared: boolean } | null;
  readonly hasStartFunction: boolean;
}

/** Describes a wasm module; throws `HookLoadError` naming `source` when the bytes are not a module. */
export function inspectWasm(bytes: Uint8Array, source: string): WasmInspection {
  const layout = describeWasm(bytes, source);
  const importedMemory = layout.imports.find((entry) => entry.memory !== undefined)?.memory;
  const memory = layout.memories[0] ?? importedMemory;
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    sizeBytes: bytes.byteLength,
    exports: layout.exports.map(({ name, kind }) => ({ name, kind })),
    seams: layout.exports
      .filter((entry) => entry.kind === 'function')
      .map((entry) => seamForExport(entry.name))
      .filter((seam): seam is SeamId => seam !== undefined),
    imports: layout.imports.map(({ module, name, kind }) => ({ module, name, kind })),
    memory:
      memory === undefined
        ? null
        : { min: memory.min, max: memory.max ?? null, imported: importedMemory !== undefined && layout.memories.length === 0, shared: memory.shared },
    hasStartFunction: layout.hasStart,
  };
}
