/**
 * What a runner worker's global scope holds in place of Node's `Response`.
 * Installed by worker.ts as it starts, before it handles any message.
 *
 * The Extism SDK tests every manifest with `manifest instanceof Response`.
 * In Node 20 the global `Response` is a lazy getter: its first read loads
 * undici, the fetch implementation, which cost ~40 ms of CPU in a fresh
 * worker (measured in `hookbox call`). That read sat on the critical path of
 * every worker's first instance.
 *
 * Nothing in a runner worker fetches: a guest's HTTP goes through the HTTP
 * helper thread (http-client.ts), which has globals of its own, and the SDK
 * is given no allowed hosts.
 *
 * So a worker's `Response` is a stand-in. No value is an instance of it, and
 * constructing it throws. It is installed only in a runner worker, never on
 * the main thread.
 */
import { isMainThread } from 'node:worker_threads';

/** The worker's `Response`: names what happened if anything ever tries to use one. */
class WorkerResponse {
  constructor() {
    throw new Error('hookbox runner workers do not fetch (a guest reaches the network through granted hosts only)');
  }

  static [Symbol.hasInstance](): boolean {
    return false;
  }
}

/** Replaces the global `Response` of this thread with the stand-in; refuses on the main thread. */
export function installWorkerGlobals(): void {
  if (isMainThread) throw new Error('installWorkerGlobals: runner worker threads only');
  Object.defineProperty(globalThis, 'Response', { value: WorkerResponse, writable: false, configurable: true, enumerable: false });
}
