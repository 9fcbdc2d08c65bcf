/**
 * The worker's serial queue serves a session's work before warm-up work
 * (`host/runner/worker-handle.ts`, `Priority`): a warm-up step already
 * running finishes, but warm-up steps still waiting go after every real
 * call and instantiation queued behind them. Real worker, real plugin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { prepareModule } from '../../host/runner/module-prep.ts';
import { buildRcWrapper } from '../../host/runner/rc-wrapper.ts';
import { EXPORT_NAMES } from '../../host/runner/channel.ts';
import { WorkerHandle } from '../../host/runner/worker-handle.ts';
import { wasmApi } from '../../host/runner/wasm-api.ts';
import { encodeEnvelope } from '../../host/runner/wire.ts';
import { SEAMS } from '../../host/seams/index.ts';
import { compileWat } from '../helpers/wat.ts';

let handle: WorkerHandle | undefined;
afterEach(async () => {
  await handle?.terminate();
  handle = undefined;
});

const INPUT = encodeEnvelope('tools/pre-execute', { id: 's', turn: 1, step: 1, cwd: '/' }, { toolCallId: 't', toolName: 'bash', arguments: {} }, { action: 'allow' });
const PRE_TOOL = EXPORT_NAMES.indexOf('pre_tool');

/** Start gates that record, in order, when the worker starts each task (the gate runs at that moment). */
function startRecorder(): { started: string[]; gate: (label: string) => () => boolean } {
  const started: string[] = [];
  return {
    started,
    gate: (label) => () => {
      started.push(label);
      return true;
    },
  };
}

async function allowOnWorker(): Promise<{ handle: WorkerHandle; modules: { guest: WebAssembly.Module; wrapper: WebAssembly.Module }; memoryMaxPages: number | undefined }> {
  const prepared = prepareModule(await compileWat('allow'), { memoryMb: 16, source: 'allow.wat' });
  const wrapperBytes = buildRcWrapper(
    prepared.seamExports.map((seam) => SEAMS[seam].exportName),
    prepared.exportsMemory,
    prepared.init,
    prepared.growProbe,
    prepared.inputReserve && prepared.exportsMemory,
  );
  const modules = { guest: await wasmApi.compile(prepared.bytes), wrapper: await wasmApi.compile(wrapperBytes) };
  const created = new WorkerHandle({ dataBytes: 1 << 16, maxDataBytes: 1 << 20, mainSpinUs: 0, workerSpinUs: 0, workerQueuedSpinUs: 0 });
  await created.ready;
  return { handle: created, modules, memoryMaxPages: prepared.memory?.max };
}

describe('worker queue priority', () => {
  it('runs queued session calls and instantiations before queued warm-up steps, in order within each class', async () => {
    const setup = await allowOnWorker();
    handle = setup.handle;
    const options = { config: {}, memoryMb: 16, memoryMaxPages: setup.memoryMaxPages, maxOutputBytes: 1 << 16 };
    const made = await handle.create(1, 'allow', setup.modules, options, 10_000);
    expect(made).toEqual({ logs: [], memoryBytes: expect.any(Number) });
    const { started, gate } = startRecorder();
    // All queued in one tick, while the first (a session call) holds the worker.
    const tasks = [
      handle.call(1, PRE_TOOL, INPUT, 10_000, gate('session-1')),
      handle.call(1, PRE_TOOL, INPUT, 10_000, gate('warm-up-1'), 'background'),
      handle.create(2, 'allow', setup.modules, options, 10_000, gate('warm-up-instance'), 'background'),
      handle.call(1, PRE_TOOL, INPUT, 10_000, gate('session-2')),
      handle.create(3, 'allow', setup.modules, options, 10_000, gate('session-instance')),
      handle.call(1, PRE_TOOL, INPUT, 10_000, gate('session-3')),
    ];
    const results = await Promise.all(tasks);
    expect(started).toEqual(['session-1', 'session-2', 'session-instance', 'session-3', 'warm-up-1', 'warm-up-instance']);
    // Every task really ran on the worker: the calls answered allow's decision, the instances were made.
    for (const index of [0, 1, 3, 5]) expect(results[index]).toMatchObject({ output: expect.any(Uint8Array) });
    for (const index of [2, 4]) expect(results[index]).toMatchObject({ logs: [] });
  });

  it('a warm-up step already running is not interrupted: the session call waits for it, then runs next', async () => {
    const setup = await allowOnWorker();
    handle = setup.handle;
    const options = { config: {}, memoryMb: 16, memoryMaxPages: setup.memoryMaxPages, maxOutputBytes: 1 << 16 };
    await handle.create(1, 'allow', setup.modules, options, 10_000);
    const { started, gate } = startRecorder();
    await Promise.all([
      handle.call(1, PRE_TOOL, INPUT, 10_000, gate('warm-up-1'), 'background'),
      handle.call(1, PRE_TOOL, INPUT, 10_000, gate('warm-up-2'), 'background'),
      handle.call(1, PRE_TOOL, INPUT, 10_000, gate('session-1')),
    ]);
    expect(started).toEqual(['warm-up-1', 'session-1', 'warm-up-2']);
  });
});
