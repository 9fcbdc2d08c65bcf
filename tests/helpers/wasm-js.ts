/**
 * The parts of the WebAssembly JS API the runner unit specs use to compile,
 * link and run modules directly, typed: the project's TypeScript libs (ES2023,
 * no DOM) do not declare them (host/runner/wasm-api.ts types the runner's own
 * few).
 */
import type { WasmGlobal, WasmInstance } from '../../host/runner/wasm-api.ts';

type Imports = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

interface WasmJs {
  compile(bytes: Uint8Array): Promise<WebAssembly.Module>;
  instantiate(module: WebAssembly.Module, imports?: Imports): Promise<WasmInstance>;
  validate(bytes: Uint8Array): boolean;
  readonly Module: {
    new (bytes: Uint8Array): WebAssembly.Module;
    exports(module: WebAssembly.Module): { name: string; kind: string }[];
    customSections(module: WebAssembly.Module, name: string): ArrayBuffer[];
  };
  readonly Global: new (descriptor: { value: 'i32' | 'i64' | 'f32' | 'f64'; mutable?: boolean }, value?: number) => WasmGlobal;
  readonly Tag: new (descriptor: { parameters: string[] }) => object;
  readonly RuntimeError: new (message?: string) => Error;
}

/** The runtime's `WebAssembly` global. */
export const wasm = (globalThis as unknown as { WebAssembly: WasmJs }).WebAssembly;

/** Compiles and instantiates `bytes` with `imports`. */
export async function instantiateBytes(bytes: Uint8Array, imports?: Imports): Promise<WasmInstance> {
  return wasm.instantiate(await wasm.compile(bytes), imports);
}
