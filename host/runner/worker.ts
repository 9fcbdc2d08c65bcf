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
} from './channel.ts';
import { waitAsync } from './wasm-api.ts';
import { ExtismInstance } from './extism-adapter.ts';

interface WorkerConfig {
  readonly sab: SharedArrayBuffer;
  /** How long to keep polling for the next request after serving one, before sleeping. */
  readonly spinUs: number;
}

const port = parentPort;
if (port === null) throw new Error('host/runner/worker.ts must run in a worker thread');
const config = workerData as WorkerConfig;
const ctrl = new Int32Array(config.sab, 0, HEADER_BYTES / 4);
const data = new Uint8Array(config.sab, HEADER_BYTES);
const encoder = new TextEncoder();

const instances = new Map<number, ExtismInstance>();
const modules = new Map<string, { guest: WebAssembly.Module; wrapper: WebAssembly.Module }>();

function post(message: FromWorker, transfer?: ArrayBuffer[]): void {
  port!.postMessage(message, transfer);
}

async function serve(id: number, exportIndex: number, input: Uint8Array): Promise<CallReply> {
  const instance = instances.get(id);
  const exportName = EXPORT_NAMES[exportIndex];
  if (instance === undefined || exportName === undefined) {
    return { output: null, fault: { kind: 'load', message: `no live instance ${id}` }, discard: true, logs: [] };
  }
  const outcome = await instance.call(exportName, input);
  if (outcome.type === 'output') return { output: outcome.bytes, logs: outcome.logs };
  if (outcome.discard) {
    instances.delete(id);
    void instance.close();
  }
  return { output: null, fault: outcome.fault, ...(outcome.exit !== undefined && { exit: outcome.exit }), discard: outcome.discard, logs: outcome.logs };
}

function writeReply(seq: number, reply: CallReply): void {
  const extras =
    reply.fault === undefined && reply.logs.length === 0
      ? undefined
      : encoder.encode(JSON.stringify({ fault: reply.fault, exit: reply.exit, discard: reply.discard, logs: reply.logs }));
  const outLen = reply.output?.byteLength ?? 0;
  const extraLen = extras?.byteLength ?? 0;
  if (outLen + extraLen > data.byteLength) {
    ctrl[Slot.respStatus] = RespStatus.spilled;
    post({ op: 'reply', seq, reply });
  } else {
    if (reply.output !== null) data.set(reply.output, 0);
    if (extras !== undefined) data.set(extras, outLen);
    ctrl[Slot.respStatus] = reply.fault === undefined ? RespStatus.output : RespStatus.fault;
    ctrl[Slot.respOutLen] = reply.output === null ? -1 : outLen;
    ctrl[Slot.respExtraLen] = extraLen;
  }
  Atomics.store(ctrl, Slot.respSeq, seq);
  Atomics.notify(ctrl, Slot.respSeq);
}

async function channelLoop(): Promise<void> {
  let seen = Atomics.load(ctrl, Slot.reqSeq);
  for (;;) {
    let seq = Atomics.load(ctrl, Slot.reqSeq);
    if (seq === seen) {
      const until = performance.now() + config.spinUs / 1000;
      while (seq === seen && performance.now() < until) seq = Atomics.load(ctrl, Slot.reqSeq);
      if (seq === seen) {
        const wait = waitAsync(ctrl, Slot.reqSeq, seen);
        if (wait.async) await wait.value;
        continue;
      }
    }
    seen = seq;
    const length = ctrl[Slot.reqLen] as number;
    // A fresh exact-size ArrayBuffer: Extism wraps it as the input block without another copy.
    const input = data.slice(0, length);
    const reply = await serve(ctrl[Slot.instanceId] as number, ctrl[Slot.exportIndex] as number, input);
    writeReply(seq, reply);
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
    post({ op: 'created', id: message.id, logs: result.logs });
  } else {
    post({ op: 'created', id: message.id, fault: result.fault, logs: result.logs });
  }
}

port.on('message', (message: ToWorker) => {
  switch (message.op) {
    case 'create':
      void create(message);
      break;
    case 'dispose': {
      const instance = instances.get(message.id);
      instances.delete(message.id);
      void instance?.close();
      break;
    }
    case 'call':
      void serve(message.id, message.exportIndex, message.input).then((reply) => post({ op: 'reply', seq: message.seq, reply }));
      break;
  }
});

post({ op: 'ready' });
void channelLoop();
