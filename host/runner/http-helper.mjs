// The network side of a runner worker's `Http.request` (http-client.ts). A
// guest's call is synchronous and its worker blocks in `Atomics.wait` while
// this thread, which has an event loop of its own, does the `fetch`. Plain
// JavaScript, not TypeScript: it starts without a loader, inside a worker.
//
// In: `{ seq, url, method, headers, body?, maxBytes, timeoutMs }` on `port`.
// Out: `{ seq, status, headers, body }` or `{ seq, error }` on `port`, then
// `state[DONE] = seq` and a notify. `state[READY]` is set once listening.
// The caller has already checked the URL against the hook's grant; redirects
// are never followed (a 3xx is the answer), so no other host is reached.
import { workerData } from 'node:worker_threads';

const READY = 0;
const DONE = 1;

/** @type {{ state: Int32Array, port: import('node:worker_threads').MessagePort }} */
const { state, port } = workerData;

/**
 * The response, read up to `maxBytes`: over it is an error (the rest is not read).
 * @param {{ seq: number, url: string, method: string, headers: Record<string, string>, body?: Uint8Array, maxBytes: number, timeoutMs: number }} req
 */
async function answer(req) {
  const { seq, maxBytes } = req;
  try {
    const response = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD' && { body: req.body }),
      redirect: 'manual',
      // The caller stops waiting at the hook's deadline; stop the request then too.
      signal: AbortSignal.timeout(Math.max(1, req.timeoutMs)),
    });
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      return { seq, error: `the response body is ${declared} bytes, over the ${maxBytes}-byte cap` };
    }
    const chunks = [];
    let total = 0;
    if (response.body !== null) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > maxBytes) {
          await reader.cancel().catch(() => undefined);
          return { seq, error: `the response body exceeds the ${maxBytes}-byte cap` };
        }
        chunks.push(value);
      }
    }
    const body = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    return { seq, status: response.status, headers: Object.fromEntries(response.headers), body };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { seq, error: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

port.on('message', (req) => {
  void answer(req).then((reply) => {
    port.postMessage(reply, reply.body === undefined ? [] : [reply.body.buffer]);
    Atomics.store(state, DONE, reply.seq);
    Atomics.notify(state, DONE);
  });
});

Atomics.store(state, READY, 1);
Atomics.notify(state, READY);
