/**
 * A runner worker: hosts main-thread-mode Extism plugins and serves calls
 * from the shared-memory channel (fast path) or from postMessage (inputs or
 * outputs too big for the channel). Kept free of zod and the seam
 * definitions so it starts fast.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import {
  type CallReply,
  EXPORT_NAMES,
  type FromWorker,
  HEADER_BYTES,
  RespStatus,
  Slot,
  type ToWorker,
  ensureDataBytes,
} from './channel.ts';
import { waitAsync } from './wasm-api.ts';
import { ExtismInstance } from './extism-adapter.ts';
import { installWorkerGlobals } from './worker-globals.ts';
import { SpinBackoff } from './spin-backoff.ts';

interface WorkerConfig {
  readonly sab: SharedArrayBuffer;
  /** How long to keep polling for the next request after serving one, before sleeping. */
  readonly spinUs: number;
  /** The same when main said more calls are queued for this worker. */
  readonly queuedSpinUs: number;
}

const port = parentPort;
if (port === null) throw new Error('host/runner/worker.ts must run in a worker thread');
installWorkerGlobals();
const config = workerData as WorkerConfig;
const ctrl = new Int32Array(config.sab, 0, HEADER_BYTES / 4);
/** Length-tracking: follows the buffer when either side grows it. */
const data = new Uint8Array(config.sab, HEADER_BYTES);
const encoder = new TextEncoder();

const instances = new Map<number, ExtismInstance>();
const modules = new Map<string, { guest: WebAssembly.Module; wrapper: WebAssembly.Module }>();
/** Each instance's non-seam exports, indexed after the seam exports. */
const plainExports = new Map<number, readonly string[]>();

function post(message: FromWorker, transfer?: ArrayBuffer[]): void {
  port!.postMessage(message, transfer);
}

async function serve(id: number, exportIndex: number, input: Uint8Array): Promise<CallReply> {
  const instance = instances.get(id);
  const exportName = EXPORT_NAMES[exportIndex] ?? plainExports.get(id)?.[exportIndex - EXPORT_NAMES.length];
  if (instance === undefined || exportName === undefined) {
    return { output: null, fault: { kind: 'load', message: `no live instance ${id}` }, discard: true, logs: [] };
  }
  const outcome = await instance.call(exportName, input);
  const memoryBytes = instance.memoryBytes;
  const vars = instance.takeVars();
  if (outcome.type === 'output') return { output: outcome.bytes, logs: outcome.logs, ...(memoryBytes !== undefined && { memoryBytes }), ...(vars !== undefined && { vars }) };
  if (outcome.discard) {
    instances.delete(id);
    plainExports.delete(id);
    void track(instance.close());
  }
  return {
    output: null,
    fault: outcome.fault,
    ...(outcome.exit !== undefined && { exit: outcome.exit }),
    discard: outcome.discard,
    logs: outcome.logs,
    ...(memoryBytes !== undefined && !outcome.discard && { memoryBytes }),
    ...(vars !== undefined && { vars }),
  };
}

function writeReply(seq: number, reply: CallReply): void {
  const extras =
    reply.fault === undefined && reply.logs.length === 0 && reply.vars === undefined
      ? undefined
      : encoder.encode(JSON.stringify({ fault: reply.fault, exit: reply.exit, discard: reply.discard, logs: reply.logs, vars: reply.vars }));
  const outLen = reply.output?.byteLength ?? 0;
  const extraLen = extras?.byteLength ?? 0;
  if (!ensureDataBytes(config.sab, outLen + extraLen)) {
    ctrl[Slot.respStatus] = RespStatus.spilled;
    post({ op: 'reply', seq, reply });
  } else {
    if (reply.output !== null) data.set(reply.output, 0);
    if (extras !== undefined) data.set(extras, outLen);
    ctrl[Slot.respStatus] = reply.fault === undefined ? RespStatus.output : RespStatus.fault;
    ctrl[Slot.respOutLen] = reply.output === null ? -1 : outLen;
    ctrl[Slot.respExtraLen] = extraLen;
    ctrl[Slot.respMemPages] = reply.memoryBytes === undefined ? -1 : Math.ceil(reply.memoryBytes / 65_536);
  }
  Atomics.store(ctrl, Slot.respSeq, seq);
  Atomics.notify(ctrl, Slot.respSeq);
}

/**
 * Work that needs this thread's event loop (an instantiation, a spilled call,
 * a close): while any is pending the loop sleeps in `Atomics.waitAsync`, not
 * in the blocking `Atomics.wait` that would starve it.
 */
let pendingAsync = 0;

function track<T>(work: Promise<T>): Promise<T> {
  pendingAsync++;
  return work.finally(() => {
    pendingAsync--;
    // Wake the channel loop out of waitAsync so it can go back to the cheaper blocking wait.
    Atomics.notify(ctrl, Slot.bell);
  });
}

/** One turn of the event loop: delivers posted messages (create, dispose, spilled calls). */
const turnEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A sleeping worker still turns its event loop this often (nothing should need it, but nothing starves). */
const IDLE_WAIT_MS = 50;

async function channelLoop(): Promise<void> {
  let seen = Atomics.load(ctrl, Slot.reqSeq);
  let msgSeen = Atomics.load(ctrl, Slot.msgSeq);
  let justServed = false;
  // Back-off like main's: spins that keep missing mean main is slow or shares our core; stop stealing it.
  const backoff = new SpinBackoff();
  for (;;) {
    // Read the bell first: anything main posts after these reads changes it, so the wait below cannot miss it.
    const bell = Atomics.load(ctrl, Slot.bell);
    let seq = Atomics.load(ctrl, Slot.reqSeq);
    if (seq === seen && justServed) {
      // Poll briefly for the next call: long when main said more are queued for us, short otherwise
      // (on 2 cores every spinning thread takes a core from someone).
      const spinUs = (ctrl[Slot.queued] as number) > 0 ? config.queuedSpinUs : config.spinUs;
      if (backoff.shouldSpin() && spinUs > 0) {
        const until = performance.now() + spinUs / 1000;
        while (seq === seen && performance.now() < until) seq = Atomics.load(ctrl, Slot.reqSeq);
        backoff.record(seq !== seen);
      }
    }
    justServed = false;
    if (seq === seen) {
      const msg = Atomics.load(ctrl, Slot.msgSeq);
      if (msg !== msgSeen) {
        msgSeen = msg;
        await turnEventLoop();
      } else if (pendingAsync > 0) {
        const wait = waitAsync(ctrl, Slot.bell, bell);
        if (wait.async) await wait.value;
      } else if (Atomics.wait(ctrl, Slot.bell, bell, IDLE_WAIT_MS) === 'timed-out') {
        await turnEventLoop();
      }
      continue;
    }
    seen = seq;
    const length = ctrl[Slot.reqLen] as number;
    const t0 = performance.now();
    // A view of the channel, not a copy: the adapter copies it into the guest (or, for a guest that
    // reads the kernel's input, into a buffer of its own) before the reply overwrites the region.
    const input = data.subarray(0, length);
    const reply = await serve(ctrl[Slot.instanceId] as number, ctrl[Slot.exportIndex] as number, input);
    ctrl[Slot.respServeUs] = Math.min(0x7fffffff, Math.round((performance.now() - t0) * 1000));
    writeReply(seq, reply);
    justServed = true;
  }
}

async function create(message: Extract<ToWorker, { op: 'create' }>): Promise<void> {
  if (message.modules !== undefined) modules.set(message.moduleKey, message.modules);
  const compiled = modules.get(message.moduleKey);
  if (compiled === undefined) {
    post({ op: 'created', id: message.id, fault: { kind: 'load', message: 'module not sent to this worker' }, logs: [] });
    return;
  }
  const result = await ExtismInstance.create({ ...message.options, ...compiled });
  if (result.ok) {
    instances.set(message.id, result.instance);
    if (message.options.plainExports !== undefined) plainExports.set(message.id, message.options.plainExports);
    const memoryBytes = result.instance.memoryBytes;
    post({ op: 'created', id: message.id, logs: result.logs, ...(memoryBytes !== undefined && { memoryBytes }) });
  } else {
    post({ op: 'created', id: message.id, fault: result.fault, logs: result.logs });
  }
}

port.on('message', (message: ToWorker) => {
  switch (message.op) {
    case 'create':
      void track(create(message));
      break;
    case 'dispose': {
      const instance = instances.get(message.id);
      instances.delete(message.id);
      plainExports.delete(message.id);
      if (instance !== undefined) void track(instance.close());
      break;
    }
    case 'call':
      void track(serve(message.id, message.exportIndex, message.input).then((reply) => post({ op: 'reply', seq: message.seq, reply })));
      break;
  }
});

post({ op: 'ready' });
void channelLoop();
