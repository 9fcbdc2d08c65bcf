import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXPORT_NAMES } from '../../host/runner/channel.ts';
import { WorkerHandle } from '../../host/runner/worker-handle.ts';
import { installWorkerGlobals } from '../../host/runner/worker-globals.ts';
import { watGuest } from '../helpers/worker-guest.ts';

// A runner worker's global `Response` is a stand-in (host/runner/worker-globals.ts),
// so creating a plugin never loads undici. Checked from inside a real runner
// worker: a host function of the guest reads the worker's own state, and the
// guest returns what it found as its return code (0 = all as it should be).

/** The guest's return code, one bit per thing found wrong in the worker. */
const UNDICI_LOADED = 1;
const RESPONSE_NOT_STAND_IN = 2;
const RESPONSE_CONSTRUCTS = 4;

const PROBE = `
export function probe() {
  let found = 0;
  if (process.moduleLoadList.some((name) => name.includes('undici'))) found |= ${UNDICI_LOADED};
  if (({}) instanceof Response || Response.name !== 'WorkerResponse') found |= ${RESPONSE_NOT_STAND_IN};
  try { new Response(); found |= ${RESPONSE_CONSTRUCTS}; } catch {}
  return BigInt(found);
}
`;

const GUEST = `(module
  (import "extism:host/user" "probe" (func $probe (param i64) (result i64)))
  (memory (export "memory") 1 1)
  (func (export "pre_tool") (result i32) (i32.wrap_i64 (call $probe (i64.const 0)))))`;

describe('runner worker globals', () => {
  it('a worker creates and calls a plugin without loading undici; its Response is the stand-in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-worker-globals-'));
    const handle = new WorkerHandle({ dataBytes: 1024, maxDataBytes: 4096, mainSpinUs: 0, workerSpinUs: 0, workerQueuedSpinUs: 0 });
    try {
      await writeFile(join(dir, 'probe.mjs'), PROBE);
      const guest = await watGuest(GUEST, 'globals-probe');
      const options = { ...guest.options, hostFunctions: pathToFileURL(join(dir, 'probe.mjs')).href };
      expect(await handle.create(1, 'globals-probe', guest.modules, options, 10_000)).toEqual({ logs: [], memoryBytes: 65_536 });
      const result = await handle.call(1, EXPORT_NAMES.indexOf('pre_tool'), new Uint8Array(0), 10_000);
      // Return code 0 with no output: no opinion, and nothing found wrong.
      expect(result).toEqual({ output: null, logs: [], memoryBytes: 65_536 });
    } finally {
      await handle.terminate();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the stand-in is never installed on the main thread', () => {
    expect(() => installWorkerGlobals()).toThrow('installWorkerGlobals: runner worker threads only');
    expect(typeof Response).toBe('function');
    expect(Response.name).toBe('Response');
  });
});
