import { DEFAULT_LIMITS, type Capabilities, type HookLimits } from './limits.ts';
import type { SeamListener } from '../events/index.ts';
import type { FailPolicy, HookFault, SeamId } from '../seams/index.ts';
import type { HookLogLevel } from './log-sink.ts';
import type { HookCodec } from './wire.ts';
import type { SignalSpec } from './signal-spec.ts';

export { DEFAULT_LIMITS };
/** Consecutive faults after which a hook is quarantined. */
export const DEFAULT_QUARANTINE_AFTER = 3;
/** Instantiation gets at least this long, whatever the call timeout (a cold worker compiles lazily). */
export const MIN_LOAD_TIMEOUT_MS = 1000;

/** One hook to load: where its wasm is and how it runs. Built by `host/config` from the operator config. */
export interface WasmHookSpec {
  readonly name: string;
  /** Path of the `.wasm` file, or its bytes. */
  readonly wasm: string | Uint8Array;
  /** Expected hex sha256 (from the manifest); a mismatch refuses to load. */
  readonly sha256?: string;
  /** Names the hook's file in messages; defaults to the path (or `<name>.wasm` for bytes). */
  readonly source?: string;
  /** Seams to handle; absent = every seam the module exports. Each must be exported. */
  readonly seams?: readonly SeamId[];
  readonly tools?: readonly string[];
  readonly failPolicy?: FailPolicy;
  /**
   * The wire the hook speaks: hookbox's msgpack envelope (default), or a
   * coding agent's protocol (a codec from `host/bridges`, chosen by `host/config`).
   */
  readonly codec?: HookCodec;
  readonly limits?: HookLimits;
  /** Extism config values the plugin can read. */
  readonly config?: Readonly<Record<string, string>>;
  /** Capabilities the plugin gets: already the intersection of the manifest's request and the operator's grant. */
  readonly capabilities?: Capabilities;
  /** Consecutive faults before quarantine (default 3). */
  readonly quarantineAfter?: number;
  /**
   * The set of workers the hook's instances run on: hooks of different lanes never share a
   * worker, so a runaway in one lane cannot terminate another lane's instances. Absent = the
   * runner's shared workers. `host/config` puts the organisation layer's hooks in `'organisation'`.
   */
  readonly lane?: string;
  /**
   * Exports that are not seams, served raw by {@link WasmHook.callExport}: an Extism plugin
   * used as such (extism-js plugins, `hookbox call --export`). Each must be exported.
   */
  readonly plainExports?: readonly string[];
  /**
   * The host side of the plugin's host functions (`extism:host/user` imports): the file URL of an
   * ES module whose named exports are Extism host functions, `(context, ...args) => result`.
   * Imported by each worker; it runs in the host, outside the sandbox, so only trusted code goes here.
   */
  readonly hostFunctions?: string;
  /**
   * The operator's signals this hook is granted, by name (`host/config` resolves the grant against
   * the declarations). The hook reads them through the PDK's `signal(name)`; any other name is refused.
   */
  readonly signals?: Readonly<Record<string, SignalSpec>>;
}

/** What a raw export call produced: its output bytes (`null` = none) or a fault. */
export type ExportCallOutcome = { readonly type: 'output'; readonly output: Uint8Array | null } | { readonly type: 'fault'; readonly fault: HookFault };

/** A loaded wasm hook: an ordinary seam listener, plus lifecycle. */
export interface WasmHook extends SeamListener {
  /** Seams the module exports a function for. */
  readonly exports: readonly SeamId[];
  /** Hex sha256 of the wasm bytes as loaded (before the memory cap rewrite). */
  readonly sha256: string;
  /**
   * Whether the hook is quarantined for every session: its instantiation failed (`load`)
   * `quarantineAfter` times in a row. Its calls then fault at once.
   */
  readonly quarantined: boolean;
  /**
   * Whether calls from this session fault at once: the hook faulted `quarantineAfter` times in a
   * row in this session (quarantine is per (hook, session)), or it is quarantined for every session.
   */
  isQuarantined(session: string): boolean;
  /**
   * Calls one of the spec's `plainExports` with raw input bytes in `session`'s instance, under the
   * same limits, deadline and fault mapping as a seam call; nothing is decoded.
   */
  callExport(name: string, input: Uint8Array, session: string): Promise<ExportCallOutcome>;
  /** Clears the quarantine (every session's) and drops every instance (fresh state on the next call). */
  reload(): Promise<void>;
  close(): Promise<void>;
}

/** One plugin log line (Extism `log_*`), or a runner note about the hook. */
export interface HookLogEntry {
  readonly hook: string;
  readonly level: HookLogLevel;
  readonly message: string;
  /** Session id of the call that logged it; `''` at load time. */
  readonly session: string;
}
