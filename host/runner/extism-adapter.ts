/**
 * The only file that imports `@extism/extism`. It creates main-thread-mode
 * plugins (the SDK's worker mode leaks and hangs, see README.md) and turns
 * everything the SDK or V8 can throw into a `HookFault` value.
 */
/// <reference lib="es2024.arraybuffer" />
import createPlugin, { type ExtismPluginOptions, type Plugin } from '@extism/extism';
import type { HookFault, HookFaultKind } from '../seams/fault.ts';
import { type LogCap, type LogLine, LogSink } from './log-sink.ts';
import { GROW_FAILED_GLOBAL } from './grow-probe.ts';
import { HttpCalls, HttpDeadlineError, type HttpGrant } from './http-calls.ts';
import { httpHelper } from './http-client.ts';
import { SIGNAL_FUNCTION, SignalFaultError, type SignalGrant, signalFunctions } from './signal-calls.ts';
import { GUEST_MODULE_NAME, INPUT_RESERVE_EXPORT, RC_GLOBAL } from './rc-wrapper.ts';
import { INIT_EXPORT, WASI_HOST_MODULE, type WasiGrant, WasiExit, WasiHost } from './wasi/index.ts';
import { type VarChange, VarMirror } from './var-mirror.ts';
import { type WasmGlobal, type WasmInstance, type WasmMemory, wasmApi } from './wasm-api.ts';
import { WASM_PAGE_BYTES } from './wasm-binary.ts';

/** Everything needed to instantiate one hook plugin. Structured-cloneable (it crosses to a worker). */
export interface InstanceOptions {
  /** The prepared guest (memory capped, WASI imports renamed to hookbox's own WASI). */
  readonly guest: WebAssembly.Module;
  /** The return-code wrapper built for this guest's seam exports. */
  readonly wrapper: WebAssembly.Module;
  /** What the guest gets through WASI; absent when it imports no WASI. */
  readonly wasi?: WasiGrant;
  /** Extism config visible to the plugin (`hookbox.instructionBudget` included when set). */
  readonly config: Readonly<Record<string, string>>;
  readonly memoryMb: number;
  /** The guest memory's maximum in pages after capping (a trap with memory there is a `memory` fault). */
  readonly memoryMaxPages: number | undefined;
  readonly maxOutputBytes: number;
  readonly logCap?: LogCap;
  /** Non-seam exports this instance serves (channel export index = seam exports' count + position). */
  readonly plainExports?: readonly string[];
  /** File URL of the module whose named exports serve the plugin's `extism:host/user` imports. */
  readonly hostFunctions?: string;
  /** Hosts `http_request` may reach; absent = every request is refused (status 0). */
  readonly http?: HttpGrant;
  /** Set when the operator granted the hook signals; absent = `hookbox_signal` refuses every name. */
  readonly signals?: SignalGrant;
  /** The session's Vars kept from an instance that was lost with its worker (var-mirror.ts). */
  readonly vars?: readonly VarChange[];
}

/**
 * How an export failed on its own terms: its non-zero return code, or the
 * `error_set` text with the code it returned. Hooks speaking a tool protocol
 * read these as exit code and stderr (`2` = block).
 */
export interface CallExit {
  readonly code: number;
  /** The `error_set` text, when the plugin set one. */
  readonly errorText?: string;
}

/** What one call produced: raw output bytes (`null` = empty output = no opinion) or a fault. */
export type CallOutcome =
  | { readonly type: 'output'; readonly bytes: Uint8Array | null; readonly logs: LogLine[] }
  | { readonly type: 'fault'; readonly fault: HookFault; readonly discard: boolean; readonly logs: LogLine[]; readonly exit?: CallExit };

/** Fault message prefixes the hookbox JS engine reports through `error_set`. */
const ENGINE_FAULT_PREFIXES: readonly [string, HookFaultKind][] = [
  ['hookbox-fault:timeout:', 'timeout'],
  ['hookbox-fault:memory:', 'memory'],
];
const PLUGIN_ERROR_PREFIX = 'Plugin-originated error: ';
const MAX_FAULT_MESSAGE = 2048;

/** The per-call budget of Extism `alloc` bytes, and whether this call hit it. */
interface AllocBudget {
  left: number;
  /** Set when the kernel refused an `alloc` over the budget during this call: a later trap is a `memory` fault. */
  refused: boolean;
}

/** A live plugin instance; never called re-entrantly (the worker runs one call at a time). */
export class ExtismInstance {
  readonly #plugin: Plugin;
  readonly #wrapper: WasmInstance;
  readonly #sink: LogSink;
  readonly #maxOutputBytes: number;
  readonly #capBytes: number;

  readonly #budget: AllocBudget;
  readonly #budgetBytes: number;
  readonly #wasi: WasiHost | undefined;
  readonly #http: HttpCalls;
  readonly #vars: VarMirror;

  private constructor(plugin: Plugin, wrapper: WasmInstance, sink: LogSink, budget: AllocBudget, options: InstanceOptions, extras: { wasi: WasiHost | undefined; http: HttpCalls; vars: VarMirror }) {
    const { wasi, http, vars } = extras;
    this.#plugin = plugin;
    this.#vars = vars;
    this.#http = http;
    this.#wasi = wasi;
    this.#budget = budget;
    this.#budgetBytes = options.memoryMb * 1_048_576;
    this.#wrapper = wrapper;
    this.#sink = sink;
    this.#maxOutputBytes = options.maxOutputBytes;
    this.#capBytes = (options.memoryMaxPages ?? Number.POSITIVE_INFINITY) * WASM_PAGE_BYTES;
  }

  /** Instantiates a plugin; a failure (bad import, trapping start function…) is a `load` fault. */
  static async create(
    options: InstanceOptions,
  ): Promise<{ ok: true; instance: ExtismInstance; logs: LogLine[] } | { ok: false; fault: HookFault; logs: LogLine[] }> {
    const sink = new LogSink(options.logCap);
    let wrapperInstance: WasmInstance | undefined;
    const functions: NonNullable<ExtismPluginOptions['functions']> = {};
    // Kernel `alloc` with an O(1) per-call budget. The SDK's own `memory.maxPages`
    // check sums every block of the call on each alloc (quadratic: 100k small
    // allocs took ~10 s), and it keeps the block it refuses. A host function in
    // the kernel's namespace replaces the kernel's (the SDK merges `functions`
    // into the same import object).
    const budget: AllocBudget = { left: options.memoryMb * 1_048_576, refused: false };
    const http = new HttpCalls(options.http, sink);
    const vars = new VarMirror(options.vars, (message) => sink.push('error', message));
    functions['extism:host/env'] = {
      alloc: (context: { alloc(size: bigint): bigint }, size: bigint): bigint => {
        const n = Number(size);
        if (!(n >= 0) || n > budget.left) {
          budget.refused = true;
          sink.push('error', `memory limit exceeded: alloc of ${n} bytes refused (${options.memoryMb} MiB per call)`);
          return 0n;
        }
        budget.left -= n;
        return context.alloc(size);
      },
      // Served here, deny-by-default (http-calls.ts), instead of the SDK's disabled stubs.
      ...http.functions(),
      // Var state mirrored to the main thread, so it outlives this worker.
      ...(vars.functions() as NonNullable<ExtismPluginOptions['functions']>[string]),
    };
    // hookbox's own WASI (the SDK's node:wasi stays off: it maps guest stdio
    // to real host fds). The memory is looked up at each call, so it is
    // reachable from `_initialize` on.
    const wasi = options.wasi === undefined ? undefined : new WasiHost(options.wasi, sink, () => wrapperInstance?.exports.memory as WasmMemory | undefined);
    if (wasi !== undefined) functions[WASI_HOST_MODULE] = wasi.functions as NonNullable<ExtismPluginOptions['functions']>[string];
    let plugin: Plugin | undefined;
    try {
      // Started now, not inside the first call: a thread start would eat into that call's deadline.
      if (http.granted) await httpHelper().ready();
      if (options.hostFunctions !== undefined) {
        const provided = (await import(options.hostFunctions)) as Record<string, unknown>;
        functions['extism:host/user'] = Object.fromEntries(Object.entries(provided).filter(([, fn]) => typeof fn === 'function')) as NonNullable<ExtismPluginOptions['functions']>[string];
      }
      // Served to every instance (a guest built with signals imports it); it refuses unless the operator granted some.
      functions['extism:host/user'] = {
        ...functions['extism:host/user'],
        [SIGNAL_FUNCTION]: signalFunctions(options.signals, sink)[SIGNAL_FUNCTION] as NonNullable<ExtismPluginOptions['functions']>[string][string],
      };
      plugin = await createPlugin(
        {
          wasm: [
            { module: options.guest, name: GUEST_MODULE_NAME },
            { module: options.wrapper, name: 'main' },
          ],
        },
        {
          runInWorker: false,
          useWasi: false,
          allowedHosts: [],
          config: { ...options.config },
          functions,
          logger: sink.logger(),
          logLevel: 'debug',
          memory: { maxVarBytes: options.memoryMb * 65_536 },
        },
      );
      wrapperInstance = (await plugin.getInstance()) as unknown as WasmInstance;
      const init = wrapperInstance.exports[INIT_EXPORT];
      if (typeof init === 'function') (init as () => void)();
      wasi?.flush();
      return { ok: true, instance: new ExtismInstance(plugin, wrapperInstance, sink, budget, options, { wasi, http, vars }), logs: sink.drain() };
    } catch (error) {
      wasi?.flush();
      wasi?.close();
      await plugin?.close().catch(() => undefined);
      const message = error instanceof WasiExit ? `_initialize called proc_exit(${error.code})` : `cannot instantiate: ${errorText(error)}`;
      return { ok: false, fault: { kind: 'load', message }, logs: sink.drain() };
    }
  }

  /** Calls one export with msgpack input bytes. Never throws. */
  async call(exportName: string, input: Uint8Array): Promise<CallOutcome> {
    const memory = this.#wrapper.exports.memory as WasmMemory | undefined;
    const before = memory?.buffer.byteLength ?? 0;
    const rc = this.#wrapper.exports[RC_GLOBAL] as WasmGlobal;
    if (typeof this.#wrapper.exports[exportName] !== 'function') {
      return this.#fault('missing-export', `the module does not export "${exportName}"`, false);
    }
    rc.value = 0;
    const growFailed = this.#wrapper.exports[GROW_FAILED_GLOBAL] as WasmGlobal | undefined;
    if (growFailed !== undefined) growFailed.value = 0;
    this.#budget.left = this.#budgetBytes;
    this.#budget.refused = false;
    this.#http.beginCall();
    let output: Uint8Array | null;
    try {
      // A guest that took the input in bulk reads only its length from the kernel: no second copy.
      const delivered = this.#preload(input, memory);
      const result = await this.#plugin.call(exportName, delivered ? blankInput(input.byteLength) : wholeBuffer(input));
      const bytes = result === null ? null : result.bytes();
      output = bytes === null || bytes.byteLength === 0 ? null : bytes;
    } catch (error) {
      this.#wasi?.flush();
      const after = memory?.buffer.byteLength ?? 0;
      const mapped = faultFromError(error, {
        // The guest was refused memory during the call: a grow returned -1 (instrumented, grow-probe.ts),
        // the memory grew to its cap, or the per-call Extism allocation budget said no.
        atMemoryCap: growFailed?.value === 1 || (after > before && after >= this.#capBytes) || this.#budget.refused,
      });
      const outcome = this.#fault(mapped.kind, mapped.message, mapped.discard);
      if (error instanceof WasiExit) return { ...outcome, exit: { code: error.code } };
      // Otherwise only the plugin's own `error_set` maps to plugin-error here: keep its text and return code.
      return mapped.kind === 'plugin-error' ? { ...outcome, exit: { code: rc.value as number, errorText: outcome.fault.message } } : outcome;
    }
    this.#wasi?.flush();
    const code = rc.value as number;
    if (code !== 0) {
      return { ...this.#fault('plugin-error', `export "${exportName}" returned ${code} without setting an error`, false), exit: { code } };
    }
    if (output !== null && output.byteLength > this.#maxOutputBytes) {
      return this.#fault(
        'output-too-large',
        `output of ${output.byteLength} bytes exceeds maxOutputBytes ${this.#maxOutputBytes}`,
        false,
      );
    }
    return { type: 'output', bytes: output, logs: this.#sink.drain() };
  }

  /** The Var changes of the calls since the last take (var-mirror.ts); undefined when none. */
  takeVars(): VarChange[] | undefined {
    return this.#vars.take();
  }

  /** The guest's linear memory size in bytes (what the runner's memory budget charges), if it exports its memory. */
  get memoryBytes(): number | undefined {
    return (this.#wrapper.exports.memory as WasmMemory | undefined)?.buffer.byteLength;
  }

  async close(): Promise<void> {
    this.#wasi?.close();
    await this.#plugin.close().catch(() => undefined);
  }

  /**
   * Bulk input delivery for guests that offer it (`INPUT_RESERVE_EXPORT`, the
   * hookbox JS engine): one copy into the buffer the guest reserved, instead
   * of the guest pulling the input through 8-byte kernel calls. The kernel
   * input then has the same length but is blank (the engine takes the
   * reserved buffer and never reads the kernel's: pdk/engine/src/input.c). `false`
   * when the guest has no such export or its pointer lies outside its memory:
   * the guest then gets the input through the kernel as usual. A trap in the
   * export is the call's trap.
   */
  #preload(input: Uint8Array, memory: WasmMemory | undefined): boolean {
    const reserve = this.#wrapper.exports[INPUT_RESERVE_EXPORT];
    if (typeof reserve !== 'function' || memory === undefined) return false;
    const pointer = (reserve as (len: number) => number)(input.byteLength) >>> 0;
    // Read the buffer after the call: the reservation may have grown the memory.
    const buffer = memory.buffer;
    if (pointer === 0 || pointer + input.byteLength > buffer.byteLength) return false;
    new Uint8Array(buffer, pointer, input.byteLength).set(input);
    return true;
  }

  #fault(kind: HookFaultKind, message: string, discard: boolean): Extract<CallOutcome, { type: 'fault' }> {
    return { type: 'fault', fault: { kind, message: truncate(message) }, discard, logs: this.#sink.drain() };
  }
}

let blank = new Uint8Array(0);

/**
 * The kernel input of a call whose input was delivered in bulk: zeros of the
 * input's length, never written, so its pages are never touched (a copy of a
 * big input into fresh memory costs a page fault per 4 KiB; see channel.ts).
 * Kept while calls have the same length. A new one is a resizable buffer
 * whose maximum is its length: V8 maps fresh pages for it, which the OS
 * zeroes on first touch (never, here), where a plain `new Uint8Array(n)`
 * comes from calloc, which zero-fills recycled heap memory, touching every
 * page: for lengths alternating between 1 and 4 MiB, 7 µs p50 (55 µs p90)
 * against 54–86 µs (560–750 µs).
 */
function blankInput(length: number): Uint8Array {
  if (blank.byteLength !== length) blank = new Uint8Array(new ArrayBuffer(length, { maxByteLength: length }));
  return blank;
}

/**
 * The input as the SDK takes it without a copy of its own: a Uint8Array that
 * spans a whole ArrayBuffer (a view of the channel's shared memory is copied).
 */
function wholeBuffer(input: Uint8Array): Uint8Array {
  return input.byteOffset === 0 && input.buffer instanceof ArrayBuffer && input.byteLength === input.buffer.byteLength ? input : input.slice();
}

/**
 * Maps what a call threw to a fault kind, and whether the instance must be
 * discarded. A wasm trap leaves the instance usable (V8 unwinds it); a host
 * RangeError (V8 stack overflow, a kernel function misused) may leave the
 * guest's shadow stack or allocator half-updated, so that instance goes.
 */
export function faultFromError(
  error: unknown,
  context: { atMemoryCap: boolean },
): { kind: HookFaultKind; message: string; discard: boolean } {
  // WASI `proc_exit` unwinds the guest mid-function (its shadow stack and
  // allocator may be half-updated), so the instance goes.
  if (error instanceof WasiExit) return { kind: 'plugin-error', message: error.message, discard: true };
  // An `Http.request` still unanswered at the deadline: the guest was unwound mid-call, so it goes too.
  if (error instanceof HttpDeadlineError) return { kind: 'timeout', message: error.message, discard: true };
  // A signal that timed out or could not start: the guest was unwound mid-call.
  if (error instanceof SignalFaultError) return { kind: error.kind, message: error.message, discard: true };
  const text = errorText(error);
  if (text.startsWith(PLUGIN_ERROR_PREFIX)) {
    const message = text.slice(PLUGIN_ERROR_PREFIX.length);
    for (const [prefix, kind] of ENGINE_FAULT_PREFIXES) {
      if (message.startsWith(prefix)) return { kind, message: message.slice(prefix.length).trim() || kind, discard: false };
    }
    if (message.startsWith('var memory limit exceeded')) return { kind: 'memory', message, discard: false };
    return { kind: 'plugin-error', message, discard: false };
  }
  if (/^Plugin error: function ".*" does not exist/.test(text)) return { kind: 'missing-export', message: text, discard: false };
  if (error instanceof wasmApi.RuntimeError) {
    if (context.atMemoryCap) return { kind: 'memory', message: `refused memory (a memory.grow failed, the memory reached its cap, or an Extism alloc went over its budget), then: ${text}`, discard: true };
    return { kind: 'trap', message: text, discard: false };
  }
  if (error instanceof RangeError) {
    if (/call stack/i.test(text)) return { kind: 'trap', message: `stack overflow: ${text}`, discard: true };
    if (/allocation failed|invalid array buffer length/i.test(text)) return { kind: 'memory', message: text, discard: true };
  }
  if (!(error instanceof Error)) return { kind: 'trap', message: `guest aborted the call with a non-Error: ${text}`, discard: true };
  // A kernel function the guest misused threw (bad block address, length past a block…).
  return { kind: 'trap', message: `host function failed: ${text}`, discard: true };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  try {
    return typeof error === 'object' ? JSON.stringify(error) : String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

function truncate(message: string): string {
  return message.length > MAX_FAULT_MESSAGE ? `${message.slice(0, MAX_FAULT_MESSAGE)}…` : message;
}
