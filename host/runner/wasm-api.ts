/**
 * Typed access to the WebAssembly and Atomics APIs this runtime has but the
 * project's TypeScript libs (ES2023, no DOM) do not declare.
 * `WebAssembly.Module` itself is used as an opaque type.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

export interface WasmGlobal {
  value: unknown;
}

export interface WasmInstance {
  readonly exports: Readonly<Record<string, unknown>>;
}

interface WasmApi {
  compile(bytes: Uint8Array): Promise<WebAssembly.Module>;
  readonly Module: { customSections(module: WebAssembly.Module, name: string): ArrayBuffer[] };
  readonly RuntimeError: abstract new (...args: never[]) => Error;
}

/** The runtime's `WebAssembly` global. */
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

type WaitAsyncResult = { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };

/** `Atomics.waitAsync` (ES2024): waits off the event loop without blocking the thread. */
export const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): WaitAsyncResult })
  .waitAsync;
