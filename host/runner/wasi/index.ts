/**
 * hookbox's own WASI preview1 (`wasi_snapshot_preview1`), replacing Node's
 * `node:wasi` for hooks: no host fd is ever handed to a guest. The module
 * rewrite (`module-prep.ts`) renames every WASI import to `WASI_HOST_MODULE`
 * (same byte length, in place), and the adapter passes `WasiHost.functions`
 * to the Extism SDK under that name (the SDK's `useWasi` stays off). The
 * table of calls and their answers is in host/runner/README.md.
 */
import type { LogSink } from '../log-sink.ts';
import type { WasmMemory } from '../wasm-api.ts';
import { NO_FD_RELATIVE_NOTE } from './dir-walk.ts';
import { Errno, WasiErrno, WasiExit, errnoFromNode } from './errno.ts';
import { fdCalls, STDIO_RIGHTS } from './fd-calls.ts';
import { FdTable } from './fd-table.ts';
import { GuestMemory } from './guest-memory.ts';
import { pathCalls, rootRights } from './path-calls.ts';
import { procCalls } from './proc-calls.ts';
import type { WasiFn, WasiState } from './state.ts';
import { StdioSink } from './stdio.ts';

export { WasiExit } from './errno.ts';

export { INIT_EXPORT, START_EXPORT, WASI_HOST_MODULE, WASI_MODULE } from './names.ts';

/** One granted directory as the instance needs it. */
export interface WasiPreopen {
  /** The guest path the grant names. */
  readonly guest: string;
  /** Realpath of the host directory, computed once at load. */
  readonly host: string;
  /** `"write": true` in the grant; otherwise read-only. */
  readonly write: boolean;
}

/** What a hook is granted through WASI. Structured-cloneable (it crosses to a worker). */
export interface WasiGrant {
  readonly preopens: readonly WasiPreopen[];
  /** Granted environment variables with their values. */
  readonly env: Readonly<Record<string, string>>;
  readonly clock: boolean;
}

/** Host functions as the Extism SDK calls them: its call context first (unused). */
export type HostFunction = (context: unknown, ...args: (number | bigint)[]) => number;

/** The log note the first time an instance reads the clock without the grant. */
export const CLOCK_DENIED_NOTE =
  'the hook read the clock without the clock grant: it sees time 0 (Date.now() is 0, 1970-01-01T00:00:00Z; performance.now() counts virtual time); grant "clock": true for the real time';

/** One instance's WASI: its fd table, stdio sink and the preview1 functions (`WASI_FUNCTIONS` in names.ts). */
export class WasiHost {
  readonly functions: Record<string, HostFunction>;
  readonly #table = new FdTable();
  readonly #stdio: StdioSink;

  constructor(grant: WasiGrant, sink: LogSink, memory: () => WasmMemory | undefined) {
    this.#stdio = new StdioSink(sink);
    for (const stream of [0, 1, 2] as const) {
      this.#table.add({ kind: 'stdio', stream, base: STDIO_RIGHTS[stream], inheriting: 0n });
    }
    for (const preopen of grant.preopens) {
      const rights = rootRights(preopen);
      this.#table.add({ kind: 'dir', root: preopen, rel: [], preopen: true, base: rights, inheriting: rights });
    }
    const encoder = new TextEncoder();
    let clockNoted = false;
    let fdRelativeNoted = false;
    const state: WasiState = {
      table: this.#table,
      stdio: this.#stdio,
      environ: Object.entries(grant.env).map(([key, value]) => encoder.encode(`${key}=${value}\0`)),
      clock: grant.clock,
      clockDenied: () => {
        // Once per instance: a hook's `Date.now()` is silently 0 otherwise, and a loop of reads would flood the log.
        if (clockNoted) return;
        clockNoted = true;
        sink.push('warn', CLOCK_DENIED_NOTE);
      },
      noFdRelative: () => {
        if (fdRelativeNoted) return;
        fdRelativeNoted = true;
        sink.push('warn', NO_FD_RELATIVE_NOTE);
      },
      memory: () => {
        const current = memory();
        if (current === undefined) throw new WasiErrno(Errno.FAULT);
        return new GuestMemory(current);
      },
    };
    const calls = { ...fdCalls(state), ...pathCalls(state), ...procCalls(state) };
    this.functions = Object.fromEntries(Object.entries(calls).map(([name, fn]) => [name, guard(fn)]));
  }

  /** Ends the call's stdout/stderr lines into the log sink. */
  flush(): void {
    this.#stdio.flush();
  }

  /** Closes every host fd the guest opened. */
  close(): void {
    this.#table.closeAll();
  }
}

/**
 * The boundary returns errnos, never exceptions: `WasiErrno` → its errno, a
 * Node fs error → the matching errno. `WasiExit` goes through (it ends the
 * call). Anything else is a host bug and surfaces as a fault.
 */
function guard(fn: WasiFn): HostFunction {
  return (_context, ...args) => {
    try {
      return fn(...args);
    } catch (error) {
      if (error instanceof WasiExit) throw error;
      if (error instanceof WasiErrno) return error.errno;
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (typeof code === 'string') return errnoFromNode(code);
      throw error;
    }
  };
}
