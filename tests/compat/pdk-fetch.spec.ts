// js-pdk's `fetch` (+ Headers, Request, Response) in an unchanged CommonJS
// plugin, served by the real runner against a real node:http server on
// 127.0.0.1: the same path, grant and caps as Http.request (pdk-http.spec.ts),
// a Response as the Fetch standard has it, no redirect followed, and a host
// outside the grant rejected with Http.request's message before a byte leaves.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../host/runner/index.ts';
import type { HookLogEntry } from '../../host/runner/types.ts';
import type { BuildHookResult } from '../../pdk/compiler/index.ts';
import { tempDir } from '../pdk/support.ts';
import { type LoadedPlugin, loadPlugin, tryBuild, writeProject } from './pdk-support.ts';

const FETCH_PLUGIN = `async function get_json() {
  const res = await fetch(Host.inputString(), { headers: { 'X-Test': 'from-fetch' } });
  const body = await res.json();
  Host.outputString(JSON.stringify({ status: res.status, ok: res.ok, statusText: res.statusText, url: res.url, type: res.headers.get('Content-Type'), served: res.headers.get('x-served-by'), redirected: res.redirected, body, used: res.bodyUsed }));
}

async function post() {
  const { url, body, binary } = JSON.parse(Host.inputString());
  const init = { method: 'post', headers: new Headers([['X-Test', 'posted']]), body: binary ? new Uint8Array(binary) : body };
  const res = await fetch(new Request(url, init));
  Host.outputString(res.status + ' ' + (await res.text()));
}

async function bytes() {
  const res = await fetch(Host.inputString());
  const copy = res.clone();
  const buffer = await res.arrayBuffer();
  let again = 'none';
  try {
    await res.text();
  } catch (e) {
    again = e.name;
  }
  Host.outputString(JSON.stringify({ bytes: Array.from(new Uint8Array(buffer)), again, text: (await copy.text()).length }));
}

async function status() {
  const { url, redirect } = JSON.parse(Host.inputString());
  try {
    const res = await fetch(url, redirect ? { redirect } : {});
    Host.outputString(JSON.stringify({ status: res.status, ok: res.ok, location: res.headers.get('location'), body: await res.text() }));
  } catch (e) {
    Host.outputString('rejected: ' + e.name + ': ' + e.message);
  }
}

function then_chain() {
  let out = 'not settled';
  return fetch(Host.inputString())
    .then((res) => res.text())
    .then((text) => {
      out = 'then: ' + text;
    }, (e) => {
      out = 'caught: ' + e.message;
    })
    .then(() => Host.outputString(out));
}

async function then_ticks() {
  let done = false;
  fetch(Host.inputString()).then((r) => r.text().then(() => {
    done = true;
  }));
  await Promise.resolve();
  await Promise.resolve();
  Host.outputString(String(done));
}

function both() {
  const url = Host.inputString();
  let viaHttp;
  try {
    Http.request({ url });
    viaHttp = 'sent';
  } catch (e) {
    viaHttp = e.message;
  }
  return fetch(url).then(() => Host.outputString('fetched'), (e) => Host.outputString(JSON.stringify({ viaHttp, viaFetch: e.message, same: e.message === viaHttp })));
}

function objects() {
  const h = new Headers({ 'Content-Type': 'text/plain', Accept: 'a' });
  h.append('accept', 'b');
  const r = new Response('{"x":1}', { status: 404, statusText: 'Nope', headers: h });
  const j = Response.json({ y: 2 }, { status: 201 });
  let bad = 'none';
  try {
    new Response('', { status: 99 });
  } catch (e) {
    bad = e.name;
  }
  let badName = 'none';
  try {
    h.set('bad name', 'x');
  } catch (e) {
    badName = e.name;
  }
  Host.outputString(JSON.stringify({ keys: h.keys(), accept: h.get('ACCEPT'), entries: [...h], ok: r.ok, status: r.status, statusText: r.statusText, json: j.headers.get('content-type'), jstatus: j.status, bad, badName, method: new Request('http://x/', { method: 'delete' }).method }));
}

module.exports = { get_json, post, bytes, status, then_chain, then_ticks, both, objects };
`;
const EXPORTS = ['get_json', 'post', 'bytes', 'status', 'then_chain', 'then_ticks', 'both', 'objects'];

let dir: string;
let cleanup: () => Promise<void>;
let built: BuildHookResult | Error | undefined;
let runner: HookRunner;
let server: Server;
let origin: string;
const logs: HookLogEntry[] = [];
const plugins: LoadedPlugin[] = [];
/** Every request the server received: method, path, x-test header, body. */
const seen: string[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    seen.push(`${req.method} ${req.url} ${String(req.headers['x-test'])} ${body.toString('hex')}`);
    switch (req.url) {
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'fetch-test' });
        res.end(JSON.stringify({ hello: 'world', test: req.headers['x-test'] }));
        return;
      case '/echo':
        res.writeHead(201, { 'content-type': 'text/plain' });
        res.end(`${req.method} ${req.headers['x-test']} ${req.headers['content-type']} ${body.toString('hex')}`);
        return;
      case '/bytes':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.from([0, 1, 254, 255]));
        return;
      case '/redirect':
        res.writeHead(302, { location: `${origin}/json` });
        res.end('moved');
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
    }
  });
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeProject(dir, { 'fetch/package.json': JSON.stringify({ name: 'fetch-plugin', type: 'module' }), 'fetch/index.js': FETCH_PLUGIN });
  built = await tryBuild(join(dir, 'fetch/index.js'), join(dir, 'out', 'fetch', 'plugin.wasm'));
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
}, 900_000);

afterAll(async () => {
  for (const plugin of plugins) await plugin.hook.close();
  await runner?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup?.();
});

async function load(allowedHosts?: string[]): Promise<LoadedPlugin> {
  const plugin = await loadPlugin(runner, logs, built, { exports: EXPORTS, ...(allowedHosts !== undefined && { allowedHosts }) });
  plugins.push(plugin);
  return plugin;
}

describe('fetch to a granted host', () => {
  it('builds unchanged', () => {
    if (built instanceof Error || built === undefined) throw built;
    expect(built.exports).toEqual([...EXPORTS].sort());
  });

  it('GET: a Response with status, ok, statusText, url, case-insensitive headers and json()', async () => {
    const plugin = await load(['127.0.0.1']);
    const res = JSON.parse((await plugin.text('get_json', `${origin}/json`)) ?? '');
    expect(res).toEqual({
      status: 200,
      ok: true,
      statusText: 'OK',
      url: `${origin}/json`,
      type: 'application/json',
      served: 'fetch-test',
      redirected: false,
      body: { hello: 'world', test: 'from-fetch' },
      used: true,
    });
  });

  it('POST through a Request: method, headers and a text or byte body, with the implied content-type', async () => {
    const plugin = await load(['127.0.0.1']);
    const text = await plugin.text('post', JSON.stringify({ url: `${origin}/echo`, body: 'hé' }));
    expect(text).toBe(`201 POST posted text/plain;charset=UTF-8 ${Buffer.from('hé').toString('hex')}`);
    expect(await plugin.text('post', JSON.stringify({ url: `${origin}/echo`, binary: [0, 255, 7] }))).toBe('201 POST posted undefined 00ff07');
  });

  it('arrayBuffer() gives the bytes as sent; a body reads once; clone() reads apart', async () => {
    const plugin = await load(['127.0.0.1']);
    expect(JSON.parse((await plugin.text('bytes', `${origin}/bytes`)) ?? '')).toEqual({ bytes: [0, 1, 254, 255], again: 'TypeError', text: 4 });
  });

  it('a 404 is a response with ok false, not a rejection', async () => {
    const plugin = await load(['127.0.0.1']);
    expect(JSON.parse((await plugin.text('status', JSON.stringify({ url: `${origin}/missing` }))) ?? '')).toEqual({ status: 404, ok: false, location: null, body: 'not found' });
  });

  it('a redirect is the answer, never followed; with redirect: "error" it rejects', async () => {
    const plugin = await load(['127.0.0.1']);
    const before = seen.length;
    expect(JSON.parse((await plugin.text('status', JSON.stringify({ url: `${origin}/redirect` }))) ?? '')).toEqual({ status: 302, ok: false, location: `${origin}/json`, body: 'moved' });
    expect(seen.slice(before).map((s) => s.split(' ')[1])).toEqual(['/redirect']);
    expect(await plugin.text('status', JSON.stringify({ url: `${origin}/redirect`, redirect: 'error' }))).toBe(
      `rejected: TypeError: fetch to ${origin}/redirect failed: the server redirected (status 302) and the request says redirect: "error"`,
    );
  });

  it('a .then chain settles inside the call (no await in the export)', async () => {
    const plugin = await load(['127.0.0.1']);
    expect(await plugin.text('then_chain', `${origin}/missing`)).toBe('then: not found');
  });

  it('a response and its body are settled promises: a nested .then runs within two awaited ticks, as in js-pdk', async () => {
    const plugin = await load(['127.0.0.1']);
    expect(await plugin.text('then_ticks', `${origin}/json`)).toBe('true');
  });

  it('Headers, Response and Request objects behave as the Fetch standard says', async () => {
    const plugin = await load(['127.0.0.1']);
    expect(JSON.parse((await plugin.text('objects')) ?? '')).toEqual({
      keys: ['accept', 'content-type'],
      accept: 'a, b',
      entries: [['accept', 'a, b'], ['content-type', 'text/plain']],
      ok: false,
      status: 404,
      statusText: 'Nope',
      json: 'application/json',
      jstatus: 201,
      bad: 'RangeError',
      badName: 'TypeError',
      method: 'DELETE',
    });
  });
});

describe('fetch to a host outside the grant', () => {
  it('rejects with the message Http.request throws, and nothing reaches the server', async () => {
    const plugin = await load(['*.example.com']);
    const before = seen.length;
    const answer = JSON.parse((await plugin.text('both', `${origin}/json`)) ?? '');
    expect(answer.same).toBe(true);
    expect(answer.viaFetch).toBe(`Http.request to ${origin}/json failed: host "127.0.0.1" is not in this hook's allowedHosts (granted: *.example.com)`);
    expect(seen.length).toBe(before);
  });

  it('with no grant at all, an awaited fetch is the plugin\'s own error', async () => {
    const plugin = await load();
    const before = seen.length;
    expect(await plugin.text('then_chain', `${origin}/json`)).toBe(`caught: Http.request to ${origin}/json failed: host "127.0.0.1" is not in this hook's allowedHosts (none are granted)`);
    const outcome = await plugin.call('get_json', `${origin}/json`);
    expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
    expect(outcome.type === 'fault' && outcome.fault.message).toContain('host "127.0.0.1" is not in this hook\'s allowedHosts (none are granted)');
    expect(seen.length).toBe(before);
  });
});
