/**
 * A hook on the main thread, through the same adapter the runner's workers
 * use (`ExtismInstance`: prepared module, return-code wrapper, fault
 * mapping), so "isolated ÷ main-thread" is the cost of the isolation alone.
 */
import createPlugin from '@extism/extism';
import type { ListenerOutcome } from '../host/events/index.ts';
import { ExtismInstance } from '../host/runner/extism-adapter.ts';
import { type PreparedModule, prepareModule } from '../host/runner/module-prep.ts';
import { LogSink } from '../host/runner/log-sink.ts';
import { GUEST_MODULE_NAME, buildRcWrapper } from '../host/runner/rc-wrapper.ts';
import { INIT_EXPORT, WASI_HOST_MODULE, WasiHost } from '../host/runner/wasi/index.ts';
import { type WasmInstance, type WasmMemory, wasmApi } from '../host/runner/wasm-api.ts';
import { decodeDecision, encodeEnvelope } from '../host/runner/wire.ts';
import { type PreToolDecision, type PreToolPayload, SEAMS, type SessionInfo } from '../host/seams/index.ts';

const MEMORY_MB = 64;

/** A hook compiled once for main-thread instances. */
export interface MainThreadModule {
  readonly prepared: PreparedModule;
  readonly guest: WebAssembly.Module;
  readonly wrapper: WebAssembly.Module;
}

/** Prepares (memory cap, WASI imports renamed) and compiles a hook, as the runner does. */
export async function compileForMainThread(bytes: Uint8Array, source: string): Promise<MainThreadModule> {
  const prepared = prepareModule(bytes, { memoryMb: MEMORY_MB, source });
  const [guest, wrapper] = await Promise.all([
    wasmApi.compile(prepared.bytes),
    wasmApi.compile(buildRcWrapper(prepared.seamExports.map((seam) => SEAMS[seam].exportName), prepared.exportsMemory, prepared.init, prepared.growProbe, prepared.inputReserve && prepared.exportsMemory)),
  ]);
  return { prepared, guest, wrapper };
}

/** A new plugin instance from an already compiled module. */
export async function createMainThreadInstance(module: MainThreadModule): Promise<ExtismInstance> {
  const created = await ExtismInstance.create({
    guest: module.guest,
    wrapper: module.wrapper,
    ...(module.prepared.wasi && { wasi: { preopens: [], env: {}, clock: false } }),
    config: {},
    memoryMb: MEMORY_MB,
    memoryMaxPages: module.prepared.memory?.max,
    maxOutputBytes: 1_048_576,
  });
  if (!created.ok) throw new Error(`cannot instantiate on the main thread: ${created.fault.message}`);
  return created.instance;
}

/** One full pre-tool round trip on the main thread: msgpack envelope → wasm → msgpack decode → zod. */
export async function callMainThread(
  instance: ExtismInstance,
  payload: PreToolPayload,
  session: SessionInfo,
  next: PreToolDecision,
): Promise<ListenerOutcome<PreToolDecision>> {
  const outcome = await instance.call('pre_tool', encodeEnvelope('tools/pre-execute', session, payload, next));
  if (outcome.type === 'fault') return { type: 'fault', fault: outcome.fault };
  return decodeDecision('tools/pre-execute', outcome.bytes);
}

/**
 * The guest's linear memory after one call, read through the SDK directly
 * (the adapter does not expose it), with hookbox's WASI granting nothing.
 */
export async function guestMemoryAfterCall(bytes: Uint8Array, input: Uint8Array): Promise<{ initialBytes: number; afterCallBytes: number }> {
  const module = await compileForMainThread(bytes, 'memory-probe.wasm');
  let instance: WasmInstance | undefined;
  const wasi = new WasiHost({ preopens: [], env: {}, clock: false }, new LogSink(), () => instance?.exports.memory as WasmMemory | undefined);
  const plugin = await createPlugin(
    { wasm: [{ module: module.guest, name: GUEST_MODULE_NAME }, { module: module.wrapper, name: 'main' }] },
    { useWasi: false, runInWorker: false, logLevel: 'silent', functions: { [WASI_HOST_MODULE]: wasi.functions } },
  );
  try {
    instance = (await plugin.getInstance()) as unknown as WasmInstance;
    (instance.exports[INIT_EXPORT] as (() => void) | undefined)?.();
    const memory = instance.exports.memory as WasmMemory | undefined;
    const initialBytes = memory?.buffer.byteLength ?? 0;
    await plugin.call('pre_tool', input);
    return { initialBytes, afterCallBytes: memory?.buffer.byteLength ?? 0 };
  } finally {
    wasi.close();
    await plugin.close();
  }
}
