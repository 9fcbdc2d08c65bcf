/**
 * The kernel's `http_request`, `http_status_code` and `http_headers` for one
 * instance (http-calls.ts, http-client.ts), called the way the Extism SDK
 * calls them, against a real `node:http` server on 127.0.0.1. The server runs
 * in a worker thread: the call blocks this thread in `Atomics.wait` while the
 * helper thread fetches, exactly as it blocks a runner worker.
 *
 * What is checked: every refusal of a hostile request JSON answers status 0
 * with the exact reason as the body (what the JS engine throws to the hook),
 * a host outside the grant is refused and logged, a granted request reaches
 * the server with its method, headers and body, and a request unanswered at
 * the deadline throws `HttpDeadlineError` (the adapter's `timeout` fault).
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HTTP_MAX_REQUEST_BYTES, HTTP_MAX_RESPONSE_BYTES, HttpCalls, HttpDeadlineError, type HttpGrant } from '../../host/runner/http-calls.ts';
import { httpHelper } from '../../host/runner/http-client.ts';
import { LogSink } from '../../host/runner/log-sink.ts';

const SERVER = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
const hanging = new Set();
parentPort.on('message', () => parentPort.postMessage({ hanging: [...hanging] }));
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.url.startsWith('/hang')) {
      // Never answers; held open until the client gives it up.
      hanging.add(req.url);
      res.on('close', () => hanging.delete(req.url));
      return;
    }
    if (req.url.startsWith('/delay/')) {
      setTimeout(() => res.end('late'), Number(req.url.slice(7)));
      return;
    }
    if (req.url.startsWith('/big/')) {
      const n = Number(req.url.slice(5));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': n });
      return res.end(Buffer.alloc(n, 0x61));
    }
    if (req.url.startsWith('/chunked/')) {
      const n = Number(req.url.slice(9));
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(Math.floor(n / 2), 0x62));
      return res.end(Buffer.alloc(n - Math.floor(n / 2), 0x62));
    }
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://elsewhere.invalid/' });
      return res.end();
    }
    const body = JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.writeHead(201, { 'content-type': 'application/json', 'x-reply': 'yes' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

/** The SDK's call context, reduced to what the kernel functions use: a block store. */
class Blocks {
  readonly #blocks = new Map<bigint, Uint8Array>();
  #next = 1n;
  store(input: string | Uint8Array): bigint {
    const address = this.#next++;
    this.#blocks.set(address, typeof input === 'string' ? new TextEncoder().encode(input) : input);
    return address;
  }
  read(address: bigint): { bytes(): Uint8Array; string(): string } | null {
    const block = this.#blocks.get(address);
    if (block === undefined) return null;
    return { bytes: () => block, string: () => new TextDecoder().decode(block) };
  }
  text(address: bigint): string {
    return this.read(address)?.string() ?? '<no block>';
  }
}

let server: Worker;
let port: number;

beforeAll(async () => {
  server = new Worker(SERVER, { eval: true });
  port = await new Promise<number>((resolve) => server.once('message', resolve));
});

afterAll(async () => {
  await server.terminate();
});

function calls(grant: Partial<HttpGrant> | undefined, sink = new LogSink()) {
  const http = new HttpCalls(grant === undefined ? undefined : { allowedHosts: [], timeoutMs: 5000, maxResponseBytes: HTTP_MAX_RESPONSE_BYTES, ...grant }, sink);
  const blocks = new Blocks();
  const fns = http.functions();
  http.beginCall();
  const request = (json: unknown, body?: string): { status: number; text: string; headers: bigint | number } => {
    const address = json === undefined ? 999n : blocks.store(typeof json === 'string' ? json : JSON.stringify(json));
    const bodyAddress = body === undefined ? 0n : blocks.store(body);
    const out = fns.http_request(blocks, address, bodyAddress) as bigint;
    return { status: fns.http_status_code(blocks) as number, text: blocks.text(out), headers: fns.http_headers(blocks) };
  };
  return { http, blocks, request, sink };
}

describe('HttpCalls refusals (status 0, the reason as the body)', () => {
  const local = { allowedHosts: ['127.0.0.1'] };
  it.each([
    [undefined, 'the request block is missing'],
    ['{not json', 'the request is not JSON ({"url", "method", "headers"})'],
    ['null', 'the request is not a JSON object'],
    ['"http://127.0.0.1/"', 'the request is not a JSON object'],
    [{ method: 'GET' }, 'the request has no string "url"'],
    [{ url: 42 }, 'the request has no string "url"'],
    [{ url: 'not a url' }, '"not a url" is not a URL'],
    [{ url: 'file:///etc/passwd' }, 'only http: and https: URLs are served, not file:'],
    [{ url: 'http://127.0.0.1/', method: 'GE T' }, 'the request\'s "method" is not an HTTP method name'],
    [{ url: 'http://127.0.0.1/', method: 'A'.repeat(17) }, 'the request\'s "method" is not an HTTP method name'],
    [{ url: 'http://127.0.0.1/', method: 7 }, 'the request\'s "method" is not an HTTP method name'],
    // Neither reads as a method name unless coerced to a string ("true", "GET").
    [{ url: 'http://127.0.0.1/', method: true }, 'the request\'s "method" is not an HTTP method name'],
    [{ url: 'http://127.0.0.1/', method: ['GET'] }, 'the request\'s "method" is not an HTTP method name'],
    [{ url: 'http://127.0.0.1/', headers: ['a'] }, 'the request\'s "headers" is not an object'],
    [{ url: 'http://127.0.0.1/', headers: 'a: b' }, 'the request\'s "headers" is not an object'],
    [{ url: 'http://127.0.0.1/', headers: 5 }, 'the request\'s "headers" is not an object'],
    [{ url: 'http://127.0.0.1/', headers: { 'x-n': 1 } }, 'request header "x-n" is not a string'],
    [{ url: 'http://127.0.0.1/', header: { 'x-n': true } }, 'request header "x-n" is not a string'],
  ])('%j → %s', (json, reason) => {
    const { request } = calls(local);
    expect(request(json)).toEqual({ status: 0, text: reason, headers: 0n });
  });

  it('cuts a long bad URL and a long header name in the reason', () => {
    const { request } = calls(local);
    expect(request({ url: `x${'y'.repeat(300)}` }).text).toBe(`"x${'y'.repeat(199)}" is not a URL`);
    expect(request({ url: 'http://127.0.0.1/', headers: { ['h'.repeat(150)]: 1 } }).text).toBe(`request header "${'h'.repeat(100)}" is not a string`);
  });

  it('refuses a request JSON over 64 KiB before it reaches the helper thread, and takes one exactly at it', () => {
    const { request } = calls({ allowedHosts: ['granted.example'] });
    // Padded to an exact size: a JSON object with one header whose value fills the rest.
    const sized = (bytes: number): string => {
      const head = JSON.stringify({ url: 'http://denied.example/', headers: { pad: '' } });
      return head.replace('"pad":""', `"pad":"${'p'.repeat(bytes - head.length)}"`);
    };
    expect(sized(HTTP_MAX_REQUEST_BYTES)).toHaveLength(65_536);
    expect(request(sized(HTTP_MAX_REQUEST_BYTES)).text).toBe('host "denied.example" is not in this hook\'s allowedHosts (granted: granted.example)');
    expect(request(sized(HTTP_MAX_REQUEST_BYTES + 1))).toEqual({ status: 0, text: 'the request is 65537 bytes, over the 65536-byte cap on its url and headers', headers: 0n });
  });

  it('refuses a host outside the grant, names what is granted, and logs a warn line for the hook', () => {
    const none = calls({ allowedHosts: [] });
    expect(none.http.granted).toBe(false);
    expect(none.request({ url: `http://127.0.0.1:${port}/` })).toEqual({ status: 0, text: 'host "127.0.0.1" is not in this hook\'s allowedHosts (none are granted)', headers: 0n });
    expect(none.sink.drain()).toEqual([{ level: 'warn', message: 'Http.request denied: host "127.0.0.1" is not in this hook\'s allowedHosts (none are granted)' }]);
    const some = calls({ allowedHosts: ['api.example.com', '*.internal'] });
    expect(some.http.granted).toBe(true);
    expect(some.request({ url: 'https://EVIL.example.com/x' }).text).toBe('host "evil.example.com" is not in this hook\'s allowedHosts (granted: api.example.com, *.internal)');
    expect(calls(undefined).http.granted).toBe(false);
    expect(calls(undefined).request({ url: 'http://[::1]:1/' }).text).toBe('host "::1" is not in this hook\'s allowedHosts (none are granted)');
  });
});

describe('HttpCalls to a granted host', () => {
  it("the worker's helper thread starts once and listens before the first request", async () => {
    const helper = httpHelper();
    await helper.ready();
    expect(httpHelper()).toBe(helper);
    expect(helper.gone).toBe(false);
  });

  it('sends method, headers and body, and answers status, headers and body', () => {
    const { request } = calls({ allowedHosts: ['127.0.0.1'] });
    const reply = request({ url: `http://127.0.0.1:${port}/echo?q=1`, method: 'post', headers: { 'x-hook': 'h1' } }, 'payload');
    expect(reply.status).toBe(201);
    const echoed = JSON.parse(reply.text) as { method: string; url: string; headers: Record<string, string>; body: string };
    expect(echoed).toMatchObject({ method: 'POST', url: '/echo?q=1', body: 'payload' });
    expect(echoed.headers['x-hook']).toBe('h1');
    expect(typeof reply.headers).toBe('bigint');
  });

  it('defaults to GET, takes "header" as "headers", matches the grant case-insensitively, and reports the response headers', () => {
    const { request, blocks, http } = calls({ allowedHosts: ['LOCALHOST', '127.0.0.1'] });
    const reply = request({ url: `http://127.0.0.1:${port}/plain`, header: { 'x-alt': 'a' } });
    expect(JSON.parse(reply.text)).toMatchObject({ method: 'GET', headers: { 'x-alt': 'a' } });
    const headers = JSON.parse(blocks.text(reply.headers as bigint)) as Record<string, string>;
    expect(headers['x-reply']).toBe('yes');
    expect(headers['content-type']).toBe('application/json');
    // A new call starts with no status and no headers.
    http.beginCall();
    expect(http.functions().http_status_code(blocks)).toBe(0);
    expect(http.functions().http_headers(blocks)).toBe(0n);
    const viaName = request({ url: `http://localhost:${port}/named` });
    expect(viaName.status).toBe(201);
  });

  it('sends a method name upper-cased (fetch normalises only the common ones), and no body when the body block is missing', () => {
    const { request, blocks, http } = calls({ allowedHosts: ['127.0.0.1'] });
    expect(JSON.parse(request({ url: `http://127.0.0.1:${port}/m`, method: 'patch' }, 'p').text)).toMatchObject({ method: 'PATCH', body: 'p' });
    const out = http.functions().http_request(blocks, blocks.store(JSON.stringify({ url: `http://127.0.0.1:${port}/nobody`, method: 'POST' })), 12345n) as bigint;
    expect(JSON.parse(blocks.text(out))).toMatchObject({ method: 'POST', url: '/nobody', body: '' });
  });

  it('answers a redirect as it is, without following it', () => {
    const { request } = calls({ allowedHosts: ['127.0.0.1'] });
    const reply = request({ url: `http://127.0.0.1:${port}/redirect` });
    expect(reply.status).toBe(302);
    expect(reply.text).toBe('');
  });

  it('refuses a response body over the cap, declared or counted, and takes one exactly at it', () => {
    const { request } = calls({ allowedHosts: ['127.0.0.1'], maxResponseBytes: 1000 });
    expect(request({ url: `http://127.0.0.1:${port}/big/1000` })).toMatchObject({ status: 200, text: 'a'.repeat(1000) });
    expect(request({ url: `http://127.0.0.1:${port}/big/1001` })).toEqual({ status: 0, text: 'the response body is 1001 bytes, over the 1000-byte cap', headers: 0n });
    // Without a declared length the body is counted while it is read.
    expect(request({ url: `http://127.0.0.1:${port}/chunked/1000` })).toMatchObject({ status: 200, text: 'b'.repeat(1000) });
    expect(request({ url: `http://127.0.0.1:${port}/chunked/1001` })).toEqual({ status: 0, text: 'the response body exceeds the 1000-byte cap', headers: 0n });
  });

  it('a connection refused is status 0 with the reason', () => {
    const { request } = calls({ allowedHosts: ['127.0.0.1'] });
    const reply = request({ url: 'http://127.0.0.1:1/' });
    expect(reply.status).toBe(0);
    expect(reply.text).toMatch(/^fetch failed/);
  });

  it('throws HttpDeadlineError when the answer does not come before the deadline', () => {
    const { request } = calls({ allowedHosts: ['127.0.0.1'], timeoutMs: 300 });
    expect(() => request({ url: `http://127.0.0.1:${port}/hang` })).toThrow(
      new HttpDeadlineError(`Http.request to http://127.0.0.1:${port}/hang had no answer within the hook's 300 ms deadline`),
    );
    // Past the deadline already: no request is sent at all.
    const late = calls({ allowedHosts: ['127.0.0.1'], timeoutMs: 0 });
    expect(() => late.request({ url: `http://127.0.0.1:${port}/echo` })).toThrow(HttpDeadlineError);
  });
});

/** The never-answered requests the server holds open now. */
function hanging(): Promise<string[]> {
  const reply = new Promise<string[]>((resolve) => server.once('message', (message: { hanging: string[] }) => resolve(message.hanging)));
  server.postMessage('hanging?');
  return reply;
}

const exchange = (path: string, headers: Record<string, string> = {}) => ({ url: `http://127.0.0.1:${port}${path}`, method: 'GET', headers, maxBytes: 1000 });

describe("the worker's HTTP helper thread (http-client.ts)", () => {
  it('sends nothing when no time is left before the deadline', () => {
    expect(httpHelper().request(exchange('/echo'), performance.now())).toEqual({ ok: false, reason: 'no time left before the hook\'s deadline', timedOut: true });
  });

  it('answers a request unanswered at the deadline as timed out, and the helper gives it up too (the server sees it close)', async () => {
    // Several times: the helper's own abort at the deadline may reach this thread before its wait ends; both read as the deadline.
    for (let i = 0; i < 3; i++) {
      expect(httpHelper().request(exchange(`/hang?n=${i}`), performance.now() + 200)).toEqual({ ok: false, reason: 'no answer before the hook\'s deadline', timedOut: true });
      // Not left open on the server (on a loaded machine the abort may even come before the request left).
      await vi.waitFor(async () => expect(await hanging()).toEqual([]), { timeout: 2000, interval: 10 });
    }
  });

  it('drops the late answer to a request it gave up, and waits for the answer to the current one', async () => {
    const helper = httpHelper();
    expect(helper.request(exchange('/hang?stale'), performance.now() + 50)).toMatchObject({ ok: false, timedOut: true });
    // The given-up request's abort comes back while this one waits for its (later) answer.
    const answer = helper.request(exchange('/delay/300'), performance.now() + 5000);
    expect(answer.ok && new TextDecoder().decode(answer.body)).toBe('late');
  });

  it('a helper that dies under a request (out of its heap) ends the wait at the deadline; the next request starts a new helper', async () => {
    const helper = httpHelper();
    await helper.ready();
    // Unchecked headers (HttpCalls caps them; this is the helper's own boundary): a million of them
    // exhaust the helper's 64 MiB heap while it reads the message, so no answer ever comes.
    const many: Record<string, string> = {};
    for (let i = 0; i < 1_000_000; i++) many[`h${i}`] = 'v';
    expect(helper.request(exchange('/echo', many), performance.now() + 1000)).toEqual({ ok: false, reason: 'no answer before the hook\'s deadline', timedOut: true });
    await vi.waitFor(() => expect(helper.gone).toBe(true), { timeout: 15_000, interval: 20 });
    await expect(helper.ready()).rejects.toThrow(
      new Error('the HTTP helper thread stopped before it listened: Worker terminated due to reaching memory limit: JS heap out of memory'),
    );
    // The dead helper answers at once, however far the deadline.
    expect(helper.request(exchange('/echo'), performance.now() + 60_000)).toEqual({ ok: false, reason: 'the HTTP helper thread stopped', timedOut: false });
    const next = httpHelper();
    expect(next).not.toBe(helper);
    await next.ready();
    const answer = next.request(exchange('/echo'), performance.now() + 5000);
    expect(answer.ok && answer.status).toBe(201);
  }, 30_000);
});
