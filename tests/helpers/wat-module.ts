/**
 * The preamble of a hand-written test hook, written once: `(module`, an
 * import of each Extism host function the body calls, and the exported
 * memory. A test writes only what its hook does (`extismModule(body)`), and
 * the signatures come from the kernel ABI's one table (`EXTISM_KERNEL`)
 * rather than from a copy in every spec.
 * Modules whose preamble is the point of the test (no memory, an import no
 * host provides, an imported memory) are written out whole instead.
 */
import { EXTISM_KERNEL } from '../../pdk/compiler/host-stub.ts';
import { compileWatSource } from './wat.ts';

const TYPE: Record<number, string> = { 0x7f: 'i32', 0x7e: 'i64' };
/** The WAT signature of a kernel function, from the one table of the kernel ABI (`EXTISM_KERNEL`). */
function signature([params, results]: [number[], number[]]): string {
  const text = (kind: string, types: number[]) => (types.length === 0 ? [] : [`(${kind} ${types.map((type) => TYPE[type]).join(' ')})`]);
  return [...text('param', params), ...text('result', results)].join(' ');
}

/** How the module around a body is declared. */
export interface ExtismModuleOptions {
  /** The exported memory's limits in pages, `min` or `min max` (default `1 1`). */
  memory?: string;
  /** Further imports, written out (`(import "extism:host/user" "probe" (func $probe …))`): they must precede the memory. */
  imports?: readonly string[];
}

/**
 * A module around `body` (its data segments, globals and functions): each
 * Extism host function the body calls (`(call $alloc …)`) imported under its
 * own name, then `options.imports`, then `(memory (export "memory") …)`.
 */
export function extismModule(body: string, options: ExtismModuleOptions = {}): string {
  const called = Object.entries(EXTISM_KERNEL).filter(([name]) => new RegExp(`\\(call \\$${name}[\\s)]`).test(body));
  const imports = [...called.map(([name, types]) => `(import "extism:host/env" "${name}" (func $${name} ${signature(types)}))`), ...(options.imports ?? [])];
  return `(module\n  ${[...imports, `(memory (export "memory") ${options.memory ?? '1 1'})`].join('\n  ')}\n  ${body.trim()})`;
}

/** {@link extismModule}, compiled to wasm bytes (`filename` names it in wabt's errors). */
export function compileExtismModule(body: string, options: ExtismModuleOptions = {}, filename = 'inline.wat'): Promise<Uint8Array> {
  return compileWatSource(extismModule(body, options), filename);
}
