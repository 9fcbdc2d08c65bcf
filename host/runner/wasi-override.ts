import type { WasmMemory } from './wasm-api.ts';

/**
 * The WASI imports the runner serves itself (renamed into
 * `WASI_OVERRIDE_MODULE` by module-prep): a clock that answers ENOTCAPABLE
 * when the clock is not granted, and an environment holding only the granted
 * variables (Node's WASI as the SDK sets it up can only give none).
 * Node's WASI serves everything else (fds, preopens, random).
 */

/** The WASI module name hooks import. */
export const WASI_MODULE = 'wasi_snapshot_preview1';
/**
 * The module name overridden imports are renamed to. Same byte length as
 * `WASI_MODULE`, so the rename is done in place and no offset moves.
 */
export const WASI_OVERRIDE_MODULE = 'hookbox:wasi_override1';

const ERRNO_SUCCESS = 0;
const ERRNO_NOSYS = 52;
const ERRNO_NOTCAPABLE = 76;

export interface WasiOverrideOptions {
  /** Environment visible to the guest: only the granted names. */
  readonly env: Readonly<Record<string, string>>;
  /** The guest memory, once the instance exists (calls before that fail with ENOSYS). */
  readonly memory: () => WasmMemory | undefined;
}

type HostFn = (context: unknown, ...args: (number | bigint)[]) => number;

/** Host functions for the override namespace; the first argument is the Extism call context (unused). */
export function wasiOverrideFunctions(options: WasiOverrideOptions): Record<string, HostFn> {
  const entries = Object.entries(options.env).map(([key, value]) => new TextEncoder().encode(`${key}=${value}\0`));
  const view = (): DataView | undefined => {
    const memory = options.memory();
    return memory === undefined ? undefined : new DataView(memory.buffer);
  };
  return {
    // Without the grant the clock does not exist: ENOTCAPABLE, and no value at all is written.
    clock_time_get: () => ERRNO_NOTCAPABLE,
    clock_res_get: () => ERRNO_NOTCAPABLE,
    environ_sizes_get: (_ctx, countPtr, sizePtr) => {
      const dv = view();
      if (dv === undefined) return ERRNO_NOSYS;
      dv.setUint32(Number(countPtr), entries.length, true);
      dv.setUint32(
        Number(sizePtr),
        entries.reduce((n, e) => n + e.length, 0),
        true,
      );
      return ERRNO_SUCCESS;
    },
    environ_get: (_ctx, environPtr, bufPtr) => {
      const memory = options.memory();
      if (memory === undefined) return ERRNO_NOSYS;
      const dv = new DataView(memory.buffer);
      const bytes = new Uint8Array(memory.buffer);
      let at = Number(bufPtr);
      entries.forEach((entry, i) => {
        dv.setUint32(Number(environPtr) + i * 4, at, true);
        bytes.set(entry, at);
        at += entry.length;
      });
      return ERRNO_SUCCESS;
    },
  };
}
